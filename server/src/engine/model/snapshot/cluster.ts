/**
 * The cluster the scheduler places pods into: nodes (as NodeInfo, with the pods already bound to them),
 * PriorityClasses, namespace labels, and the other objects plugins read (Services, workloads' selectors,
 * PodDisruptionBudgets). One Cluster is the scheduler's snapshot; it changes only by binding pods
 * (NodeInfo.addPod) or removing them (preemption), and every such change is appended to its changeLog.
 */
import { ClusterObjects } from './cluster-objects';
import type { NodeInfo, ImageStateSummary } from './node-info';
import { NodeColumns } from './node-columns';
import { summarizeNodeSpecs } from './node-spec-summary';
import type { NodeSpecSummary } from './node-spec-summary';
import { listOf } from '../objects';
import { PodChangeLog } from './pod-change-log';
import type { PodInfo } from './pod-info';
import type { ObjectSource } from '../source';

/** A PriorityClass, reduced to what scheduling needs. */
export interface PriorityClassInfo {
  readonly name: string;
  readonly value: number;
  readonly globalDefault: boolean;
  /** "PreemptLowerPriority" (the default) or "Never". */
  readonly preemptionPolicy: string;
  readonly source: ObjectSource;
}

/** The scheduler's view of a cluster. */
export class Cluster {
  /** Nodes in input order; this order breaks score ties and starts the node search. */
  readonly nodes: readonly NodeInfo[];
  /** Every pod added to or removed from a node of this cluster, in order (for plugins' incremental indexes). */
  readonly changeLog = new PodChangeLog();
  /** The nodes' resource sums by node order, kept in step by the nodes (what the resource plugins read). */
  readonly columns: NodeColumns;
  private readonly byName: ReadonlyMap<string, NodeInfo>;
  private readonly indexByName: ReadonlyMap<string, number>;
  private specSummary: NodeSpecSummary | null = null;

  constructor(
    nodes: readonly NodeInfo[],
    /** PriorityClasses by name. */
    readonly priorityClasses: ReadonlyMap<string, PriorityClassInfo>,
    /** Labels of the namespaces the input declares (for namespaceSelector); others have none. */
    readonly namespaceLabels: ReadonlyMap<string, Readonly<Record<string, string>>>,
    /** A short description of where the cluster came from: "embedded default cluster" or file names. */
    readonly description: string,
    /** Services, ReplicaSets, StatefulSets, ReplicationControllers, Deployments and PodDisruptionBudgets. */
    readonly objects: ClusterObjects = new ClusterObjects(),
  ) {
    this.nodes = nodes;
    for (const node of nodes) {
      node.changeLog = this.changeLog;
    }
    this.byName = new Map(nodes.map((node) => [node.name, node]));
    this.indexByName = new Map(nodes.map((node, index) => [node.name, index]));
    this.columns = new NodeColumns(nodes.length);
    nodes.forEach((node, index) => {
      node.order = index;
      node.columns = this.columns;
      this.columns.write(index, node);
    });
    computeImageStates(nodes);
  }

  /** What holds for some node's spec (taints, cordons, images), computed on first use. */
  get nodeSpecs(): NodeSpecSummary {
    return (this.specSummary ??= summarizeNodeSpecs(this.nodes));
  }

  /** The node of that name, if any. */
  getNode(name: string): NodeInfo | undefined {
    return this.byName.get(name);
  }

  /** The position of a node in the cluster's node order, or -1. */
  indexOf(name: string): number {
    return this.indexByName.get(name) ?? -1;
  }

  /** Every pod bound to a node, node by node. */
  boundPods(): PodInfo[] {
    return this.nodes.flatMap((node) => node.pods);
  }
}

/**
 * Fills each node's imageStates as the scheduler cache does (addNodeImageStates): every name of every image in
 * status.images, as written, with the size first reported for that name in node order and the number of nodes
 * that list it (the spread ImageLocality scales by).
 */
function computeImageStates(nodes: readonly NodeInfo[]): void {
  const sizes = new Map<string, number>();
  const counts = new Map<string, number>();
  const perNode = nodes.map((node) => {
    const names = new Set<string>();
    for (const image of listOf(node.node.status?.images)) {
      const size = typeof image.sizeBytes === 'number' ? image.sizeBytes : 0;
      for (const name of listOf(image.names)) {
        if (typeof name !== 'string' || names.has(name)) {
          continue;
        }
        names.add(name);
        if (!sizes.has(name)) {
          sizes.set(name, size);
        }
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
    }
    return names;
  });
  nodes.forEach((node, index) => {
    const states = new Map<string, ImageStateSummary>();
    for (const name of perNode[index] ?? []) {
      states.set(name, { size: sizes.get(name) ?? 0, numNodes: counts.get(name) ?? 0 });
    }
    node.imageStates = states;
  });
}
