/**
 * The StatefulSet controller (stateful_set_control.go): pods "<set>-<ordinal>" for every ordinal of the replicas.
 * OrderedReady creates them in order, each only once the previous one is running and available, and removes
 * condemned ones from the highest ordinal, one at a time; Parallel does both at once. A RollingUpdate deletes pods
 * of the old revision from the highest ordinal down to the partition, waiting for each recreated pod to be healthy
 * (maxUnavailable at a time when the MaxUnavailableStatefulSet gate is on: from 1.35). A pod's name is fixed, so a
 * replacement waits until the old pod is gone. Pods below the partition are recreated at the current revision.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/statefulset/stateful_set_control.go
 */
import { PRIORITY } from '../../sim/priorities';
import { isAtLeast } from '../../version';
import type { ControllerContext } from '../controller-context';
import { statefulSetMaxUnavailable } from '../rollout-arithmetic';
import type { RolloutRecord } from '../rollout-log';
import type { SimPod } from '../../apiserver/sim-pod';
import { availableAt, isAvailable } from '../../apiserver/sim-pod';
import { SyncQueue } from '../sync-queue';
import { ObjectKeys } from '../object-keys';
import type { SimStatefulSet } from '../../apiserver/workload-objects';
import { statefulSetPodJson } from '../workload-pods';
import { podControlEvent } from '../../model/kubernetes-events';
import { recordSuccessfulDelete } from '../controller-events';

/** Syncs StatefulSets. */
export class StatefulSetController {
  private readonly queue: SyncQueue;
  private readonly ownerKeys = new ObjectKeys();
  private changed = false;

  constructor(private readonly context: ControllerContext) {
    const { state } = context;
    this.queue = new SyncQueue(state.sim, PRIORITY.controller, (key) => this.sync(key));
    state.onPod((pod) => {
      if (pod.controllerRef?.kind === 'StatefulSet') {
        this.queue.enqueue(this.ownerKeys.keyOf(pod.namespace, pod.controllerRef.name));
      }
    });
  }

  /** Syncs one StatefulSet now. */
  enqueue(key: string): void {
    this.queue.enqueue(key);
  }

  private sync(key: string): void {
    const set = this.context.state.statefulSets.get(key);
    if (set === undefined) {
      return;
    }
    this.changed = false;
    this.reconcile(set);
    this.recordStep(set);
  }

  private reconcile(set: SimStatefulSet): void {
    const { state } = this.context;
    const now = state.sim.now;
    const monotonic = set.podManagementPolicy === 'OrderedReady';
    const pods = state.podsOf('StatefulSet', set.namespace, set.name);
    const byOrdinal = new Map(pods.map((pod) => [pod.ordinal ?? -1, pod]));
    const end = set.startOrdinal + set.replicas;
    const isHealthyNow = (pod: SimPod): boolean =>
      pod.isRunning && pod.deletionTime === null && isAvailable(pod, set.minReadySeconds, now);
    for (let ordinal = set.startOrdinal; ordinal < end; ordinal++) {
      const pod = byOrdinal.get(ordinal);
      if (pod === undefined) {
        this.createPod(set, ordinal);
        if (monotonic) {
          return;
        }
        continue;
      }
      if (!isHealthyNow(pod)) {
        const at = availableAt(pod, set.minReadySeconds);
        if (at !== null && at > now) {
          this.queue.enqueueAfter(set.key, at - now);
        }
        if (monotonic) {
          return;
        }
      }
    }
    const condemned = pods
      .filter((pod) => (pod.ordinal ?? -1) < set.startOrdinal || (pod.ordinal ?? -1) >= end)
      .sort((a, b) => (b.ordinal ?? 0) - (a.ordinal ?? 0));
    const firstUnhealthy = condemned.find((pod) => !isHealthyNow(pod));
    for (const pod of condemned) {
      if (pod.deletionTime !== null) {
        if (monotonic) {
          return;
        }
        continue;
      }
      if (monotonic && !isHealthyNow(pod) && pod !== firstUnhealthy) {
        return;
      }
      this.deletePod(pod, `delete Pod ${pod.name} in StatefulSet ${set.name} successful (scale down)`);
      // persistentVolumeClaimRetentionPolicy.whenScaled: Delete makes the pod own its claims (garbage collected).
      if (pod.ordinal !== null) {
        this.context.volumes?.releaseScaledDownClaims(set, pod.ordinal);
      }
      if (monotonic) {
        return;
      }
    }
    if (set.updateStrategy === 'RollingUpdate') {
      this.rollingUpdate(set, byOrdinal, end);
    }
  }

