import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWorkloadPredictions } from '../../../server/src/language/predictions/workload-predictions';
import { buildFramework } from '../../../server/src/engine/scheduler/framework/build-framework';
import { DEFAULT_PROFILE } from '../../../server/src/engine/scheduler/profile';
import { IN_TREE_REGISTRY } from '../../../server/src/engine/scheduler/registry';
import { Scheduler } from '../../../server/src/engine/scheduler/scheduler';
import type { SchedulingRecord } from '../../../server/src/engine/scheduler/record';
import type { PodInfo } from '../../../server/src/engine/model/snapshot/pod-info';
import { container, makeCluster, makeNode, makePod } from '../../engine/scheduler/builders';

// Pending replicas of workloads whose pods are alike share one FitError (engine/scheduler/equivalence-cache.ts);
// buildWorkloadPredictions explains it once. Each workload's prediction must read as if built on its own.

function replica(workload: string, index: number, cpu = '1'): PodInfo {
  const pod = makePod(`${workload}-${index}`, { containers: [container({ cpu, memory: '100Mi' })] });
  return {
    ...pod,
    source: { file: 'file:///w.yaml', documentIndex: Number(workload.slice(1)), path: ['spec', 'template'] },
    owner: { kind: 'Deployment', name: workload },
  };
}

function schedule(pods: readonly PodInfo[]): SchedulingRecord[] {
  const cluster = makeCluster([makeNode('n1', { cpu: '2' }), makeNode('n2', { cpu: '1' })]);
  const { framework } = buildFramework(DEFAULT_PROFILE, IN_TREE_REGISTRY, cluster, '1.35');
  const scheduler = new Scheduler(cluster, new Map([[DEFAULT_PROFILE.schedulerName, framework]]), {
    detail: 'compact',
    equivalence: { labelsAlwaysRead: false },
  });
  return scheduler.scheduleAll(pods);
}

describe('buildWorkloadPredictions over Pending pods sharing a FitError', () => {
  test('each workload reads as built alone, and its lists are its own', () => {
    // Three 1-cpu replicas fit (2 + 1 cpu): w1's; w2's and w3's stay Pending on one FitError.
    const pods = ['w1', 'w2', 'w3'].flatMap((workload) => [0, 1, 2].map((i) => replica(workload, i)));
    const records = schedule(pods);
    const pendingErrors = new Set(records.filter((r) => r.nodeName === null).map((r) => r.fitError));
    assert.equal(pendingErrors.size, 1);
    const together = buildWorkloadPredictions(records, true);
    const alone = ['w1', 'w2', 'w3'].flatMap((workload) =>
      buildWorkloadPredictions(
        records.filter((record) => record.pod.owner?.name === workload),
        true,
      ),
    );
    assert.deepEqual(together, alone);
    assert.deepEqual(
      together.map((prediction) => [prediction.name, prediction.scheduled, prediction.pending]),
      [
        ['w1', 3, 0],
        ['w2', 0, 3],
        ['w3', 0, 3],
      ],
    );
    const [, second, third] = together;
    assert.ok(second !== undefined && third !== undefined);
    assert.match(second.pendingMessage ?? '', /^0\/2 nodes are available: 2 Insufficient cpu/);
    assert.notEqual(second.causes, third.causes);
    assert.notEqual(second.nodeReasons, third.nodeReasons);
  });
});
