/**
 * Whether a scan's scale-up sees exactly what the last scan saw. cluster-autoscaler runs every --scan-interval;
 * once the pods it cannot help are known and the cluster is still, each loop recomputes the same answer (the same
 * unhelped pods, the same NotTriggerScaleUp messages, already recorded). A key names every input of that answer:
 * each node of the snapshot (the NodeInfo object, replaced on any Node change, and whether its kubelet runs or a
 * scale-down deletes it), the pods placed on them (the length of the scheduler's PodChangeLog, which every
 * NodeInfo.addPod and removePod appends to), the storage objects' generation, the upcoming nodes, the groups'
 * sizes and the DaemonSet pods a new node would run, and the unschedulable pods themselves, in order. Equal keys,
 * equal answers; a key is null (nothing is reused) when some node's pod changes are not logged.
 * https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/core/static_autoscaler.go
 */
import type { PodChangeLog } from '../model/snapshot/pod-change-log';
import type { PodInfo } from '../model/snapshot/pod-info';
import type { SimNode } from '../apiserver/cluster-state';
import type { SimPod } from '../apiserver/sim-pod';

/** A node requested and not yet joined, as the key reads it. */
interface UpcomingInput {
  readonly name: string;
  readonly group: { readonly name: string };
  readonly readyAt: number;
}

/** What one scan reads before deciding a scale-up. */
interface ScanInputs {
  readonly nodes: readonly SimNode[];
  readonly isDeleting: (name: string) => boolean;
  readonly upcoming: readonly UpcomingInput[];
  readonly groupSizes: readonly number[];
  readonly daemonPods: readonly (readonly PodInfo[])[];
  readonly storageGeneration: number;
  readonly waiting: readonly SimPod[];
}

/** Keys of scan inputs; objects are named by a number given on first sight (identity, not content). */
export class ScanInputKeys {
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;
  /** The last waiting list named, and its name (unschedulable-pods.ts hands the same array while it holds). */
  private waiting: { readonly pods: readonly SimPod[]; readonly part: string } | null = null;

  /** The key of a scan's inputs, or null when they cannot be named exactly. */
  keyOf(inputs: ScanInputs): string | null {
    const parts: (string | number)[] = [inputs.storageGeneration];
    let log: PodChangeLog | null = null;
    for (const node of inputs.nodes) {
      const changes = node.info.changeLog;
      if (changes === null || (log !== null && changes !== log)) {
        return null;
      }
      log = changes;
      parts.push(
        `${this.idOf(node.info)}${node.isKubeletAlive ? '' : '!'}${inputs.isDeleting(node.name) ? 'x' : ''}`,
      );
    }
    if (log !== null) {
      parts.push(`log${this.idOf(log)}:${log.length}`);
    }
    for (const node of inputs.upcoming) {
      parts.push(`${node.name}@${node.group.name}@${node.readyAt}`);
    }
    parts.push(`sizes:${inputs.groupSizes.join(',')}`);
    for (const pods of inputs.daemonPods) {
      parts.push(JSON.stringify(pods.map((pod) => [pod.key, pod.priority, pod.pod.spec ?? null])));
    }
    parts.push(this.waitingPart(inputs.waiting));
    return parts.join('|');
  }

  /** The waiting pods in order; a pod's info never changes, so the same array has the same part. */
  private waitingPart(pods: readonly SimPod[]): string {
    if (this.waiting?.pods !== pods) {
      this.waiting = { pods, part: `waiting:${pods.map((pod) => this.idOf(pod.info)).join(',')}` };
    }
    return this.waiting.part;
  }

  private idOf(object: object): number {
    let id = this.ids.get(object);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(object, id);
    }
    return id;
  }
}
