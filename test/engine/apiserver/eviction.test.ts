import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BudgetStatus } from '../../../server/src/engine/controllers/disruption/disruption-budget';
import { emptyBudgetStatus } from '../../../server/src/engine/controllers/disruption/disruption-budget';
import type { EvictionBudget } from '../../../server/src/engine/apiserver/eviction';
import {
  EVICTION_MULTIPLE_BUDGETS,
  EVICTION_VIOLATES_BUDGET,
  checkEviction,
} from '../../../server/src/engine/apiserver/eviction';

function budget(
  name: string,
  status: Partial<BudgetStatus>,
  policy: EvictionBudget['unhealthyPodEvictionPolicy'] = 'IfHealthyBudget',
): EvictionBudget {
  return {
    key: `default/${name}`,
    name,
    unhealthyPodEvictionPolicy: policy,
    status: { ...emptyBudgetStatus(), ...status },
  };
}

describe('checkEviction (the eviction API)', () => {
  test('the refusal messages are the API server’s', () => {
    assert.equal(
      EVICTION_VIOLATES_BUDGET.message,
      "Cannot evict pod as it would violate the pod's disruption budget.",
    );
    assert.equal(
      EVICTION_MULTIPLE_BUDGETS.message,
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    );
  });

  const healthy = { expectedPods: 3, currentHealthy: 3, desiredHealthy: 2 };
  const cases: {
    name: string;
    isReady: boolean;
    budgets: EvictionBudget[];
    expected:
      | { allowed: true; takes: boolean; budget: string | null }
      | { allowed: false; code: string; cause: string; retriable: boolean };
  }[] = [
    {
      name: 'a pod no budget selects is evicted',
      isReady: true,
      budgets: [],
      expected: { allowed: true, takes: false, budget: null },
    },
    {
      name: 'a Ready pod takes one of the disruptions its budget allows',
      isReady: true,
      budgets: [budget('web', { ...healthy, disruptionsAllowed: 1 })],
      expected: { allowed: true, takes: true, budget: 'default/web' },
    },
    {
      name: 'a Ready pod is refused (429) when its budget allows no disruption',
      isReady: true,
      budgets: [
        budget('web', { expectedPods: 3, currentHealthy: 2, desiredHealthy: 2, disruptionsAllowed: 0 }),
      ],
      expected: {
        allowed: false,
        code: 'Eviction/DisruptionBudget',
        cause: 'The disruption budget web needs 2 healthy pods and has 2 currently',
        retriable: true,
      },
    },
    {
      name: 'a budget whose disruption was just taken is refused without its counts changing yet',
      isReady: true,
      budgets: [budget('web', { ...healthy, disruptionsAllowed: 0 })],
      expected: {
        allowed: false,
        code: 'Eviction/DisruptionBudget',
        cause: 'The disruption budget web does not allow evicting pods currently',
        retriable: true,
      },
    },
    {
      name: 'a pod under two budgets is refused outright (500), whatever they allow',
      isReady: true,
      budgets: [
        budget('a', { ...healthy, disruptionsAllowed: 5 }),
        budget('b', { ...healthy, disruptionsAllowed: 5 }),
      ],
      expected: {
        allowed: false,
        code: 'Eviction/MultipleDisruptionBudgets',
        cause: 'selected by default/a and default/b',
        retriable: false,
      },
    },
    {
      name: 'an unready pod of a healthy budget goes without taking a disruption (IfHealthyBudget)',
      isReady: false,
      budgets: [budget('web', { ...healthy, disruptionsAllowed: 0 })],
      expected: { allowed: true, takes: false, budget: 'default/web' },
    },
    {
      name: 'an unready pod of an unhealthy budget is refused (IfHealthyBudget)',
      isReady: false,
      budgets: [
        budget('web', { expectedPods: 3, currentHealthy: 1, desiredHealthy: 2, disruptionsAllowed: 0 }),
      ],
      expected: {
        allowed: false,
        code: 'Eviction/DisruptionBudget',
        cause: 'The disruption budget web needs 2 healthy pods and has 1 currently',
        retriable: true,
      },
    },
    {
      name: 'an unready pod goes when the budget says AlwaysAllow',
      isReady: false,
      budgets: [
        budget(
          'web',
          { expectedPods: 3, currentHealthy: 1, desiredHealthy: 2, disruptionsAllowed: 0 },
          'AlwaysAllow',
        ),
      ],
      expected: { allowed: true, takes: false, budget: 'default/web' },
    },
    {
      name: 'a budget whose sync failed refuses every eviction, saying why',
      isReady: true,
      budgets: [budget('agents', { syncError: 'daemonsets.apps does not implement the scale subresource' })],
      expected: {
        allowed: false,
        code: 'Eviction/DisruptionBudget',
        cause:
          'The disruption budget agents does not allow evicting pods currently because it failed sync: daemonsets.apps does not implement the scale subresource',
        retriable: true,
      },
    },
  ];
  for (const { name, isReady, budgets, expected } of cases) {
    test(name, () => {
      const verdict = checkEviction(isReady, budgets);
      if (verdict.allowed) {
        assert.deepEqual({ allowed: true, takes: verdict.takesDisruption, budget: verdict.budget }, expected);
      } else {
        assert.deepEqual(
          { allowed: false, code: verdict.reason.code, cause: verdict.cause, retriable: verdict.isRetriable },
          expected,
        );
      }
    });
  }
});
