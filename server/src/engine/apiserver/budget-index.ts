/**
 * Which PodDisruptionBudgets select which pods: an index over the API objects (a budget selects the pods of its
 * namespace whose labels match its selector; pod labels never change in the simulation). The disruption controller
 * and the eviction API both list through it, as they both list budgets and pods from the API server.
 */
import type { ClusterState } from './cluster-state';
import type { SimPod } from './sim-pod';
import type { SimDisruptionBudget } from './workload-objects';

/** Budgets ↔ pods. */
export class BudgetIndex {
  private readonly members = new Map<string, Set<SimPod>>();
  private readonly ofPod = new Map<string, SimDisruptionBudget[]>();

  constructor(private readonly state: ClusterState) {
    for (const budget of state.disruptionBudgets.values()) {
      this.members.set(budget.key, new Set());
    }
    for (const pod of state.pods.values()) {
      this.add(pod);
    }
    state.onPod((pod, change) => {
      if (change === 'created') {
        this.add(pod);
      } else if (change === 'gone') {
        // The pod leaves its budgets' members; budgetsOf still answers for it, so that watchers notified after
        // this one (the disruption controller) know which budgets to recompute.
        for (const budget of this.ofPod.get(pod.key) ?? []) {
          this.members.get(budget.key)?.delete(pod);
        }
      }
    });
  }

  /** The budgets that select a pod, in budget order. */
  budgetsOf(pod: SimPod): readonly SimDisruptionBudget[] {
    return this.ofPod.get(pod.key) ?? [];
  }

  /** The pods (not gone) a budget selects. */
  podsOf(budget: SimDisruptionBudget): SimPod[] {
    return [...(this.members.get(budget.key) ?? [])];
  }

  private add(pod: SimPod): void {
    const budgets: SimDisruptionBudget[] = [];
    for (const budget of this.state.disruptionBudgets.values()) {
      if (
        budget.namespace === pod.namespace &&
        budget.selector !== null &&
        budget.selector.matches(pod.labels)
      ) {
        budgets.push(budget);
        this.members.get(budget.key)?.add(pod);
      }
    }
    if (budgets.length > 0) {
      this.ofPod.set(pod.key, budgets);
    }
  }
}
