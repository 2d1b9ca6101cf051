/**
 * The DaemonSet controller: one pod on every node that should run it (workloads/node-eligibility.ts), a new one
 * only once the node's previous pod is gone; RollingUpdate replaces old pods within maxUnavailable, or with maxSurge
 * starts the new pod first and deletes the old one once the new is available (update.go rollingUpdate).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/daemon/daemon_controller.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/daemon/update.go
 * Upstream walks nodes in Go map order (random); here nodes go in cluster order.
 */
import { listOf } from '../../model/objects';
import type { TolerationObject } from '../../model/objects';
import { findMatchingUntoleratedTaint } from '../../model/taints';
import { PRIORITY } from '../../sim/priorities';
import { nodeShouldRunDaemonPod } from '../../workloads';
import { addDaemonTolerations } from '../../workloads/daemon-set';
import { asObject, cloneJson } from '../../model/json';
import type { ControllerContext } from '../controller-context';
import { daemonSetFenceposts } from '../rollout-arithmetic';
import type { SimPod } from '../../apiserver/sim-pod';
import { availableAt, isAvailable } from '../../apiserver/sim-pod';
import { SyncQueue } from '../sync-queue';
import { ObjectKeys } from '../object-keys';
import type { SimDaemonSet } from '../../apiserver/workload-objects';
import { daemonSetPodJson } from '../workload-pods';
import { podControlEvent } from '../../model/kubernetes-events';
import { recordSuccessfulDelete } from '../controller-events';
import { appendAll } from '../../../../../protocol/collections';

/** Syncs DaemonSets. */
export class DaemonSetController {
  private readonly queue: SyncQueue;
  private readonly ownerKeys = new ObjectKeys();
  /** The node each daemon pod was made for (its pinned node), by pod key. */
  private readonly nodeOfPod = new Map<string, string>();

  constructor(private readonly context: ControllerContext) {
    const { state } = context;
    this.queue = new SyncQueue(state.sim, PRIORITY.controller, (key) => this.sync(key));
    state.onPod((pod) => {
      if (pod.controllerRef?.kind === 'DaemonSet') {
        this.queue.enqueue(this.ownerKeys.keyOf(pod.namespace, pod.controllerRef.name));
      }
    });
    state.onNode((_node, change) => {
      if (change !== 'failed') {
        for (const key of state.daemonSets.keys()) {
          this.queue.enqueue(key);
        }
      }
    });
  }

  /** Records the node of a daemon pod of the initial state. */
  adopt(pod: SimPod, nodeName: string): void {
    this.nodeOfPod.set(pod.key, nodeName);
  }

  /** Syncs one DaemonSet now. */
  enqueue(key: string): void {
    this.queue.enqueue(key);
  }

  private sync(key: string): void {
    const { state } = this.context;
    const set = state.daemonSets.get(key);
    if (set === undefined) {
      return;
    }
    const now = state.sim.now;
    const daemonSpec = cloneJson(asObject(asObject(set.object['spec'])['template'])['spec']);
    addDaemonTolerations(asObject(daemonSpec));
    const byNode = new Map<string, SimPod[]>();
    for (const pod of state.podsOf('DaemonSet', set.namespace, set.name)) {
      const nodeName = this.nodeOfPod.get(pod.key) ?? pod.nodeName ?? '';
      byNode.set(nodeName, [...(byNode.get(nodeName) ?? []), pod]);
    }
    const desired = state
      .nodeList()
      .filter((node) => nodeShouldRunDaemonPod(asObject(daemonSpec), node.object).shouldRun);
    const desiredNames = new Set(desired.map((node) => node.name));
    const tolerations = listOf(
      asObject(daemonSpec)['tolerations'] as readonly TolerationObject[] | undefined,
    );
    let changed = false;
    for (const [nodeName, pods] of byNode) {
      const node = state.nodes.get(nodeName);
      // shouldContinueRunning: a node it may no longer be scheduled to keeps its pod unless a NoExecute taint evicts it.
      const keeps =
        node !== undefined &&
        findMatchingUntoleratedTaint(
          listOf(node.object.spec?.taints),
          tolerations,
          (taint) => taint.effect === 'NoExecute',
        ) === undefined;
      if (!desiredNames.has(nodeName) && !keeps) {
        for (const pod of pods.filter((candidate) => candidate.deletionTime === null)) {
          state.deletePod(pod, `Deleting pod ${pod.name}: node ${nodeName} should not run it`);
          recordSuccessfulDelete(state, pod);
          changed = true;
        }
      }
    }
    const fenceposts = daemonSetFenceposts(set.maxSurge, set.maxUnavailable, desired.length);
    const isOk = (pod: SimPod): boolean => isAvailable(pod, set.minReadySeconds, now);
    let unavailable = 0;
    let surging = 0;
    const toDelete: SimPod[] = [];
    const toCreate: string[] = [];
    const candidates: { node: string; old: SimPod }[] = [];
    for (const node of desired) {
      const pods = byNode.get(node.name) ?? [];
      const live = pods.filter((pod) => pod.deletionTime === null);
      const newPod = live.find((pod) => pod.revision === set.updateRevision);
      const oldPod = live.find((pod) => pod.revision !== set.updateRevision);
      for (const pod of live) {
        const at = availableAt(pod, set.minReadySeconds);
        if (at !== null && at > now) {
          this.queue.enqueueAfter(set.key, at - now);
        }
      }
      if (pods.length === 0) {
        toCreate.push(node.name);
        unavailable++;
        continue;
      }
      if (set.updateStrategy !== 'RollingUpdate' || oldPod === undefined) {
        if (newPod === undefined || !isOk(newPod)) {
          unavailable++;
        }
        continue;
      }
      if (fenceposts.maxSurge === 0) {
        if (newPod !== undefined) {
          unavailable++;
        } else if (!isOk(oldPod)) {
          toDelete.push(oldPod);
          unavailable++;
        } else {
          candidates.push({ node: node.name, old: oldPod });
        }
      } else if (newPod === undefined) {
        if (!isOk(oldPod)) {
          toCreate.push(node.name);
        } else {
          candidates.push({ node: node.name, old: oldPod });
        }
      } else if (!isOk(newPod)) {
        surging++;
      } else {
        toDelete.push(oldPod);
      }
    }
    if (fenceposts.maxSurge === 0) {
      const room = Math.max(0, fenceposts.maxUnavailable - unavailable);
      appendAll(
        toDelete,
        candidates.slice(0, room).map((candidate) => candidate.old),
      );
    } else {
      const room = Math.max(0, fenceposts.maxSurge - surging);
      appendAll(
        toCreate,
        candidates.slice(0, room).map((candidate) => candidate.node),
      );
    }
    for (const pod of toDelete) {
      state.deletePod(pod, `Deleting pod ${pod.name} for the rolling update of DaemonSet ${set.name}`);
      recordSuccessfulDelete(state, pod);
      changed = true;
    }
    for (const nodeName of toCreate) {
      changed = this.createPod(set, nodeName) || changed;
    }
    this.recordStep(set, desired.length, changed);
  }

