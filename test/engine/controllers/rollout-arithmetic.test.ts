import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DeploymentStrategy } from '../../../server/src/engine/controllers/rollout-arithmetic';
import type { IntOrPercent } from '../../../server/src/engine/model/int-or-percent';
import {
  daemonSetFenceposts,
  deploymentMaxSurge,
  deploymentMaxUnavailable,
  newReplicaSetReplicas,
  planOldReplicaSetsScaleDown,
  resolveFenceposts,
  statefulSetMaxUnavailable,
} from '../../../server/src/engine/controllers/rollout-arithmetic';
import {
  intValue,
  parseIntOrPercent,
  percentValue,
  scaledValue,
} from '../../../server/src/engine/model/int-or-percent';

/** "25%" or 2 as written in a manifest. */
function value(raw: string | number): IntOrPercent {
  const parsed = parseIntOrPercent(raw);
  assert.ok(parsed.ok, `${String(raw)} should parse`);
  return parsed.value;
}

function rolling(maxSurge: string | number, maxUnavailable: string | number): DeploymentStrategy {
  return { type: 'RollingUpdate', maxSurge: value(maxSurge), maxUnavailable: value(maxUnavailable) };
}

describe('parseIntOrPercent', () => {
  const cases: { name: string; raw: unknown; expected: IntOrPercent | string }[] = [
    { name: 'an integer is an absolute number', raw: 3, expected: intValue(3) },
    { name: 'a string with % is a percentage', raw: '25%', expected: percentValue(25) },
    {
      name: 'a percentage may exceed 100 here (validation reports it)',
      raw: '150%',
      expected: percentValue(150),
    },
    {
      name: 'a number written as a string is refused, as intstr does',
      raw: '5',
      expected: '"5" is not an integer or a percentage ("25%")',
    },
    { name: 'text is refused', raw: 'oops', expected: '"oops" is not an integer or a percentage ("25%")' },
    {
      name: 'a negative integer is refused',
      raw: -1,
      expected: 'must be a non-negative integer or a percentage, not -1',
    },
    {
      name: 'a fraction is refused',
      raw: 1.5,
      expected: 'must be a non-negative integer or a percentage, not 1.5',
    },
  ];
  for (const { name, raw, expected } of cases) {
    test(name, () => {
      const parsed = parseIntOrPercent(raw);
      assert.deepEqual(
        parsed,
        typeof expected === 'string' ? { ok: false, message: expected } : { ok: true, value: expected },
      );
    });
  }
});

describe('scaledValue (GetScaledValueFromIntOrPercent)', () => {
  const cases: { name: string; value: IntOrPercent; total: number; roundUp: boolean; expected: number }[] = [
    { name: 'an integer ignores the total', value: intValue(4), total: 10, roundUp: true, expected: 4 },
    { name: '25% of 3 rounds up to 1', value: percentValue(25), total: 3, roundUp: true, expected: 1 },
    { name: '25% of 3 rounds down to 0', value: percentValue(25), total: 3, roundUp: false, expected: 0 },
    {
      name: 'an exact percentage does not round',
      value: percentValue(50),
      total: 10,
      roundUp: true,
      expected: 5,
    },
    { name: '39% of 10 rounds up to 4', value: percentValue(39), total: 10, roundUp: true, expected: 4 },
    { name: '39% of 10 rounds down to 3', value: percentValue(39), total: 10, roundUp: false, expected: 3 },
  ];
  for (const { name, value: input, total, roundUp, expected } of cases) {
    test(name, () => assert.equal(scaledValue(input, total, roundUp), expected));
  }
});

