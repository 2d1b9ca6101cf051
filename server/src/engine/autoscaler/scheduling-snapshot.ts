/**
 * The autoscaler's what-if cluster: copies of nodes (existing ones, upcoming ones, a group's template nodes) on
 * which the scheduler's own PreFilter and Filter plugins (the profile the pod names) decide whether a pod fits, as
 * cluster-autoscaler's ClusterSnapshot.CheckPredicates runs the real scheduler framework. Pods placed here are
 * copies: the real pods and nodes are never touched.
 * https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/simulator/clustersnapshot/predicate/plugin_runner.go
 * Each question gets a fresh copy of the nodes it is about (upstream forks and reverts one snapshot).
 */
import { clearIfAny } from '../model/clear-if-any';
import { Cluster } from '../model/snapshot/cluster';
import { NodeInfo } from '../model/snapshot/node-info';
import type { NodeObject } from '../model/objects';
import type { PodInfo } from '../model/snapshot/pod-info';
import { buildFramework } from '../scheduler/framework/build-framework';
import type { SchedulerFramework } from '../scheduler/framework/framework';
import { SUCCESS, isSuccess, newStatus } from '../scheduler/framework/status';
import type { Status } from '../scheduler/framework/status';
import { DEFAULT_SCHEDULER_NAME } from '../scheduler/profile';
import type { SchedulerProfile } from '../scheduler/profile';
import type { PluginRegistry } from '../scheduler/registry';
import type { KubernetesMinor } from '../version';
import type { EstimationSnapshot } from './binpacking-estimator';
import type { PodClassKeys } from '../scheduler/equivalence-cache';

/** What the snapshot's scheduler is built from (the scheduler loop's setup). */
export interface SnapshotSetup {
  readonly profiles: readonly SchedulerProfile[];
  readonly registry: PluginRegistry;
  readonly version: KubernetesMinor;
  /** The loaded cluster: PriorityClasses, namespace labels and the objects plugins list carry over. */
  readonly base: Cluster;
  /** Whether pods of one class share failed verdicts (scheduler/equivalence-cache.ts); default true. */
  readonly equivalenceCache?: boolean;
  /** The pods' class keys, shared with the scheduler's caches (equivalence-cache.ts). */
  readonly podClassKeys?: PodClassKeys;
}

/** A what-if cluster of node copies. */
export class SchedulingSnapshot {
  private readonly nodes: NodeInfo[] = [];
  private cluster: Cluster | null = null;
  private readonly frameworks = new Map<string, SchedulerFramework | null>();

  constructor(private readonly setup: SnapshotSetup) {}

  /** Adds a copy of an existing node (its pods counted, never changed). */
  addCopy(node: NodeInfo): void {
    const copy = new NodeInfo(node.node, node.source, node.allocatable);
    copy.imageStates = node.imageStates;
    for (const pod of node.pods) {
      copy.addPod(pod);
    }
    this.nodes.push(copy);
    this.invalidate();
  }

  /** Adds a node with this object and the allocatable of `like`, running these DaemonSet pods (copies). */
  addNode(object: NodeObject, like: NodeInfo, daemonPods: readonly PodInfo[] = []): string {
    const info = new NodeInfo(object, like.source, like.allocatable);
    for (const pod of daemonPods) {
      const name = `${pod.name}-${info.name}`;
      info.addPod({ ...pod, name, key: `${pod.namespace}/${name}`, nodeName: info.name });
    }
    this.nodes.push(info);
    this.invalidate();
    return info.name;
  }

  /** The names of the snapshot's nodes, in order. */
  nodeNames(): string[] {
    return this.nodes.map((node) => node.name);
  }

  /** The snapshot's nodes, in order (what the equivalence cache checks for placed anti-affinity). */
  nodeInfos(): readonly NodeInfo[] {
    return this.nodes;
  }

