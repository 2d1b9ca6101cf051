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
import type { Cluster } from '../../../model/snapshot/cluster';
import type { PodDisruptionBudgetInfo } from '../../../model/snapshot/cluster-objects';
import { scaledValueOf } from '../../../model/int-or-percent';
import type { PodInfo } from '../../../model/snapshot/pod-info';

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
  // Both round up, as the disruption controller does; a value that is no percentage makes the controller fail to
  // compute the budget, and then nothing may be disrupted.
  let desired = 0;
  if (budget.maxUnavailable !== null) {
    const maxUnavailable = scaledValueOf(budget.maxUnavailable, expected, true);
    if (maxUnavailable === null) {
      return 0;
    }
    desired = Math.max(0, expected - maxUnavailable);
  } else if (budget.minAvailable !== null) {
    const minAvailable = scaledValueOf(budget.minAvailable, expected, true);
    if (minAvailable === null) {
      return 0;
    }
    desired = minAvailable;
  }
  return Math.max(0, healthy - desired);
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