  private createPod(set: SimDaemonSet, nodeName: string): boolean {
    const { state, pods } = this.context;
    const node = state.nodes.get(nodeName);
    if (node === undefined) {
      return false;
    }
    // The first pod on a node gets the name the workload expansion gives it; replacements get new ones.
    const created = set.podsCreatedOnNode.get(nodeName) ?? 0;
    const seed = `${set.uid}/${nodeName}${created === 0 ? '' : `#${created}`}`;
    set.podsCreatedOnNode.set(nodeName, created + 1);
    const json = daemonSetPodJson(set.object, set.source, node.object, pods.names, seed);
    if (json === null) {
      return false;
    }
    const pod = pods.build(json, {
      source: { ...set.source, path: [...set.source.path, 'spec', 'template'] },
      workload: { kind: 'DaemonSet', name: set.name },
      revision: set.updateRevision,
    });
    if (pod === null) {
      return false;
    }
    this.nodeOfPod.set(pod.key, nodeName);
    state.createPod(pod, `Created pod: ${pod.name}`, 'new', podControlEvent('SuccessfulCreate', pod));
    return true;
  }

  private recordStep(set: SimDaemonSet, desired: number, changed: boolean): void {
    const { state, rollouts } = this.context;
    if (!set.isTracked) {
      return;
    }
    const fenceposts = daemonSetFenceposts(set.maxSurge, set.maxUnavailable, desired);
    const record =
      rollouts.get('DaemonSet', set.namespace, set.name) ??
      rollouts.start({
        kind: 'DaemonSet',
        namespace: set.namespace,
        name: set.name,
        strategy: set.updateStrategy,
        maxSurge: fenceposts.maxSurge,
        maxUnavailable: fenceposts.maxUnavailable,
        replicas: desired,
        isUpdate: state
          .podsOf('DaemonSet', set.namespace, set.name)
          .some((pod) => pod.revision !== set.updateRevision),
      });
    const now = state.sim.now;
    const live = state
      .podsOf('DaemonSet', set.namespace, set.name)
      .filter((pod) => pod.deletionTime === null);
    const updated = live.filter((pod) => pod.revision === set.updateRevision).length;
    const available = live.filter((pod) => isAvailable(pod, set.minReadySeconds, now)).length;
    const numbers = {
      newReplicas: updated,
      oldReplicas: live.length - updated,
      available,
      unavailable: Math.max(0, desired - available),
    };
    if (changed) {
      rollouts.step(
        record,
        numbers,
        `DaemonSet ${set.name}: ${updated} of ${desired} nodes updated, ${available} available`,
      );
    }
    const isDone =
      live.length === desired &&
      available === desired &&
      (set.updateStrategy === 'OnDelete' || updated === desired);
    if (isDone) {
      rollouts.end(record, 'Complete', `daemon set "${set.name}" successfully rolled out`, numbers);
    }
  }
}
