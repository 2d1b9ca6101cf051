/**
 * The cluster file's pods bound once for the two loads of one simulation. simulate() loads the cluster for its own
 * checks (findings, profiles, the pod limit) and the timeline loads it again for its run; a capture of the largest
 * cluster Kubernetes supports holds 150,000 pods. Binding them (cluster-load.ts's bindPods: each pod's status and
 * node read, loadPod, duplicates found) is a function of the pod entries (objects and sources, in order), the
 * nodes' names in order, the version and how the PriorityClasses resolve priorities, and of nothing else. So the
 * first binding is recorded (which pod went to which node, and the findings it made, in order) and a later load
 * with the same inputs replays it: each node gets a copy of the recorded PodInfo (the timeline's run sets
 * nodeName and startTime on its own) and the findings are repeated where bindPods made them. Any other load binds
 * afresh, so the result cannot differ, and is recorded in place of the last. Replaying skips the per-pod walk;
 * keeping one record instead of an entry per pod object spares the collector 150,000 weak entries. simulate()
 * keeps the memo with the cluster array it was given (simulate/kept-cluster.ts): later calls replay it too, and
 * the recorded PodInfos, which no run sees, stay pristine.
 */
import type { Cluster, PriorityClassInfo } from '../snapshot/cluster';
import type { PodInfo } from '../snapshot/pod-info';
import type { ObjectSource } from '../source';
import type { KubernetesMinor } from '../../version';
import type { SourcedObject } from './cluster-load';
import type { Finding } from '../../../../../protocol/finding';

/** Called by a fresh binding for each pod it adds to a node: the node's position and the pod. */
export type OnBound = (nodeIndex: number, info: PodInfo) => void;

/** What the recorded binding added: the pods' keys and their latest start time (0 when none has one). */
export interface BoundPods {
  readonly keys: ReadonlySet<string>;
  readonly latestStart: number;
}

/** The first binding: its inputs, and what it did. */
interface RecordedBinding {
  readonly version: KubernetesMinor;
  readonly classes: ReadonlyMap<string, PriorityClassInfo>;
  readonly nodeNames: readonly string[];
  readonly pods: readonly SourcedObject[];
  /** Node positions and pristine PodInfos, in the order the pods were added. */
  readonly nodeIndexes: readonly number[];
  readonly infos: readonly PodInfo[];
  readonly findings: readonly Finding[];
}

/** The binding of the cluster file's pods shared by the loads of one simulation (and, kept, of later ones). */
export class PodLoadMemo {
  private recorded: RecordedBinding | null = null;
  /** Clusters a replay filled, and the binding replayed: as loadCluster returns one, it holds nothing else. */
  private readonly replayed = new WeakMap<Cluster, RecordedBinding>();
  /** The keys and latest start time of a binding's pods, made on first use. */
  private readonly bound = new WeakMap<RecordedBinding, BoundPods>();

  /**
   * The keys and latest start time of the pods a replay added to `cluster` (as loadCluster returns it, before any
   * run), or null when it was not filled by a replay. Made once per binding, read and never changed by a run: the
   * names the cluster's pods take (scenario/state/cluster-pod-names.ts), instead of a set of 150,000 names per call.
   */
  replayedPods(cluster: Cluster): BoundPods | null {
    const recorded = this.replayed.get(cluster);
    if (recorded === undefined) {
      return null;
    }
    let bound = this.bound.get(recorded);
    if (bound === undefined) {
      let latestStart = 0;
      for (const info of recorded.infos) {
        latestStart = Math.max(latestStart, info.startTime ?? 0);
      }
      bound = { keys: new Set(recorded.infos.map((info) => info.key)), latestStart };
      this.bound.set(recorded, bound);
    }
    return bound;
  }

