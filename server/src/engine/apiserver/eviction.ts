/**
 * The eviction API (pkg/registry/core/pod/storage/eviction.go) as a verdict with reasons, like a scheduler plugin's
 * status: a pod under two budgets is refused outright; a Ready pod needs a disruption its budget allows (and takes
 * it); a pod that is not Ready may go when the budget's unhealthyPodEvictionPolicy is AlwaysAllow, or under the
 * default IfHealthyBudget when the budget is healthy (currentHealthy >= desiredHealthy > 0), without taking one.
 * Messages are the API server's.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/registry/core/pod/storage/eviction.go
 */
import type { BudgetStatus } from '../controllers/disruption/disruption-budget';

/** A reason: a stable code and the API server's message. */
interface EvictionReason {
  readonly code: string;
  readonly message: string;
}

/** The 429 refusal when a budget allows no disruption. */
export const EVICTION_VIOLATES_BUDGET: EvictionReason = {
  code: 'Eviction/DisruptionBudget',
  message: "Cannot evict pod as it would violate the pod's disruption budget.",
};

/** The 500 refusal for a pod two budgets select. */
export const EVICTION_MULTIPLE_BUDGETS: EvictionReason = {
  code: 'Eviction/MultipleDisruptionBudgets',
  message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
};

/** The budget a verdict is about. */
export interface EvictionBudget {
  /** "namespace/name". */
  readonly key: string;
  readonly name: string;
  readonly unhealthyPodEvictionPolicy: 'IfHealthyBudget' | 'AlwaysAllow';
  readonly status: BudgetStatus;
}

/** The outcome of an eviction request. */
export type EvictionVerdict =
  | {
      readonly allowed: true;
      /** The budget consulted, if any ("namespace/name"). */
      readonly budget: string | null;
      /** Whether the eviction took one of the budget's disruptions. */
      readonly takesDisruption: boolean;
    }
  | {
      readonly allowed: false;
      readonly reason: EvictionReason;
      /** The status cause: why the budget refuses ("The disruption budget web needs 2 healthy pods..."). */
      readonly cause: string;
      /** Whether kubectl retries (429) or gives up (500). */
      readonly isRetriable: boolean;
      readonly budget: string | null;
    };

/** disruptionDeniedMessage: the cause of a refusal. */
function disruptionDeniedMessage(name: string, status: BudgetStatus): string {
  if (status.syncError !== null) {
    return `The disruption budget ${name} does not allow evicting pods currently because it failed sync: ${status.syncError}`;
  }
  if (status.currentHealthy <= status.desiredHealthy) {
    return `The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`;
  }
  return `The disruption budget ${name} does not allow evicting pods currently`;
}

/** Decides an eviction of a pod given the budgets that select it. Does not change anything. */
export function checkEviction(isPodReady: boolean, budgets: readonly EvictionBudget[]): EvictionVerdict {
  if (budgets.length > 1) {
    return {
      allowed: false,
      reason: EVICTION_MULTIPLE_BUDGETS,
      cause: `selected by ${budgets.map((budget) => budget.key).join(' and ')}`,
      isRetriable: false,
      budget: null,
    };
  }
  const budget = budgets[0];
  if (budget === undefined) {
    return { allowed: true, budget: null, takesDisruption: false };
  }
  const { status } = budget;
  if (!isPodReady) {
    if (budget.unhealthyPodEvictionPolicy === 'AlwaysAllow') {
      return { allowed: true, budget: budget.key, takesDisruption: false };
    }
    if (
      status.syncError === null &&
      status.currentHealthy >= status.desiredHealthy &&
      status.desiredHealthy > 0
    ) {
      return { allowed: true, budget: budget.key, takesDisruption: false };
    }
  }
  if (status.syncError !== null || status.disruptionsAllowed <= 0) {
    return {
      allowed: false,
      reason: EVICTION_VIOLATES_BUDGET,
      cause: disruptionDeniedMessage(budget.name, status),
      isRetriable: true,
      budget: budget.key,
    };
  }
  return { allowed: true, budget: budget.key, takesDisruption: true };
}

/** Why a refused eviction waits: the budget's cause for a 429, the API server's message and the budgets for a 500. */
export function refusalMessage(verdict: Extract<EvictionVerdict, { allowed: false }>): string {
  return verdict.isRetriable ? verdict.cause : `${verdict.reason.message} (pod ${verdict.cause})`;
}
