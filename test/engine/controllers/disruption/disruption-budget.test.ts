import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type {
  BudgetPod,
  BudgetSpec,
  ScaleFinder,
} from '../../../../server/src/engine/controllers/disruption/disruption-budget';
import {
  computeBudgetStatus,
  noControllerMessage,
  noScaleSubresourceMessage,
} from '../../../../server/src/engine/controllers/disruption/disruption-budget';
import { parseIntOrPercent } from '../../../../server/src/engine/model/int-or-percent';
import type { IntOrPercent } from '../../../../server/src/engine/model/int-or-percent';

function value(raw: string | number): IntOrPercent {
  const parsed = parseIntOrPercent(raw);
  assert.ok(parsed.ok);
  return parsed.value;
}

function spec(rule: { minAvailable?: string | number; maxUnavailable?: string | number }): BudgetSpec {
  return {
    minAvailable: rule.minAvailable === undefined ? undefined : value(rule.minAvailable),
    maxUnavailable: rule.maxUnavailable === undefined ? undefined : value(rule.maxUnavailable),
  };
}

/** `count` pods of a controller ("ReplicaSet/web"), the first `ready` of them Ready. */
function pods(count: number, ready: number, controller: string | null, prefix = 'pod'): BudgetPod[] {
  const [kind = '', name = ''] = controller?.split('/') ?? [];
  return Array.from({ length: count }, (_, index) => ({
    name: `${prefix}-${index}`,
    isReady: index < ready,
    isDeleting: false,
    controllerRef: controller === null ? null : { kind, name },
  }));
}

/** Scales by "Kind/name"; DaemonSets and Jobs have no scale subresource. */
function scales(table: Record<string, number>): ScaleFinder {
  return (ref) => {
    const scale = table[`${ref.kind}/${ref.name}`];
    if (ref.kind === 'DaemonSet' || ref.kind === 'Job') {
      return { kind: 'error', message: noScaleSubresourceMessage(ref.kind) };
    }
    return scale === undefined
      ? { kind: 'error', message: noControllerMessage(`${ref.name}-pod`) }
      : { kind: 'scale', controllerKey: `${ref.kind}/${ref.name}`, scale };
  };
}

