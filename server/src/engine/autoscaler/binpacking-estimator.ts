/**
 * How many nodes of a group the Pending pods need: cluster-autoscaler's BinpackingNodeEstimator, First-Fit
 * Decreasing. Pods come in equivalence groups (same owner and requests), ordered by how much of a template node one
 * pod takes (DecreasingPodOrderer: cpu share plus memory share); each group's pods first go on the nodes added so
 * far (FitsAnyNodeMatching over the new nodes), then on the last new node, and a new node is added when that fails,
 * until the limiter says no more. A pod that does not fit an empty new node ends its group (another node would not
 * help). https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/estimator/binpacking_estimator.go
 * https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/estimator/decreasing_pod_orderer.go
 * Left out: the fast path for groups of identical pods (same answer, faster), estimation time limits; ties of the
 * ordering keep input order (upstream's sort is not stable).
 */
import type { PodInfo } from '../model/snapshot/pod-info';
import type { Resources } from '../model/resources';
import { isSuccess } from '../scheduler/framework/status';
import type { Status } from '../scheduler/framework/status';

/** The snapshot the estimator packs into: new nodes from the template, the scheduler's filters, pods added. */
export interface EstimationSnapshot {
  /** Adds a fresh node from the group's template; returns its name. */
  addTemplateNode(): string;
  /** Runs the scheduler's PreFilter and Filter plugins for the pod on that node (CheckPredicates). */
  checkPredicates(pod: PodInfo, nodeName: string): Status;
  /**
   * The first of these nodes that passes checkPredicates for the pod, or null (FitsAnyNodeMatching: PreFilter
   * once, then Filter node by node).
   */
  firstFit(pod: PodInfo, nodeNames: readonly string[]): string | null;
  /** Places the pod on the node (what later checks see). */
  addPod(pod: PodInfo, nodeName: string): void;
}

/** Pods the scheduler treats alike: the estimator handles them together. */
export interface PodEquivalenceGroup {
  readonly pods: readonly PodInfo[];
}

/** What the estimator found: the nodes that received pods, and the pods placed, in placement order. */
export interface Estimate {
  readonly nodeCount: number;
  readonly pods: readonly PodInfo[];
}

/**
 * Groups pods as equivalence.BuildPodGroups does: same controller and the same requests (upstream compares the
 * whole spec; the requests and owner are what the estimate depends on here).
 */
export function buildPodGroups(pods: readonly PodInfo[]): PodEquivalenceGroup[] {
  const groups = new Map<string, PodInfo[]>();
  // The key reads the owner, namespace, requests and spec, which the pods of one template share (the very objects:
  // apiserver/pod-factory.ts copies them), so the last key made for an owner object is reused while the pod's
  // namespace, requests and spec are those it was made from; a pod of another template gets its key made anew.
  const lastKeys = new Map<object, { namespace: string; requests: Resources; spec: unknown; key: string }>();
  for (const pod of pods) {
    const last = pod.owner === null ? undefined : lastKeys.get(pod.owner);
    let key: string;
    if (
      last !== undefined &&
      last.namespace === pod.namespace &&
      last.requests === pod.requests &&
      last.spec === pod.pod.spec
    ) {
      key = last.key;
    } else {
      key = groupKey(pod);
      if (pod.owner !== null) {
        lastKeys.set(pod.owner, {
          namespace: pod.namespace,
          requests: pod.requests,
          spec: pod.pod.spec,
          key,
        });
      }
    }
    const list = groups.get(key) ?? [];
    list.push(pod);
    groups.set(key, list);
  }
  return [...groups.values()].map((list) => ({ pods: list }));
}

/** The group of a pod: its owner (the pod itself when it has none), its cpu and memory requests, its nodeSelector. */
function groupKey(pod: PodInfo): string {
  const owner =
    pod.owner === null ? `pod:${pod.key}` : `${pod.owner.kind}/${pod.namespace}/${pod.owner.name}`;
  return `${owner}|${pod.requests.milliCpu}|${pod.requests.memory}|${pod.pod.spec?.nodeSelector === undefined ? '' : JSON.stringify(pod.pod.spec.nodeSelector)}`;
}

/** DecreasingPodOrderer: groups by the share of a template node their first pod takes, largest first. */
export function orderDecreasing(
  groups: readonly PodEquivalenceGroup[],
  allocatable: Resources,
): PodEquivalenceGroup[] {
  const score = (group: PodEquivalenceGroup): number => {
    const pod = group.pods[0];
    if (pod === undefined) {
      return 0;
    }
    let value = 0;
    if (allocatable.milliCpu > 0) {
      value += pod.requests.milliCpu / allocatable.milliCpu;
    }
    if (allocatable.memory > 0) {
      value += pod.requests.memory / allocatable.memory;
    }
    return value;
  };
  return groups
    .map((group, index) => ({ group, index, score: score(group) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.group);
}

/**
 * Estimates the nodes a group needs for the pods. `maxNodes` is the limiter's threshold (the group's room, the
 * cluster's room, --max-nodes-per-scaleup); 0 means no limit.
 */
export function estimateNodes(
  groups: readonly PodEquivalenceGroup[],
  allocatable: Resources,
  snapshot: EstimationSnapshot,
  maxNodes: number,
): Estimate {
  const newNodes: string[] = [];
  const withPods = new Set<string>();
  const scheduled: PodInfo[] = [];
  let lastNode: string | null = null;
  const place = (pod: PodInfo, nodeName: string): void => {
    snapshot.addPod(pod, nodeName);
    withPods.add(nodeName);
    scheduled.push(pod);
  };
  for (const group of orderDecreasing(groups, allocatable)) {
    let index = 0;
    // tryToScheduleOnExistingNodes: the nodes added so far, in order, until one pod fits none (upstream's
    // FitsAnyNodeMatching: one PreFilter per pod, not one per node tried).
    for (; index < group.pods.length; index++) {
      const pod = group.pods[index] as PodInfo;
      const fit = newNodes.length === 0 ? null : snapshot.firstFit(pod, newNodes);
      if (fit === null) {
        break;
      }
      place(pod, fit);
    }
    // tryToScheduleOnNewNodes.
    for (; index < group.pods.length; index++) {
      const pod = group.pods[index] as PodInfo;
      if (lastNode !== null && isSuccess(snapshot.checkPredicates(pod, lastNode))) {
        place(pod, lastNode);
        continue;
      }
      if (lastNode !== null && !withPods.has(lastNode)) {
        break; // it did not fit an empty node: another one would not help
      }
      if (maxNodes > 0 && newNodes.length >= maxNodes) {
        break; // the limiter's permission to add a node
      }
      lastNode = snapshot.addTemplateNode();
      newNodes.push(lastNode);
      if (!isSuccess(snapshot.checkPredicates(pod, lastNode))) {
        break;
      }
      place(pod, lastNode);
    }
  }
  return { nodeCount: withPods.size, pods: scheduled };
}
