/**
 * PodDisruptionBudgets as preemption weighs them (filterPodsWithPDBViolation in default_preemption.go): each
 * victim matching a budget of its namespace (a nil or empty selector matches nothing here) uses one of the
 * budget's allowed disruptions, unless the API server already granted its eviction (status.disruptedPods); a victim
 * that drives a budget below zero violates it.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
 *
 * status.disruptionsAllowed is taken as written when the budget comes from a cluster (exported with its status).
 * Otherwise it is computed as the disruption controller would, simply: the healthy pods are the matching pods
 * already placed, and the expected count is that same number (the controller reads its workloads' scale).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/disruption/disruption.go
 * Left out: the controllers' scale as the expected count (controllers/disruption/disruption-budget.ts computes it over time;
 * a scheduling cycle here sees only the placed pods), so a budget whose workload has Pending pods allows more.
 */
import type { Cluster } from '../../../model/cluster';
import type { IntOrPercent, PodDisruptionBudgetInfo } from '../../../model/cluster-objects';
import type { PodInfo } from '../../../model/pod-info';

/** status.disruptionsAllowed of a budget, as written or computed from the placed pods. */
export function disruptionsAllowed(budget: PodDisruptionBudgetInfo, cluster: Cluster): number {
  if (budget.statusDisruptionsAllowed !== null) {
    return budget.statusDisruptionsAllowed;
  }
  let healthy = 0;
  for (const node of cluster.nodes) {
    for (const pod of node.pods) {
      if (pod.namespace === budget.namespace && budget.selector.matches(pod.labels)) {
        healthy++;
      }
    }
  }
  const expected = healthy;
  let desired = 0;
  if (budget.maxUnavailable !== null) {
    const maxUnavailable = scaledValue(budget.maxUnavailable, expected);
    if (maxUnavailable === null) {
      return 0;
    }
    desired = Math.max(0, expected - maxUnavailable);
  } else if (budget.minAvailable !== null) {
    const minAvailable = scaledValue(budget.minAvailable, expected);
    if (minAvailable === null) {
      return 0;
    }
    desired = minAvailable;
  }
  return Math.max(0, healthy - desired);
}

/**
 * intstr.GetScaledValueFromIntOrPercent with roundUp: a count as is, "N%" of the total rounded up; null when the
 * value is neither (the controller then fails to compute the budget, and nothing may be disrupted).
 */
export function scaledValue(value: IntOrPercent, total: number): number | null {
  if (typeof value === 'number') {
    return value;
  }
  const match = /^(-?\d+)%$/.exec(value);
  if (match === null) {
    return null;
  }
  return Math.ceil((Number(match[1]) * total) / 100);
}

/** Splits victims (in importance order, kept) into those that would violate a budget and the others. */
export function splitByBudgetViolation(
  pods: readonly PodInfo[],
  budgets: readonly PodDisruptionBudgetInfo[],
  allowed: readonly number[],
): { violating: PodInfo[]; nonViolating: PodInfo[] } {
  const remaining = [...allowed];
  const violating: PodInfo[] = [];
  const nonViolating: PodInfo[] = [];
  for (const pod of pods) {
    let violated = false;
    if (Object.keys(pod.labels).length > 0) {
      budgets.forEach((budget, i) => {
        if (
          budget.namespace !== pod.namespace ||
          budget.selector.isEmpty ||
          !budget.selector.matches(pod.labels)
        ) {
          return;
        }
        if (budget.disruptedPods.has(pod.name)) {
          return;
        }
        const left = (remaining[i] ?? 0) - 1;
        remaining[i] = left;
        if (left < 0) {
          violated = true;
        }
      });
    }
    (violated ? violating : nonViolating).push(pod);
  }
  return { violating, nonViolating };
}