  /**
   * Adds `pods` to the nodes of `cluster` and their findings to `findings`: as the recorded binding did when the
   * inputs are the same, else by `bindFresh`, recorded in place of the last one (the first call, or manifests
   * that add a PriorityClass: the next calls with them replay it). With `isReadOnly` (a cluster whose PodInfos
   * nothing changes: simulate()'s own load, which no run sees) a replay adds the recorded PodInfos themselves
   * rather than copies.
   */
  bind(
    cluster: Cluster,
    pods: readonly SourcedObject[],
    version: KubernetesMinor,
    findings: Finding[],
    bindFresh: (onBound: OnBound | undefined) => void,
    isReadOnly = false,
  ): void {
    const recorded = this.recorded;
    if (recorded !== null && isSameBinding(recorded, cluster, pods, version)) {
      for (const finding of recorded.findings) {
        findings.push(finding);
      }
      const { nodeIndexes, infos } = recorded;
      this.replayed.set(cluster, recorded);
      for (let i = 0; i < infos.length; i++) {
        const info = infos[i] as PodInfo;
        cluster.nodes[nodeIndexes[i] ?? -1]?.addPod(isReadOnly ? info : { ...info });
      }
      return;
    }
    const start = findings.length;
    const nodeIndexes: number[] = [];
    const infos: PodInfo[] = [];
    bindFresh((nodeIndex, info) => {
      nodeIndexes.push(nodeIndex);
      // A pristine copy: the caller's PodInfo is its cluster's, which a run may change.
      infos.push({ ...info });
    });
    this.recorded = {
      version,
      // A copy: the classes are compared on every later call.
      classes: new Map(cluster.priorityClasses),
      nodeNames: cluster.nodes.map((node) => node.name),
      pods: [...pods],
      nodeIndexes,
      infos,
      findings: findings.slice(start),
    };
  }
}

/** Whether binding `pods` to `cluster` at `version` is what the recorded binding was. */
function isSameBinding(
  recorded: RecordedBinding,
  cluster: Cluster,
  pods: readonly SourcedObject[],
  version: KubernetesMinor,
): boolean {
  if (
    recorded.version !== version ||
    recorded.pods.length !== pods.length ||
    recorded.nodeNames.length !== cluster.nodes.length ||
    !samePriorityClasses(recorded.classes, cluster.priorityClasses)
  ) {
    return false;
  }
  for (let i = 0; i < pods.length; i++) {
    const one = recorded.pods[i];
    const other = pods[i];
    if (one === undefined || other === undefined) {
      return false;
    }
    if (one !== other && (one.object !== other.object || !sameSource(one.source, other.source))) {
      return false;
    }
  }
  return cluster.nodes.every((node, index) => node.name === recorded.nodeNames[index]);
}

/** Whether two sources name the same place (file, document and path). */
function sameSource(a: ObjectSource, b: ObjectSource): boolean {
  if (a === b) {
    return true;
  }
  if (a.file !== b.file || a.documentIndex !== b.documentIndex || a.path.length !== b.path.length) {
    return false;
  }
  for (let i = 0; i < a.path.length; i++) {
    if (a.path[i] !== b.path[i]) {
      return false;
    }
  }
  return true;
}

/**
 * Whether two PriorityClass maps resolve every pod's priority alike: the same classes with the same values, in the
 * same order (the first globalDefault class in map order is the default, priority.ts).
 */
function samePriorityClasses(
  a: ReadonlyMap<string, PriorityClassInfo>,
  b: ReadonlyMap<string, PriorityClassInfo>,
): boolean {
  if (a === b) {
    return true;
  }
  if (a.size !== b.size) {
    return false;
  }
  const others = [...b.values()];
  let index = 0;
  for (const [name, one] of a) {
    const other = others[index++];
    if (
      other === undefined ||
      other.name !== name ||
      other.value !== one.value ||
      other.globalDefault !== one.globalDefault ||
      other.preemptionPolicy !== one.preemptionPolicy
    ) {
      return false;
    }
  }
  return true;
}
