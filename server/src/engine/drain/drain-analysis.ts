/**
 * What a `kubectl drain` of a node would meet right now, without running it: the pods it would evict, skip or
 * refuse (drain-filters.ts), and for each eviction the eviction API's verdict with the budgets' current status,
 * each allowed eviction taking one disruption from the next. A drain is Allowed when every eviction passes at once;
 * it WaitsForBudget when some must wait for replacement pods to become healthy elsewhere; it NeverFinishes when a
 * filter refuses a pod, a pod has two budgets, or a refusing budget can never allow a disruption
 * (desiredHealthy >= expectedPods, or its sync fails).
 */
import type { BudgetIndex } from '../apiserver/budget-index';
import type { ClusterState } from '../apiserver/cluster-state';
import type { BudgetStatus } from '../controllers/disruption/disruption-budget';
import type { DrainOptions } from './drain-filters';
import { selectPodsForDrain } from './drain-filters';
import type { DrainRefusal } from './drain';
import { checkEviction, refusalMessage } from '../apiserver/eviction';

/** The verdict of a drain analysis. */
type DrainVerdict = 'Allowed' | 'WaitsForBudget' | 'NeverFinishes';

/** A node's drain, analysed. */
interface DrainAnalysis {
  readonly node: string;
  readonly verdict: DrainVerdict;
  /** Pods whose eviction passes at once. */
  readonly evictable: readonly string[];
  /** Pods a budget refuses now, with the budget and the API server's cause. */
  readonly blocked: readonly DrainRefusal[];
  /** Why the drain fails outright (kubectl's filter errors, a pod with two budgets). */
  readonly errors: readonly string[];
  readonly skipped: readonly string[];
}

/** Whether a budget can never allow a voluntary disruption, whatever the pods do. */
export function budgetNeverAllows(status: BudgetStatus): boolean {
  return (
    status.syncError !== null || status.expectedPods <= 0 || status.desiredHealthy >= status.expectedPods
  );
}

/** Analyses a drain of `nodeName` in the current state. */
export function analyzeDrain(
  state: ClusterState,
  index: BudgetIndex,
  nodeName: string,
  options: DrainOptions,
): DrainAnalysis {
  const selection = selectPodsForDrain(
    state.podsOn(nodeName).filter((pod) => pod.deletionTime === null),
    options,
  );
  // Each eviction takes a disruption and, once the disruption controller sees the pod deleting, a healthy pod.
  const taken = new Map<string, number>();
  const evictable: string[] = [];
  const blocked: DrainRefusal[] = [];
  const errors = [...selection.errors];
  let waits = false;
  let never = errors.length > 0;
  for (const pod of selection.evict) {
    const budgets = index.budgetsOf(pod).map((budget) => {
      const count = taken.get(budget.key) ?? 0;
      const { status } = budget;
      return {
        key: budget.key,
        name: budget.name,
        unhealthyPodEvictionPolicy: budget.unhealthyPodEvictionPolicy,
        status: {
          ...status,
          disruptionsAllowed: status.disruptionsAllowed - count,
          currentHealthy: status.currentHealthy - count,
        },
      };
    });
    const verdict = checkEviction(pod.isReady, budgets);
    if (verdict.allowed) {
      evictable.push(pod.key);
      if (verdict.takesDisruption && verdict.budget !== null) {
        taken.set(verdict.budget, (taken.get(verdict.budget) ?? 0) + 1);
      }
      continue;
    }
    blocked.push({ pod: pod.key, budget: verdict.budget, message: refusalMessage(verdict) });
    if (!verdict.isRetriable) {
      errors.push(`error when evicting pods/"${pod.name}" -n "${pod.namespace}": ${verdict.reason.message}`);
      never = true;
    } else if (budgets[0] !== undefined && budgetNeverAllows(budgets[0].status)) {
      never = true;
    } else {
      waits = true;
    }
  }
  return {
    node: nodeName,
    verdict: never ? 'NeverFinishes' : waits ? 'WaitsForBudget' : 'Allowed',
    evictable,
    blocked,
    errors,
    skipped: selection.skipped.map((entry) => `${entry.pod.key} (${entry.reason})`),
  };
}
