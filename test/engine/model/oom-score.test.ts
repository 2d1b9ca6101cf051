/**
 * oom_score_adj as the kubelet computes it, rows following pkg/kubelet/qos/policy_test.go
 * TestGetContainerOOMScoreAdjust (the pod names are upstream's), plus node-critical pods and sidecars.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { containerOomScoreAdjust } from '../../../server/src/engine/model/oom-score';

const STANDARD_MEMORY = 8_000_000_000;

function pod(
  resources: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { containers: [{ name: 'app', image: 'x', resources }], ...extra };
}

describe('containerOomScoreAdjust (GetContainerOOMScoreAdjust)', () => {
  const cases: { name: string; spec: unknown; capacity: number; score: number }[] = [
    {
      name: 'TestGetContainerOOMScoreAdjust cpuLimit: Burstable without a memory request gets 999, below BestEffort',
      spec: pod({ limits: { cpu: '10' } }),
      capacity: 4_000_000_000,
      score: 999,
    },
    {
      name: 'TestGetContainerOOMScoreAdjust zeroMemoryLimit: a zero limit is BestEffort, 1000',
      spec: pod({ limits: { memory: '0' } }),
      capacity: 7_230_457_451,
      score: 1000,
    },
    {
      name: 'TestGetContainerOOMScoreAdjust noRequestLimit: BestEffort, 1000',
      spec: pod({}),
      capacity: 4_000_000_000,
      score: 1000,
    },
    {
      name: 'TestGetContainerOOMScoreAdjust equalRequestLimitCPUMemory: Guaranteed, -997',
      spec: pod({ requests: { memory: '10G', cpu: '5m' }, limits: { memory: '10G', cpu: '5m' } }),
      capacity: 123_456_789,
      score: -997,
    },
    {
      name: 'TestGetContainerOOMScoreAdjust cpuUnlimitedMemoryLimitedWithRequests: half the memory requested, 500',
      spec: pod({ requests: { memory: String(STANDARD_MEMORY / 2), cpu: '5m' }, limits: { memory: '10G' } }),
      capacity: STANDARD_MEMORY,
      score: 500,
    },
    {
      name: 'TestGetContainerOOMScoreAdjust requestNoLimit: nearly all memory requested is raised to 3, above Guaranteed',
      spec: pod({ requests: { memory: String(STANDARD_MEMORY - 1), cpu: '5m' } }),
      capacity: STANDARD_MEMORY,
      score: 3,
    },
    {
      name: 'a node-critical pod (system-node-critical) gets -997 whatever its QoS',
      spec: pod({}, { priorityClassName: 'system-node-critical' }),
      capacity: 4_000_000_000,
      score: -997,
    },
    {
      name: 'a memory limit without a request counts as the request, as the API server defaults it (upstream memoryLimitCPURequest is undefaulted)',
      spec: pod({ requests: { cpu: '0' }, limits: { memory: '2G' } }),
      capacity: STANDARD_MEMORY,
      score: 750,
    },
  ];
  for (const row of cases) {
    test(row.name, () => {
      assert.equal(containerOomScoreAdjust(row.spec, 'app', row.capacity)?.score, row.score);
    });
  }

  test('a sidecar gets at most the score of the regular container with the smallest request', () => {
    const spec = {
      containers: [{ name: 'app', image: 'x', resources: { requests: { memory: '2G' } } }],
      initContainers: [
        { name: 'proxy', image: 'y', restartPolicy: 'Always', resources: { requests: { memory: '1G' } } },
      ],
    };
    assert.equal(containerOomScoreAdjust(spec, 'app', STANDARD_MEMORY)?.score, 750);
    assert.equal(containerOomScoreAdjust(spec, 'proxy', STANDARD_MEMORY)?.score, 750);
  });

  test('an unknown container or a node without memory gives no score', () => {
    assert.equal(containerOomScoreAdjust(pod({}), 'other', STANDARD_MEMORY), null);
    assert.equal(containerOomScoreAdjust(pod({}), 'app', 0), null);
  });
});
