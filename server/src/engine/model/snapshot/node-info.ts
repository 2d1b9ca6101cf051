/**
 * NodeInfo: a node with running sums of what its pods take (requests, non-zero requests, pod count, host ports),
 * kept up to date as pods are added and removed, like framework.NodeInfo upstream. Adding a pod is O(ports +
 * scalar resources), so scheduling many pods on many nodes stays fast.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/types.go
 */
import { listOf } from '../objects';
import type { NodeObject, TaintObject } from '../objects';
import type { NodeColumns } from './node-columns';
import type { PodChangeLog } from './pod-change-log';
import type { HostPort, PodInfo } from './pod-info';
import { Resources } from '../resources';
import type { ObjectSource } from '../source';

/** An image on a node with its size and how many nodes of the cluster have it (fwk.ImageStateSummary). */
export interface ImageStateSummary {
  readonly size: number;
  readonly numNodes: number;
}

/** The address kube-scheduler uses for a host port bound on every address. */
const BIND_ALL_HOST_IP = '0.0.0.0';

/** A node and the pods on it. */
export class NodeInfo {
  /** The node's name. */
  readonly name: string;
  /** Labels, never undefined. */
  readonly labels: Readonly<Record<string, string>>;
  /** Taints, never undefined. */
  readonly taints: readonly TaintObject[];
  /** spec.unschedulable. */
  readonly unschedulable: boolean;
  /** status.allocatable. */
  readonly allocatable: Resources;
  /** Sum of the requests of the pods on the node. */
  readonly requested = new Resources();
  /** Sum of non-zero cpu and memory requests (100m / 200Mi per container without a request), for scoring. */
  readonly nonZeroRequested = new Resources();
  /** Pods on the node, in the order they were added. */
  readonly pods: PodInfo[] = [];
  /** The pods on the node that have pod affinity or anti-affinity terms. */
  readonly podsWithAffinity: PodInfo[] = [];
  /** The pods on the node that have required pod anti-affinity terms. */
  readonly podsWithRequiredAntiAffinity: PodInfo[] = [];
  /** The node's position in its cluster's node order (set by the Cluster; -1 outside one). */
  order = -1;
  /** Images on the node by name, with cluster-wide counts (set by the snapshot). */
  imageStates: ReadonlyMap<string, ImageStateSummary>;
  /** The cluster's log of pod changes, set by the Cluster that owns this node (copies have none). */
  changeLog: PodChangeLog | null = null;
  /** The cluster's resource columns, whose row `order` this node keeps equal to its sums (copies have none). */
  columns: NodeColumns | null = null;
  /** Host ports in use: "protocol/port" to the count of pods per host IP. */
  private readonly usedPorts = new Map<string, Map<string, number>>();

  constructor(
    /** The Node object as given. */
    readonly node: NodeObject,
    /** Where the Node was written. */
    readonly source: ObjectSource,
    allocatable: Resources,
  ) {
    this.name = node.metadata?.name ?? '';
    this.labels = node.metadata?.labels ?? {};
    this.taints = listOf(node.spec?.taints);
    this.unschedulable = node.spec?.unschedulable === true;
    this.allocatable = allocatable;
    this.imageStates = new Map();
  }

  /** Accounts for a pod placed on this node. */
  addPod(pod: PodInfo): void {
    this.pods.push(pod);
    if (pod.hasPodAffinity) {
      this.podsWithAffinity.push(pod);
    }
    if (pod.hasRequiredAntiAffinity) {
      this.podsWithRequiredAntiAffinity.push(pod);
    }
    this.update(pod, 1);
    this.changeLog?.record(this, pod, 1);
  }

  /** Releases what a pod took; returns false when the pod was not on this node. */
  removePod(pod: PodInfo): boolean {
    const index = this.pods.findIndex((p) => p.key === pod.key);
    if (index < 0) {
      return false;
    }
    this.pods.splice(index, 1);
    removeByKey(this.podsWithAffinity, pod.key);
    removeByKey(this.podsWithRequiredAntiAffinity, pod.key);
    this.update(pod, -1);
    this.changeLog?.record(this, pod, -1);
    return true;
  }

  /** Whether a host port would conflict with one in use (HostPortInfo.CheckConflict). */
  hasPortConflict(port: HostPort): boolean {
    const ips = this.usedPorts.get(portKey(port));
    if (ips === undefined || ips.size === 0) {
      return false;
    }
    return port.ip === BIND_ALL_HOST_IP || ips.has(BIND_ALL_HOST_IP) || ips.has(port.ip);
  }

  /** An independent copy (pods are shared, sums and lists are copied), for what-if evaluations. */
  clone(): NodeInfo {
    const copy = new NodeInfo(this.node, this.source, this.allocatable);
    copy.imageStates = this.imageStates;
    for (const pod of this.pods) {
      copy.addPod(pod);
    }
    return copy;
  }

  private update(pod: PodInfo, sign: number): void {
    this.requested.addScaled(pod.requests, sign);
    this.nonZeroRequested.milliCpu += sign * pod.nonZeroMilliCpu;
    this.nonZeroRequested.memory += sign * pod.nonZeroMemory;
    this.columns?.write(this.order, this);
    for (const port of pod.hostPorts) {
      const key = portKey(port);
      let ips = this.usedPorts.get(key);
      if (ips === undefined) {
        ips = new Map();
        this.usedPorts.set(key, ips);
      }
      const count = (ips.get(port.ip) ?? 0) + sign;
      if (count > 0) {
        ips.set(port.ip, count);
      } else {
        ips.delete(port.ip);
      }
    }
  }
}

function portKey(port: HostPort): string {
  return `${port.protocol}/${port.port}`;
}

function removeByKey(pods: PodInfo[], key: string): void {
  const index = pods.findIndex((p) => p.key === key);
  if (index >= 0) {
    pods.splice(index, 1);
  }
}
