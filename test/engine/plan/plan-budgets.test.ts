import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { planRollouts } from '../../../server/src/engine/plan/plan-consequences';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import type { SimulationReport } from '../../../server/src/engine/simulate/report';

// A rollout's budgets in a plan: the lowest status.disruptionsAllowed the disruption controller computed while the
// rollout ran (pkg/controller/disruption/disruption.go counts every pod the selector matches), read from the
// report's allowedChanges, not recomputed from the rolling workload's own pods.

const source = { file: 'in.yaml', documentIndex: 0, path: [] } as unknown as SourcedObject['source'];

const objects: SourcedObject[] = [
  {
    source,
    object: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { template: { metadata: { labels: { app: 'web', tier: 'front' } } } },
    },
  },
  {
    source,
    object: {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'front', namespace: 'shop' },
      spec: { selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] } },
    },
  },
  {
    source,
    object: {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'other', namespace: 'shop' },
      spec: { selector: { matchLabels: { app: 'db' } } },
    },
  },
];

function report(allowedChanges: { at: number; disruptionsAllowed: number }[], endedAt: number | null) {
  const budget = {
    namespace: 'shop',
    expectedPods: 6,
    currentHealthy: 6,
    desiredHealthy: 4,
    disruptionsAllowed: 2,
    syncError: null,
    blocks: [],
    allowedChanges,
  };
  return {
    rollouts: [
      {
        namespace: 'shop',
        name: 'web',
        kind: 'Deployment',
        strategy: 'RollingUpdate',
        maxSurge: 1,
        maxUnavailable: 0,
        replicas: 3,
        startedAt: 10,
        outcome: endedAt === null ? 'Progressing' : 'Complete',
        endedAt,
        message: '',
        // The rolling workload alone never has fewer than 3 available: its own pods would say "2 allowed".
        steps: [{ time: 10, newReplicas: 1, oldReplicas: 3, available: 3, unavailable: 0 }],
      },
    ],
    disruptionBudgets: [
      { ...budget, name: 'front' },
      { ...budget, name: 'other', allowedChanges: [{ at: 0, disruptionsAllowed: 0 }] },
    ],
  } as unknown as SimulationReport;
}

describe('a plan’s rollout budgets', () => {
  test('the lowest value while the rollout runs counts, including the value in effect when it starts', () => {
    const changes = [
      { at: 0, disruptionsAllowed: 2 },
      { at: 12, disruptionsAllowed: 1 },
      { at: 15, disruptionsAllowed: 0 },
      { at: 20, disruptionsAllowed: 2 },
    ];
    assert.deepEqual(planRollouts(report(changes, 30), objects)[0]?.budgets, [
      { name: 'front', minDisruptionsAllowed: 0 },
    ]);
  });

  test('a change before the rollout starts is replaced by the one in effect; one after it ends is not counted', () => {
    const changes = [
      { at: 0, disruptionsAllowed: 0 },
      { at: 5, disruptionsAllowed: 2 },
      { at: 40, disruptionsAllowed: 0 },
    ];
    assert.deepEqual(planRollouts(report(changes, 30), objects)[0]?.budgets, [
      { name: 'front', minDisruptionsAllowed: 2 },
    ]);
  });

  test('a rollout that never ends counts every later change', () => {
    const changes = [
      { at: 0, disruptionsAllowed: 2 },
      { at: 400, disruptionsAllowed: 1 },
    ];
    assert.deepEqual(planRollouts(report(changes, null), objects)[0]?.budgets, [
      { name: 'front', minDisruptionsAllowed: 1 },
    ]);
  });
});