  /**
   * The first of these nodes (all by default) the pod fits, or null (FitsAnyNodeMatching): PreFilter runs once,
   * then Filter node by node, as upstream's SchedulePod runs RunPreFilterPlugins once before its node loop.
   * https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/simulator/clustersnapshot/predicate/plugin_runner.go
   */
  firstFit(pod: PodInfo, names: readonly string[] = this.nodeNames()): string | null {
    const framework = this.framework(pod);
    const cluster = this.cluster;
    if (framework === null || cluster === null) {
      return null;
    }
    const state = framework.newCycleState();
    const pre = framework.runPreFilterPlugins(state, pod);
    if (!isSuccess(pre.status)) {
      return null;
    }
    for (const name of names) {
      const node = cluster.getNode(name);
      if (node === undefined || (pre.nodeNames !== null && !pre.nodeNames.has(name))) {
        continue;
      }
      if (isSuccess(framework.runFilterPlugins(state, pod, node))) {
        return name;
      }
    }
    return null;
  }

  /** PreFilter then Filter plugins of the pod's profile, for one node. */
  checkPredicates(pod: PodInfo, nodeName: string): Status {
    const framework = this.framework(pod);
    const cluster = this.cluster;
    const node = cluster?.getNode(nodeName);
    if (framework === null || cluster === null || node === undefined) {
      const message = `no scheduler profile is named "${schedulerNameOf(pod)}"`;
      return newStatus('UnschedulableAndUnresolvable', '', { code: 'ClusterAutoscaler/NoProfile', message });
    }
    const state = framework.newCycleState();
    const pre = framework.runPreFilterPlugins(state, pod);
    if (!isSuccess(pre.status)) {
      return pre.status;
    }
    if (pre.nodeNames !== null && !pre.nodeNames.has(nodeName)) {
      return newStatus('UnschedulableAndUnresolvable', '', {
        code: 'ClusterAutoscaler/PreFilterExcluded',
        message: `node(s) didn't satisfy plugin(s) [${pre.pluginsWithNodes.join(' ')}]`,
      });
    }
    const status = framework.runFilterPlugins(state, pod, node);
    return isSuccess(status) ? SUCCESS : status;
  }

  /** Places a copy of the pod on the node (the pending pod itself stays unbound). */
  addPod(pod: PodInfo, nodeName: string): void {
    const node =
      this.cluster?.getNode(nodeName) ?? this.nodes.find((candidate) => candidate.name === nodeName);
    node?.addPod({ ...pod, nodeName });
  }

  private framework(pod: PodInfo): SchedulerFramework | null {
    if (this.cluster === null) {
      const { base } = this.setup;
      this.cluster = new Cluster(
        this.nodes,
        base.priorityClasses,
        base.namespaceLabels,
        base.description,
        base.objects,
      );
    }
    const name = schedulerNameOf(pod);
    if (!this.frameworks.has(name)) {
      const profile = this.setup.profiles.find((candidate) => candidate.schedulerName === name);
      this.frameworks.set(
        name,
        profile === undefined
          ? null
          : buildFramework(profile, this.setup.registry, this.cluster, this.setup.version).framework,
      );
    }
    return this.frameworks.get(name) ?? null;
  }

  private invalidate(): void {
    this.cluster = null;
    clearIfAny(this.frameworks);
  }
}

function schedulerNameOf(pod: PodInfo): string {
  return pod.pod.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME;
}

/**
 * The estimator's view of a snapshot: each new node is made by `makeNode` from the group's template and runs the
 * DaemonSet pods a node of the group would.
 */
export function templateNodes(
  snapshot: SchedulingSnapshot,
  template: NodeInfo,
  makeNode: (index: number) => NodeObject,
  daemonPods: readonly PodInfo[] = [],
): EstimationSnapshot {
  let count = 0;
  return {
    addTemplateNode: () => snapshot.addNode(makeNode(count++), template, daemonPods),
    checkPredicates: (pod, nodeName) => snapshot.checkPredicates(pod, nodeName),
    firstFit: (pod, nodeNames) => snapshot.firstFit(pod, nodeNames),
    addPod: (pod, nodeName) => snapshot.addPod(pod, nodeName),
  };
}