describe('resolveFenceposts (TestResolveFenceposts)', () => {
  const cases: {
    name: string;
    surge?: string | number;
    unavailable?: string | number;
    desired: number;
    expected: [number, number];
  }[] = [
    {
      name: '0% and 0% of 0 gives unavailable 1',
      surge: '0%',
      unavailable: '0%',
      desired: 0,
      expected: [0, 1],
    },
    {
      name: '39% and 39% of 10: surge rounds up, unavailable down',
      surge: '39%',
      unavailable: '39%',
      desired: 10,
      expected: [4, 3],
    },
    { name: 'no surge and 39% of 10', unavailable: '39%', desired: 10, expected: [0, 3] },
    {
      name: 'a 1% unavailable rounding to 0 with no surge becomes 1',
      surge: '0%',
      unavailable: '1%',
      desired: 2,
      expected: [0, 1],
    },
    {
      name: '1% surge of 2 rounds up to 1, 25% unavailable down to 0',
      surge: '1%',
      unavailable: '25%',
      desired: 2,
      expected: [1, 0],
    },
    { name: 'integers are taken as they are', surge: 3, unavailable: 2, desired: 10, expected: [3, 2] },
  ];
  for (const { name, surge, unavailable, desired, expected } of cases) {
    test(name, () => {
      const resolved = resolveFenceposts(
        surge === undefined ? undefined : value(surge),
        unavailable === undefined ? undefined : value(unavailable),
        desired,
      );
      assert.deepEqual([resolved.maxSurge, resolved.maxUnavailable], expected);
    });
  }

  test('Recreate has no surge and no unavailability budget', () => {
    const recreate: DeploymentStrategy = {
      type: 'Recreate',
      maxSurge: value('25%'),
      maxUnavailable: value('25%'),
    };
    assert.equal(deploymentMaxSurge(recreate, 10), 0);
    assert.equal(deploymentMaxUnavailable(recreate, 10), 0);
  });

  test('maxUnavailable is capped at the replicas and is 0 for 0 replicas', () => {
    assert.equal(deploymentMaxUnavailable(rolling(0, 5), 3), 3);
    assert.equal(deploymentMaxUnavailable(rolling(1, 1), 0), 0);
  });
});

describe('newReplicaSetReplicas (TestDeploymentController_reconcileNewReplicaSet)', () => {
  const cases: {
    name: string;
    replicas: number;
    surge: number;
    old: number;
    current: number;
    expected: number;
  }[] = [
    {
      name: 'no surge and a full old ReplicaSet: no scale-up',
      replicas: 10,
      surge: 0,
      old: 10,
      current: 0,
      expected: 0,
    },
    {
      name: 'surge 2 over 10 old pods scales the new one to 2',
      replicas: 10,
      surge: 2,
      old: 10,
      current: 0,
      expected: 2,
    },
    {
      name: 'with only 5 old pods the new one goes to 7',
      replicas: 10,
      surge: 2,
      old: 5,
      current: 0,
      expected: 7,
    },
    {
      name: 'at replicas + surge already: no scale-up',
      replicas: 10,
      surge: 2,
      old: 10,
      current: 2,
      expected: 2,
    },
    {
      name: 'never more than the replicas in the new one',
      replicas: 10,
      surge: 2,
      old: 0,
      current: 9,
      expected: 10,
    },
  ];
  for (const { name, replicas, surge, old, current, expected } of cases) {
    test(name, () => {
      const strategy = rolling(surge, 0);
      assert.equal(newReplicaSetReplicas(strategy, replicas, old + current, current), expected);
    });
  }

  test('Recreate asks for every replica at once', () => {
    const recreate: DeploymentStrategy = { type: 'Recreate', maxSurge: value(0), maxUnavailable: value(0) };
    assert.equal(newReplicaSetReplicas(recreate, 4, 0, 0), 4);
  });
});