describe('computeBudgetStatus (disruption controller)', () => {
  const cases: {
    name: string;
    rule: { minAvailable?: string | number; maxUnavailable?: string | number };
    pods: BudgetPod[];
    scales?: Record<string, number>;
    expected: { expected: number; desired: number; current: number; allowed: number; error?: string };
  }[] = [
    {
      name: 'minAvailable 3 over 4 ready pods allows one disruption (TestUnavailable)',
      rule: { minAvailable: 3 },
      pods: pods(4, 4, 'ReplicaSet/web'),
      expected: { expected: 4, desired: 3, current: 4, allowed: 1 },
    },
    {
      name: 'an unready pod leaves no disruption to allow',
      rule: { minAvailable: 3 },
      pods: pods(4, 3, 'ReplicaSet/web'),
      expected: { expected: 4, desired: 3, current: 3, allowed: 0 },
    },
    {
      name: 'an integer minAvailable counts pods without a controller too',
      rule: { minAvailable: 1 },
      pods: pods(2, 2, null),
      expected: { expected: 2, desired: 1, current: 2, allowed: 1 },
    },
    {
      name: 'maxUnavailable over naked pods expects none and allows nothing (TestIntegerMaxUnavailable)',
      rule: { maxUnavailable: 1 },
      pods: pods(2, 2, null),
      expected: { expected: 0, desired: 0, current: 2, allowed: 0 },
    },
    {
      name: 'maxUnavailable 2 of a ReplicaSet scaled to 7 with 5 ready pods allows nothing (TestIntegerMaxUnavailableWithScaling)',
      rule: { maxUnavailable: 2 },
      pods: pods(5, 5, 'ReplicaSet/web'),
      scales: { 'ReplicaSet/web': 7 },
      expected: { expected: 7, desired: 5, current: 5, allowed: 0 },
    },
    {
      name: 'the same budget once the ReplicaSet is scaled to 5 allows 2',
      rule: { maxUnavailable: 2 },
      pods: pods(5, 5, 'ReplicaSet/web'),
      scales: { 'ReplicaSet/web': 5 },
      expected: { expected: 5, desired: 3, current: 5, allowed: 2 },
    },
    {
      name: 'maxUnavailable 30% of 7 rounds up to 3 (TestPercentageMaxUnavailableWithScaling)',
      rule: { maxUnavailable: '30%' },
      pods: pods(5, 5, 'ReplicaSet/web'),
      scales: { 'ReplicaSet/web': 7 },
      expected: { expected: 7, desired: 4, current: 5, allowed: 1 },
    },
    {
      name: 'minAvailable 100% over a naked pod expects none and allows nothing (TestNakedPod)',
      rule: { minAvailable: '100%' },
      pods: pods(1, 1, null),
      expected: { expected: 0, desired: 0, current: 1, allowed: 0 },
    },
    {
      name: 'minAvailable 34% of a StatefulSet of 3 rounds up to 2 (TestStatefulSetController)',
      rule: { minAvailable: '34%' },
      pods: pods(3, 3, 'StatefulSet/db'),
      scales: { 'StatefulSet/db': 3 },
      expected: { expected: 3, desired: 2, current: 3, allowed: 1 },
    },
    {
      name: 'minAvailable 28% over two controllers of 11 expects 22 and needs 7 (TestTwoControllers)',
      rule: { minAvailable: '28%' },
      pods: [...pods(11, 11, 'ReplicationController/rc', 'a'), ...pods(11, 11, 'Deployment/d', 'b')],
      scales: { 'ReplicationController/rc': 11, 'Deployment/d': 11 },
      expected: { expected: 22, desired: 7, current: 22, allowed: 15 },
    },
    {
      name: 'minAvailable 20% of a ReplicaSet of 10 needs 2 (TestReplicaSet)',
      rule: { minAvailable: '20%' },
      pods: pods(10, 10, 'ReplicaSet/rs'),
      scales: { 'ReplicaSet/rs': 10 },
      expected: { expected: 10, desired: 2, current: 10, allowed: 8 },
    },
    {
      name: 'a percentage over DaemonSet pods fails the sync and allows nothing',
      rule: { minAvailable: '50%' },
      pods: pods(3, 3, 'DaemonSet/agent'),
      expected: {
        expected: 0,
        desired: 0,
        current: 0,
        allowed: 0,
        error: 'daemonsets.apps does not implement the scale subresource',
      },
    },
    {
      name: 'maxUnavailable over a pod whose controller is gone fails the sync',
      rule: { maxUnavailable: 1 },
      pods: pods(1, 1, 'ReplicaSet/gone'),
      expected: {
        expected: 0,
        desired: 0,
        current: 0,
        allowed: 0,
        error: 'found no controllers for pod "gone-pod"',
      },
    },
    {
      name: 'a budget with neither field expects nothing and allows nothing',
      rule: {},
      pods: pods(3, 3, 'ReplicaSet/web'),
      expected: { expected: 0, desired: 0, current: 3, allowed: 0 },
    },
  ];
  for (const { name, rule, pods: selected, scales: table, expected } of cases) {
    test(name, () => {
      const status = computeBudgetStatus(spec(rule), selected, scales(table ?? {}), new Map(), 0);
      assert.deepEqual(
        {
          expected: status.expectedPods,
          desired: status.desiredHealthy,
          current: status.currentHealthy,
          allowed: status.disruptionsAllowed,
          ...(status.syncError === null ? {} : { error: status.syncError }),
        },
        expected,
      );
    });
  }

  test('pods without a controller under maxUnavailable are listed as unmanaged', () => {
    const status = computeBudgetStatus(
      spec({ maxUnavailable: 1 }),
      pods(2, 2, null),
      scales({}),
      new Map(),
      0,
    );
    assert.deepEqual(status.unmanagedPods, ['pod-0', 'pod-1']);
  });

  test('a pod being deleted is not healthy', () => {
    const selected = pods(3, 3, 'ReplicaSet/web').map((pod, index) => ({ ...pod, isDeleting: index === 0 }));
    const status = computeBudgetStatus(spec({ minAvailable: 2 }), selected, scales({}), new Map(), 0);
    assert.equal(status.currentHealthy, 2);
    assert.equal(status.disruptionsAllowed, 0);
  });

  const disruptedCases: { name: string; now: number; healthy: number; kept: boolean }[] = [
    {
      name: 'an evicted pod stays out of currentHealthy while its deletion is awaited',
      now: 60,
      healthy: 2,
      kept: true,
    },
    {
      name: 'at exactly two minutes it is kept in DisruptedPods yet counted healthy again',
      now: 120,
      healthy: 3,
      kept: true,
    },
    {
      name: 'after two minutes it is dropped and counted healthy (NotDeleted)',
      now: 121,
      healthy: 3,
      kept: false,
    },
  ];
  for (const { name, now, healthy, kept } of disruptedCases) {
    test(name, () => {
      const status = computeBudgetStatus(
        spec({ minAvailable: 1 }),
        pods(3, 3, 'ReplicaSet/web'),
        scales({}),
        new Map([['pod-0', 0]]),
        now,
      );
      assert.equal(status.currentHealthy, healthy);
      assert.equal(status.disruptedPods.has('pod-0'), kept);
    });
  }

  test('a pod that is being deleted leaves DisruptedPods', () => {
    const selected = pods(3, 3, 'ReplicaSet/web').map((pod, index) => ({ ...pod, isDeleting: index === 0 }));
    const status = computeBudgetStatus(
      spec({ minAvailable: 1 }),
      selected,
      scales({}),
      new Map([['pod-0', 0]]),
      10,
    );
    assert.equal(status.disruptedPods.size, 0);
  });
});