  private rollingUpdate(set: SimStatefulSet, byOrdinal: ReadonlyMap<number, SimPod>, end: number): void {
    const gate = isAtLeast(this.context.version, '1.35');
    const maxUnavailable = statefulSetMaxUnavailable(set.maxUnavailable, set.replicas, gate);
    const updateMin = set.startOrdinal + set.partition;
    const isHealthy = (pod: SimPod | undefined): boolean =>
      pod !== undefined && pod.isRunning && pod.isReady && pod.deletionTime === null;
    const isOld = (pod: SimPod | undefined): pod is SimPod =>
      pod !== undefined && pod.revision !== set.updateRevision && pod.deletionTime === null;
    if (!gate) {
      for (let ordinal = end - 1; ordinal >= updateMin; ordinal--) {
        const pod = byOrdinal.get(ordinal);
        if (isOld(pod)) {
          this.deletePod(pod, `Pod ${pod.name} of StatefulSet ${set.name} is terminating for update`);
          return;
        }
        if (!isHealthy(pod)) {
          return;
        }
      }
      return;
    }
    let unavailable = 0;
    for (let ordinal = set.startOrdinal; ordinal < end; ordinal++) {
      if (!isHealthy(byOrdinal.get(ordinal))) {
        unavailable++;
      }
    }
    let budget = maxUnavailable - unavailable;
    for (let ordinal = end - 1; ordinal >= updateMin && budget > 0; ordinal--) {
      const pod = byOrdinal.get(ordinal);
      if (isOld(pod)) {
        this.deletePod(pod, `Pod ${pod.name} of StatefulSet ${set.name} is terminating for update`);
        budget--;
      }
    }
  }

  private createPod(set: SimStatefulSet, ordinal: number): void {
    const { state, pods } = this.context;
    const isCurrent = set.updateStrategy === 'RollingUpdate' && ordinal < set.startOrdinal + set.partition;
    const object = isCurrent ? set.currentObject : set.object;
    const revision = isCurrent ? set.currentRevision : set.updateRevision;
    const json = statefulSetPodJson(object, set.source, ordinal);
    if (json === null) {
      return;
    }
    // createPersistentVolumeClaims comes before the pod (stateful_pod_control.go CreateStatefulPod); a claim the
    // API server refuses fails the pod's creation, and the ordinal is tried again at the next sync.
    if (this.context.volumes?.createStatefulSetClaims(set, ordinal) === false) {
      return;
    }
    const templateSource = { ...set.source, path: [...set.source.path, 'spec', 'template'] };
    const pod = pods.build(json, {
      source: templateSource,
      workload: { kind: 'StatefulSet', name: set.name },
      revision,
      ordinal,
    });
    if (pod === null) {
      return;
    }
    this.changed = true;
    const role = revision === set.updateRevision ? 'new' : 'old';
    state.createPod(
      pod,
      `create Pod ${pod.name} in StatefulSet ${set.name} successful`,
      role,
      podControlEvent('SuccessfulCreate', pod),
    );
  }

  private deletePod(pod: SimPod, message: string): void {
    this.changed = true;
    this.context.state.deletePod(pod, message);
    recordSuccessfulDelete(this.context.state, pod);
  }

  private recordStep(set: SimStatefulSet): void {
    const { state, rollouts } = this.context;
    if (!set.isTracked) {
      return;
    }
    const record: RolloutRecord =
      rollouts.get('StatefulSet', set.namespace, set.name) ??
      rollouts.start({
        kind: 'StatefulSet',
        namespace: set.namespace,
        name: set.name,
        strategy: `${set.updateStrategy} (${set.podManagementPolicy})`,
        maxSurge: 0,
        maxUnavailable: statefulSetMaxUnavailable(
          set.maxUnavailable,
          set.replicas,
          isAtLeast(this.context.version, '1.35'),
        ),
        replicas: set.replicas,
        isUpdate: set.currentRevision !== set.updateRevision,
      });
    const now = state.sim.now;
    const active = state
      .podsOf('StatefulSet', set.namespace, set.name)
      .filter((pod) => pod.deletionTime === null);
    const updated = active.filter((pod) => pod.revision === set.updateRevision).length;
    const available = active.filter((pod) => isAvailable(pod, set.minReadySeconds, now)).length;
    const numbers = {
      newReplicas: updated,
      oldReplicas: active.length - updated,
      available,
      unavailable: Math.max(0, set.replicas - available),
    };
    if (this.changed) {
      rollouts.step(
        record,
        numbers,
        `StatefulSet ${set.name}: ${updated} updated, ${numbers.oldReplicas} old, ${available} available`,
      );
    }
    const end = set.startOrdinal + set.replicas;
    const mustUpdate = active.filter((pod) => (pod.ordinal ?? 0) >= set.startOrdinal + set.partition);
    const isDone =
      active.length === set.replicas &&
      available === set.replicas &&
      active.every((pod) => (pod.ordinal ?? -1) >= set.startOrdinal && (pod.ordinal ?? -1) < end) &&
      (set.updateStrategy === 'OnDelete' || mustUpdate.every((pod) => pod.revision === set.updateRevision));
    if (isDone) {
      // kubectl rollout status's wording for StatefulSets.
      const message =
        set.partition > 0
          ? `partitioned roll out complete: ${updated} new pods have been updated...`
          : `statefulset rolling update complete ${updated} pods at revision ${set.updateRevision}...`;
      rollouts.end(record, 'Complete', message, numbers);
    }
  }
}