describe('planOldReplicaSetsScaleDown', () => {
  // TestDeploymentController_reconcileOldReplicaSets: surge 0, one old and one new ReplicaSet.
  const reconcileCases: {
    name: string;
    maxUnavailable: number;
    old: number;
    newReplicas: number;
    readyOld: number;
    readyNew: number;
    expected: number;
  }[] = [
    {
      name: 'maxUnavailable 0 with no surge resolves to 1: old 10 goes to 9',
      maxUnavailable: 0,
      old: 10,
      newReplicas: 0,
      readyOld: 10,
      readyNew: 0,
      expected: 9,
    },
    {
      name: 'maxUnavailable 2 scales 10 healthy old pods to 8',
      maxUnavailable: 2,
      old: 10,
      newReplicas: 0,
      readyOld: 10,
      readyNew: 0,
      expected: 8,
    },
    {
      name: 'two unhealthy old pods are cleaned up first (10 to 8)',
      maxUnavailable: 2,
      old: 10,
      newReplicas: 0,
      readyOld: 8,
      readyNew: 0,
      expected: 8,
    },
    {
      name: 'one unhealthy pod cleaned up and one ready pod scaled down',
      maxUnavailable: 2,
      old: 10,
      newReplicas: 0,
      readyOld: 9,
      readyNew: 0,
      expected: 8,
    },
    {
      name: 'unavailable new pods stop a further scale-down',
      maxUnavailable: 2,
      old: 8,
      newReplicas: 2,
      readyOld: 8,
      readyNew: 0,
      expected: 8,
    },
  ];
  for (const { name, maxUnavailable, old, newReplicas, readyOld, readyNew, expected } of reconcileCases) {
    test(name, () => {
      const resolved = deploymentMaxUnavailable(rolling(0, maxUnavailable), 10);
      const plan = planOldReplicaSetsScaleDown(10, resolved, { replicas: newReplicas, available: readyNew }, [
        { replicas: old, available: readyOld },
      ]);
      assert.deepEqual(plan.sizes, [expected]);
    });
  }

  // TestDeploymentController_cleanupUnhealthyReplicas: how many unhealthy replicas go, bounded by maxScaledDown
  // (= old pods - replicas + maxUnavailable + available new pods here).
  const cleanupCases: {
    name: string;
    ready: number;
    unhealthy: number;
    replicas: number;
    maxUnavailable: number;
    newAvailable: number;
    expected: number;
  }[] = [
    {
      name: 'a cleanup bounded to 1 removes 1 of 2 unhealthy pods',
      ready: 8,
      unhealthy: 2,
      replicas: 10,
      maxUnavailable: 1,
      newAvailable: 0,
      expected: 1,
    },
    {
      name: 'a cleanup bounded to 3 removes both unhealthy pods',
      ready: 8,
      unhealthy: 2,
      replicas: 10,
      maxUnavailable: 2,
      newAvailable: 1,
      expected: 2,
    },
    {
      name: 'a cleanup bounded to 0 removes nothing',
      ready: 8,
      unhealthy: 2,
      replicas: 11,
      maxUnavailable: 1,
      newAvailable: 0,
      expected: 0,
    },
    {
      name: 'no unhealthy pod, nothing to clean up',
      ready: 10,
      unhealthy: 0,
      replicas: 10,
      maxUnavailable: 2,
      newAvailable: 1,
      expected: 0,
    },
  ];
  for (const { name, ready, unhealthy, replicas, maxUnavailable, newAvailable, expected } of cleanupCases) {
    test(name, () => {
      const plan = planOldReplicaSetsScaleDown(
        replicas,
        maxUnavailable,
        { replicas: newAvailable, available: newAvailable },
        [{ replicas: ready + unhealthy, available: ready }],
      );
      assert.equal(plan.cleanedUp, expected);
    });
  }

  // TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate.
  const scaleDownCases: {
    name: string;
    maxUnavailable: number;
    ready: number;
    old: number;
    expected: number;
  }[] = [
    {
      name: 'maxUnavailable 0 (resolved to 1) takes 10 ready pods to 9',
      maxUnavailable: 0,
      ready: 10,
      old: 10,
      expected: 9,
    },
    { name: 'maxUnavailable 2 takes 10 ready pods to 8', maxUnavailable: 2, ready: 10, old: 10, expected: 8 },
    {
      name: 'with 8 of 10 ready only the 2 unready ones go',
      maxUnavailable: 2,
      ready: 8,
      old: 10,
      expected: 8,
    },
    { name: 'an old ReplicaSet already at 0 stays at 0', maxUnavailable: 2, ready: 10, old: 0, expected: 0 },
    {
      name: 'with 1 of 10 ready the unready ones are cleaned up within the budget',
      maxUnavailable: 2,
      ready: 1,
      old: 10,
      expected: 8,
    },
  ];
  for (const { name, maxUnavailable, ready, old, expected } of scaleDownCases) {
    test(name, () => {
      const resolved = deploymentMaxUnavailable(rolling(0, maxUnavailable), 10);
      const plan = planOldReplicaSetsScaleDown(10, resolved, { replicas: 0, available: 0 }, [
        { replicas: old, available: ready },
      ]);
      assert.deepEqual(plan.sizes, [expected]);
    });
  }

  test('old ReplicaSets are scaled down oldest first', () => {
    const plan = planOldReplicaSetsScaleDown(6, 3, { replicas: 0, available: 0 }, [
      { replicas: 2, available: 2 },
      { replicas: 4, available: 4 },
    ]);
    assert.deepEqual(plan.sizes, [0, 3]);
    assert.equal(plan.scaledDown, 3);
  });
});

