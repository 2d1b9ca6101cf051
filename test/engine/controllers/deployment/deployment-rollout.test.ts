import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventsOf, nodes, run, workload } from '../../../support/timeline-builders';
import { maxOf, minOf } from '../../../../protocol/collections';

/** A running Deployment of `replicas` at 1.0 and the manifest that moves it to 2.0 with this strategy. */
function rollout(replicas: number, strategy: Record<string, unknown>, readinessSeconds = 0) {
  const spec = { replicas, strategy, ...(readinessSeconds > 0 ? { minReadySeconds: readinessSeconds } : {}) };
  return run({
    cluster: [...nodes(3, '8', '32Gi'), workload('Deployment', 'web', 'web:1.0', spec)],
    manifests: [workload('Deployment', 'web', 'web:2.0', spec)],
  });
}

describe('Deployment rolling update waves', () => {
  const cases: {
    name: string;
    replicas: number;
    strategy: Record<string, unknown>;
    first: [number, number];
    surge: number;
    unavailable: number;
  }[] = [
    {
      name: 'maxSurge 25% of 4 is 1: the first sync adds 1 new pod and removes none (maxUnavailable 0)',
      replicas: 4,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } },
      first: [1, 4],
      surge: 1,
      unavailable: 0,
    },
    {
      name: 'the API defaults (25% / 25%) on 4 replicas: 1 new, 1 old removed in the same sync',
      replicas: 4,
      strategy: {},
      first: [1, 3],
      surge: 1,
      unavailable: 1,
    },
    {
      name: 'maxSurge 0 and maxUnavailable 1: an old pod goes first, the new ReplicaSet starts at 0',
      replicas: 3,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
      first: [0, 2],
      surge: 0,
      unavailable: 1,
    },
    {
      name: 'maxSurge 100% doubles at once and keeps every old pod until the new ones are available',
      replicas: 3,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '100%', maxUnavailable: 0 } },
      first: [3, 3],
      surge: 3,
      unavailable: 0,
    },
  ];
  for (const { name, replicas, strategy, first, surge, unavailable } of cases) {
    test(name, () => {
      const result = rollout(replicas, strategy);
      const record = result.rollouts.get('Deployment', 'default', 'web');
      assert.ok(record !== undefined);
      assert.deepEqual([record.maxSurge, record.maxUnavailable], [surge, unavailable]);
      const [step0] = record.steps;
      assert.deepEqual([step0?.time, step0?.newReplicas, step0?.oldReplicas], [0, ...first]);
      assert.equal(record.outcome, 'Complete');
      const last = record.steps[record.steps.length - 1];
      assert.deepEqual([last?.newReplicas, last?.oldReplicas], [replicas, 0]);
      for (const step of record.steps) {
        assert.ok(
          step.newReplicas + step.oldReplicas <= replicas + surge,
          'never more than replicas + maxSurge',
        );
      }
    });
  }

  test('minReadySeconds delays every scale-down until the new pods are available', () => {
    const fast = rollout(2, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
    const slow = rollout(2, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }, 30);
    const end = (result: typeof fast): number =>
      result.rollouts.get('Deployment', 'default', 'web')?.endedAt ?? -1;
    assert.equal(end(slow) - end(fast), 60, 'two waves, each 30 s later');
  });

  test('the RolloutStep events carry the same numbers as the steps, and RolloutComplete the counts at the end', () => {
    const result = rollout(4, {});
    const steps = result.rollouts.get('Deployment', 'default', 'web')?.steps ?? [];
    const events = eventsOf(result, 'RolloutStep', 'web');
    assert.deepEqual(
      events.map((event) => ({ time: event.time, ...event.details?.rollout })),
      steps.slice(0, events.length),
    );
    const [complete] = eventsOf(result, 'RolloutComplete', 'web');
    const atEnd = { newReplicas: 4, oldReplicas: 0, available: 4, unavailable: 0 };
    assert.deepEqual(complete?.details?.rollout, atEnd);
    const { time, ...last } = steps[steps.length - 1] ?? { time: -1 };
    assert.deepEqual(last, atEnd, 'the steps end with the counts at the end');
    assert.ok(time <= (complete?.time ?? 0));
    assert.match(
      events[0]?.message ?? '',
      /^Scaled up replica set web-\S+ from 0 to 1; Scaled down replica set web-\S+ from 4 to 3$/,
    );
  });

  test('Recreate removes every old pod before the new ReplicaSet exists', () => {
    const spec = { replicas: 2, strategy: { type: 'Recreate' } };
    const result = run({
      cluster: [...nodes(2), workload('Deployment', 'web', 'web:1.0', spec)],
      manifests: [workload('Deployment', 'web', 'web:2.0', spec)],
    });
    const lastOldGone = maxOf(eventsOf(result, 'PodDeleted', 'web').map((event) => event.time));
    const firstNew = minOf(
      eventsOf(result, 'PodCreated', 'web')
        .filter((event) => event.time > 0)
        .map((event) => event.time),
    );
    assert.ok(firstNew >= lastOldGone, `new pods at ${firstNew}s, old gone at ${lastOldGone}s`);
    assert.equal(result.rollouts.get('Deployment', 'default', 'web')?.outcome, 'Complete');
  });

  test('a replica change with the new template is a scaling event first: the old ReplicaSet grows, then it rolls', () => {
    const spec = {
      replicas: 4,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    };
    const result = run({
      cluster: [...nodes(3), workload('Deployment', 'web', 'web:1.0', spec)],
      manifests: [workload('Deployment', 'web', 'web:2.0', { ...spec, replicas: 8 })],
    });
    const record = result.rollouts.get('Deployment', 'default', 'web');
    assert.deepEqual(
      [record?.steps[0]?.newReplicas, record?.steps[0]?.oldReplicas, record?.replicas],
      [1, 8, 8],
      'the old ReplicaSet took the new size before the first wave',
    );
    assert.equal(record?.outcome, 'Complete');
  });
});
