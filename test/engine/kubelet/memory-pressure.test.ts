/**
 * The kubelet's eviction manager over simulated time: a memoryPressure step pushes a node below
 * memory.available<100Mi; the node gets MemoryPressure and the memory-pressure NoSchedule taint, the pod ranked
 * first is evicted (phase Failed, reason Evicted) with the kubelet's message, one per 10 s cycle until the node
 * has enough, its ReplicaSet replaces it on another node, and the condition and taint go 5 minutes later.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TimelineEvent } from '../../../protocol/timeline';
import type { ScenarioAction } from '../../../server/src/engine/scenario/scenario-spec';
import { nodes, run, workload } from '../../support/timeline-builders';

const Gi = 1024 ** 3;

function pressure(
  at: number,
  usage: { name: string; bytes: number }[],
): { at: number; action: ScenarioAction } {
  return {
    at,
    action: {
      type: 'memoryPressure',
      node: 'worker-1',
      usage: usage.map(({ name, bytes }) => ({
        subject: { type: 'workload', namespace: null, kind: 'Deployment', name },
        bytes,
      })),
    },
  };
}

const on = (events: readonly TimelineEvent[], ...types: string[]): [number, string, string][] =>
  events
    .filter((event) => types.includes(event.type))
    .map((event) => [event.time, event.type, event.object.name]);

describe('memory pressure and the kubelet eviction manager', () => {
  test('pods above their requests are evicted one per cycle until memory.available is back above 100Mi', () => {
    const result = run({
      cluster: nodes(2, '4', '4Gi'),
      manifests: [workload('Deployment', 'web', 'nginx', { replicas: 4 })],
      steps: [pressure(30, [{ name: 'web', bytes: 2.5 * Gi }])],
    });
    const onWorker1 = result.events.filter(
      (event) => event.node === 'worker-1' || event.object.name === 'worker-1',
    );
    assert.deepEqual(
      on(
        onWorker1,
        'NodeHasInsufficientMemory',
        'NodeTainted',
        'NodeHasSufficientMemory',
        'NodeUntainted',
      ).map(([time, type]) => [time, type]),
      [
        [30, 'NodeHasInsufficientMemory'],
        [30, 'NodeTainted'],
        [330, 'NodeHasSufficientMemory'],
        [330, 'NodeUntainted'],
      ],
    );
    const evicted = result.events.filter((event) => event.type === 'PodEvicted');
    assert.equal(evicted.length, 1);
    assert.equal(evicted[0]?.details?.reason, 'Evicted');
    assert.equal(
      evicted[0]?.message,
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 0. ' +
        'Container app was using 2560Mi, request is 128Mi, has larger consumption of memory. ',
    );
    const victim = [...result.state.pods.values()].find((pod) => pod.name === evicted[0]?.object.name);
    assert.deepEqual([victim?.terminal, victim?.phase], ['Failed', 'Evicted']);
    // The ReplicaSet replaces it; the taint keeps the new pod off worker-1.
    const replacement = result.events.find((event) => event.type === 'PodScheduled' && event.time === 30);
    assert.equal(replacement?.node, 'worker-2');
  });

  test('a node still short after one eviction evicts again 10 s later; a pod within its request stays', () => {
    const result = run({
      cluster: nodes(1, '8', '4Gi'),
      manifests: [
        workload('Deployment', 'web', 'nginx', { replicas: 3 }),
        workload(
          'Deployment',
          'cache',
          'redis',
          { replicas: 1 },
          { containers: [{ name: 'redis', image: 'redis' }] },
        ),
      ],
      steps: [pressure(20, [{ name: 'web', bytes: 2.1 * Gi }])],
    });
    // 3 × 2.1Gi on 4Gi + 100Mi: one eviction leaves 4.2Gi in use (available -104Mi), a second one 2.1Gi.
    const evictions = on(result.events, 'PodEvicted').map(([time, , name]) => [time, name.split('-')[0]]);
    assert.deepEqual(evictions, [
      [20, 'web'],
      [30, 'web'],
    ]);
    // The replacements cannot go anywhere while the only node is tainted.
    const pending = on(result.events, 'PodUnschedulable').filter(([time]) => time >= 20);
    assert.ok(pending.length > 0);
    assert.match(
      result.events.find((event) => event.type === 'PodUnschedulable' && event.time >= 20)?.message ?? '',
      /untolerated taint\(s\)|node\.kubernetes\.io\/memory-pressure/,
    );
  });

  test('a usage key that matches no pod on the node is a scenario finding', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [workload('Deployment', 'web', 'nginx')],
      steps: [pressure(5, [{ name: 'api', bytes: Gi }])],
    });
    assert.deepEqual(
      result.findings
        .filter((finding) => finding.code === 'scenario-invalid')
        .map((finding) => finding.message),
      ['Scenario step at t=5s: memoryPressure: no pod on node worker-1 matches usage key Deployment/api'],
    );
  });

  test('the same input gives the same timeline', () => {
    const input = {
      cluster: nodes(2, '4', '4Gi'),
      manifests: [workload('Deployment', 'web', 'nginx', { replicas: 4 })],
      steps: [pressure(30, [{ name: 'web', bytes: 2.5 * Gi }])],
    };
    assert.deepEqual(run(input).events, run(input).events);
  });
});