describe('DaemonSet and StatefulSet fenceposts', () => {
  const daemonCases: {
    name: string;
    surge?: string | number;
    unavailable?: string | number;
    nodes: number;
    expected: [number, number];
  }[] = [
    { name: 'the API defaults are maxSurge 0 and maxUnavailable 1', nodes: 5, expected: [0, 1] },
    { name: 'both round up: 10% of 15 nodes is 2', unavailable: '10%', nodes: 15, expected: [0, 2] },
    {
      name: 'a surge of 20% of 3 nodes rounds up to 1',
      surge: '20%',
      unavailable: 0,
      nodes: 3,
      expected: [1, 0],
    },
    {
      name: 'both zero after rounding gives unavailable 1',
      surge: 0,
      unavailable: '0%',
      nodes: 3,
      expected: [0, 1],
    },
    { name: 'no node: nothing to roll', surge: 0, unavailable: 0, nodes: 0, expected: [0, 0] },
  ];
  for (const { name, surge, unavailable, nodes, expected } of daemonCases) {
    test(name, () => {
      const resolved = daemonSetFenceposts(
        surge === undefined ? undefined : value(surge),
        unavailable === undefined ? undefined : value(unavailable),
        nodes,
      );
      assert.deepEqual([resolved.maxSurge, resolved.maxUnavailable], expected);
    });
  }

  const statefulCases: {
    name: string;
    raw?: string | number;
    replicas: number;
    gate: boolean;
    expected: number;
  }[] = [
    {
      name: 'without the MaxUnavailableStatefulSet gate one pod at a time',
      raw: 3,
      replicas: 5,
      gate: false,
      expected: 1,
    },
    { name: 'with the gate the value is used', raw: 3, replicas: 5, gate: true, expected: 3 },
    { name: 'with the gate a percentage rounds down', raw: '50%', replicas: 5, gate: true, expected: 2 },
    {
      name: 'with the gate a percentage rounding to 0 becomes 1',
      raw: '10%',
      replicas: 5,
      gate: true,
      expected: 1,
    },
    { name: 'with the gate an absent value is 1', replicas: 5, gate: true, expected: 1 },
  ];
  for (const { name, raw, replicas, gate, expected } of statefulCases) {
    test(name, () => {
      assert.equal(
        statefulSetMaxUnavailable(raw === undefined ? undefined : value(raw), replicas, gate),
        expected,
      );
    });
  }
});
