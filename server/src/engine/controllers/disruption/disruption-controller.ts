/**
 * The disruption controller: recomputes a PodDisruptionBudget's status (disruption-budget.ts) whenever one of its
 * pods changes or a controller's scale changes, and re-checks when an evicted pod's DisruptedPods entry expires.
 * The eviction API (evictPod) reads that status and takes one disruption per eviction, as the API server does.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/disruption/disruption.go
 */
import { PRIORITY } from '../../sim/priorities';
import type { BudgetIndex } from '../../apiserver/budget-index';
import type { ClusterState } from '../../apiserver/cluster-state';
import type { BudgetStatus, ScaleLookup } from './disruption-budget';
import {
  DELETION_TIMEOUT_SECONDS,
  computeBudgetStatus,
  noControllerMessage,
  noScaleSubresourceMessage,
} from './disruption-budget';
import type { EvictionVerdict } from '../../apiserver/eviction';
import { checkEviction } from '../../apiserver/eviction';
import type { ControllerRef, SimPod } from '../../apiserver/sim-pod';
import { SyncQueue } from '../sync-queue';
import type { SimDisruptionBudget } from '../../apiserver/workload-objects';
import { recordBudgetEvents } from './disruption-events';

/** Keeps PodDisruptionBudget status. */
export class DisruptionController {
  private readonly queue: SyncQueue;
  /** Budgets synced at least once (their events are recorded as their status changes). */
  private readonly synced = new Set<string>();

  constructor(
    private readonly state: ClusterState,
    private readonly index: BudgetIndex,
    /** spec.replicas of the ReplicationControllers (cluster file and apply), by "namespace/name". */
    private readonly replicationControllers: ReadonlyMap<string, number> = new Map(),
  ) {
    this.queue = new SyncQueue(state.sim, PRIORITY.disruption, (key) => this.sync(key));
    state.onPod((pod) => {
      for (const budget of index.budgetsOf(pod)) {
        this.queue.enqueue(budget.key);
      }
    });
    state.onReplicaSet((_replicaSet, change) => {
      if (change === 'spec') {
        this.enqueueAll();
      }
    });
  }

  /** Computes every budget's status at once (the initial state). */
  syncAllNow(): void {
    for (const key of this.state.disruptionBudgets.keys()) {
      this.sync(key);
    }
  }

  /** Syncs every budget (a controller's scale changed). */
  enqueueAll(): void {
    for (const key of this.state.disruptionBudgets.keys()) {
      this.queue.enqueue(key);
    }
  }

  private sync(key: string): void {
    const budget = this.state.disruptionBudgets.get(key);
    if (budget === undefined) {
      return;
    }
    const now = this.state.sim.now;
    const pods = this.index.podsOf(budget).map((pod) => ({
      name: pod.name,
      isReady: pod.isReady,
      isDeleting: pod.deletionTime !== null,
      controllerRef: pod.controllerRef,
    }));
    const status = computeBudgetStatus(
      budget,
      pods,
      (ref) => this.findScale(ref, budget.namespace, pods),
      budget.status.disruptedPods,
      now,
    );
    let recheck = Number.POSITIVE_INFINITY;
    for (const evictedAt of status.disruptedPods.values()) {
      recheck = Math.min(recheck, evictedAt + DELETION_TIMEOUT_SECONDS + 1);
    }
    if (Number.isFinite(recheck)) {
      this.queue.enqueueAfter(key, recheck - now);
    }
    recordBudgetEvents(this.state, budget, this.synced.has(key) ? budget.status : null, status);
    this.synced.add(key);
    if (!isSameStatus(budget.status, status)) {
      budget.status = status;
      this.state.budgetChanged(budget);
    }
    noteAllowed(budget, now);
  }

  /**
   * The finders, in upstream order: ReplicationController, ReplicaSet (or its Deployment), StatefulSet, then the
   * scale subresource.
   */
  private findScale(
    ref: ControllerRef,
    namespace: string,
    pods: readonly { name: string; controllerRef: ControllerRef | null }[],
  ): ScaleLookup {
    const podName = pods.find((pod) => pod.controllerRef === ref)?.name ?? ref.name;
    switch (ref.kind) {
      case 'ReplicationController': {
        const replicas = this.replicationControllers.get(`${namespace}/${ref.name}`);
        return replicas === undefined
          ? { kind: 'error', message: noControllerMessage(podName) }
          : {
              kind: 'scale',
              controllerKey: `ReplicationController/${namespace}/${ref.name}`,
              scale: replicas,
            };
      }
      case 'ReplicaSet': {
        const replicaSet = this.state.replicaSets.get(`${namespace}/${ref.name}`);
        if (replicaSet === undefined) {
          return { kind: 'error', message: noControllerMessage(podName) };
        }
        const deployment =
          replicaSet.deploymentKey === null
            ? undefined
            : this.state.deployments.get(replicaSet.deploymentKey);
        return deployment === undefined
          ? { kind: 'scale', controllerKey: `ReplicaSet/${replicaSet.key}`, scale: replicaSet.replicas }
          : { kind: 'scale', controllerKey: `Deployment/${deployment.key}`, scale: deployment.replicas };
      }
      case 'StatefulSet': {
        const set = this.state.statefulSets.get(`${namespace}/${ref.name}`);
        return set === undefined
          ? { kind: 'error', message: noControllerMessage(podName) }
          : { kind: 'scale', controllerKey: `StatefulSet/${set.key}`, scale: set.replicas };
      }
      default:
        return { kind: 'error', message: noScaleSubresourceMessage(ref.kind) };
    }
  }
}

/** The eviction API: decides, and on success takes a disruption and records the pod in DisruptedPods. */
export function evictPod(state: ClusterState, index: BudgetIndex, pod: SimPod): EvictionVerdict {
  const budgets = index.budgetsOf(pod);
  const verdict = checkEviction(
    pod.isReady,
    budgets.map((budget) => ({
      key: budget.key,
      name: budget.name,
      unhealthyPodEvictionPolicy: budget.unhealthyPodEvictionPolicy,
      status: budget.status,
    })),
  );
  if (verdict.allowed && verdict.takesDisruption) {
    const budget = budgets[0] as SimDisruptionBudget;
    budget.status.disruptionsAllowed--;
    budget.status.disruptedPods.set(pod.name, state.sim.now);
    noteAllowed(budget, state.sim.now);
  }
  return verdict;
}

/** Records status.disruptionsAllowed when it differs from the last value recorded. */
function noteAllowed(budget: SimDisruptionBudget, now: number): void {
  const last = budget.allowedChanges.at(-1);
  if (last === undefined || last.disruptionsAllowed !== budget.status.disruptionsAllowed) {
    budget.allowedChanges.push({ at: now, disruptionsAllowed: budget.status.disruptionsAllowed });
  }
}

function isSameStatus(a: BudgetStatus, b: BudgetStatus): boolean {
  return (
    a.expectedPods === b.expectedPods &&
    a.currentHealthy === b.currentHealthy &&
    a.desiredHealthy === b.desiredHealthy &&
    a.disruptionsAllowed === b.disruptionsAllowed &&
    a.syncError === b.syncError &&
    a.disruptedPods.size === b.disruptedPods.size &&
    a.matchedPods === b.matchedPods
  );
}
