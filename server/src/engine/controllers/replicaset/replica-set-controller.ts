/**
 * The ReplicaSet controller: keeps spec.replicas active pods (creating from the template, deleting the pods ranked
 * first by pod-ranking.ts) and writes status.replicas / readyReplicas / availableReplicas. A pod is available once
 * ready for minReadySeconds; the controller re-checks then.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/replicaset/replica_set.go
 * Simplified: pods are created in one go (no slow-start batches), creation never fails for quota, and status is
 * computed after this sync's creations and deletions (upstream reports them on the next sync, a moment later).
 */
import { PRIORITY } from '../../sim/priorities';
import type { ControllerContext } from '../controller-context';
import { podsToDelete } from '../pod-ranking';
import type { SimPod } from '../../apiserver/sim-pod';
import { availableAt, isActive, isAvailable } from '../../apiserver/sim-pod';
import { SyncQueue } from '../sync-queue';
import { ObjectKeys } from '../object-keys';
import { replicaSetPod } from '../workload-pods';
import type { ReplicaSetStatus, SimReplicaSet } from '../../apiserver/workload-objects';
import { podControlEvent } from '../../model/kubernetes-events';
import { recordSuccessfulDelete } from '../controller-events';

/** Keeps ReplicaSets' pods at their replicas. */
export class ReplicaSetController {
  private readonly queue: SyncQueue;
  private readonly ownerKeys = new ObjectKeys();

  constructor(private readonly context: ControllerContext) {
    const { state } = context;
    this.queue = new SyncQueue(state.sim, PRIORITY.controller, (key) => this.sync(key));
    state.onPod((pod) => {
      if (pod.controllerRef?.kind === 'ReplicaSet') {
        this.queue.enqueue(this.ownerKeys.keyOf(pod.namespace, pod.controllerRef.name));
      }
    });
    state.onReplicaSet((replicaSet, change) => {
      if (change === 'spec') {
        this.queue.enqueue(replicaSet.key);
      }
    });
  }

  /** Syncs every ReplicaSet (at the start of the simulation). */
  syncAll(): void {
    for (const key of this.context.state.replicaSets.keys()) {
      this.queue.enqueue(key);
    }
  }

  private sync(key: string): void {
    const { state } = this.context;
    const replicaSet = state.replicaSets.get(key);
    if (replicaSet === undefined) {
      return;
    }
    // Most syncs (a pod of the set started, became ready, was bound) find the replicas right: then the one pass
    // that counts the active pods is also the status, with no copy of the pod list.
    const before = this.tally(replicaSet);
    if (before.replicas === replicaSet.replicas) {
      this.applyStatus(replicaSet, before);
      return;
    }
    const pods = state.podsOf('ReplicaSet', replicaSet.namespace, replicaSet.name);
    const active = pods.filter(isActive);
    const diff = active.length - replicaSet.replicas;
    if (diff < 0) {
      for (let i = 0; i < -diff; i++) {
        const pod = this.createPod(replicaSet);
        if (pod === null) {
          break;
        }
        active.push(pod);
      }
    } else if (diff > 0) {
      const related = this.relatedPods(replicaSet);
      for (const pod of podsToDelete(active, related, diff)) {
        state.deletePod(
          pod,
          `Deleting pod ${pod.name}: ReplicaSet ${replicaSet.name} scaled down to ${replicaSet.replicas}`,
        );
        recordSuccessfulDelete(state, pod);
      }
    }
    this.updateStatus(replicaSet);
  }

  private createPod(replicaSet: SimReplicaSet): SimPod | null {
    const { state, pods } = this.context;
    const pod = replicaSetPod(state, pods, replicaSet);
    if (pod === null) {
      return null;
    }
    const deployment =
      replicaSet.deploymentKey === null ? undefined : state.deployments.get(replicaSet.deploymentKey);
    const role =
      deployment === undefined
        ? undefined
        : deployment.templateHash === replicaSet.templateHash
          ? 'new'
          : 'old';
    state.createPod(pod, `Created pod: ${pod.name}`, role, podControlEvent('SuccessfulCreate', pod));
    return pod;
  }

  /** All pods of the same Deployment (or of this ReplicaSet alone), for deletion ranks. */
  private relatedPods(replicaSet: SimReplicaSet): SimPod[] {
    const { state } = this.context;
    if (replicaSet.deploymentKey === null) {
      return state.podsOf('ReplicaSet', replicaSet.namespace, replicaSet.name);
    }
    const related: SimPod[] = [];
    for (const other of state.replicaSetsOf(replicaSet.deploymentKey)) {
      for (const pod of state.podSetOf('ReplicaSet', other.namespace, other.name)) {
        related.push(pod);
      }
    }
    return related;
  }

  private updateStatus(replicaSet: SimReplicaSet): void {
    this.applyStatus(replicaSet, this.tally(replicaSet));
  }

  /** The status of the set's active pods now, and when the next of them becomes available. */
  private tally(replicaSet: SimReplicaSet): Tally {
    const { state } = this.context;
    const now = state.sim.now;
    let replicas = 0;
    let ready = 0;
    let available = 0;
    let nextAvailable = Number.POSITIVE_INFINITY;
    for (const pod of state.podSetOf('ReplicaSet', replicaSet.namespace, replicaSet.name)) {
      if (!isActive(pod)) {
        continue;
      }
      replicas++;
      if (pod.isReady) {
        ready++;
      }
      if (isAvailable(pod, replicaSet.minReadySeconds, now)) {
        available++;
      } else {
        const at = availableAt(pod, replicaSet.minReadySeconds);
        if (at !== null && at > now) {
          nextAvailable = Math.min(nextAvailable, at);
        }
      }
    }
    return { replicas, readyReplicas: ready, availableReplicas: available, nextAvailable };
  }

  /** Re-checks the set when its next pod becomes available; writes the status when it changed. */
  private applyStatus(replicaSet: SimReplicaSet, tally: Tally): void {
    const { state } = this.context;
    const now = state.sim.now;
    const { nextAvailable } = tally;
    const status: ReplicaSetStatus = {
      replicas: tally.replicas,
      readyReplicas: tally.readyReplicas,
      availableReplicas: tally.availableReplicas,
    };
    if (Number.isFinite(nextAvailable)) {
      this.queue.enqueueAfter(replicaSet.key, nextAvailable - now);
    }
    const old = replicaSet.status;
    if (
      old.replicas !== status.replicas ||
      old.readyReplicas !== status.readyReplicas ||
      old.availableReplicas !== status.availableReplicas
    ) {
      replicaSet.status = status;
      state.replicaSetChanged(replicaSet, 'status');
    }
  }
}

/** A ReplicaSet's status counted from its pods, and the next time one of them becomes available (or Infinity). */
interface Tally extends ReplicaSetStatus {
  readonly nextAvailable: number;
}
