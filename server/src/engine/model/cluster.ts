/**
 * The cluster the scheduler places pods into: nodes (as NodeInfo, with the pods already bound to them),
 * PriorityClasses and namespace labels. One Cluster is the scheduler's snapshot; it changes only by binding
 * pods (NodeInfo.addPod) or removing them (preemption).
 */
import type { NodeInfo, ImageStateSummary } from './node-info';
import { listOf } from './objects';
import { normalizeImageName } from './pod-info';
import type { PodInfo } from './pod-info';
import type { ObjectSource } from './source';

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
  private readonly byName: ReadonlyMap<string, NodeInfo>;
  private readonly indexByName: ReadonlyMap<string, number>;

  constructor(
    nodes: readonly NodeInfo[],
    /** PriorityClasses by name. */
    readonly priorityClasses: ReadonlyMap<string, PriorityClassInfo>,
    /** Labels of the namespaces the input declares (for namespaceSelector); others have none. */
    readonly namespaceLabels: ReadonlyMap<string, Readonly<Record<string, string>>>,
    /** A short description of where the cluster came from: "embedded default cluster" or file names. */
    readonly description: string,
  ) {
    this.nodes = nodes;
    this.byName = new Map(nodes.map((node) => [node.name, node]));
    this.indexByName = new Map(nodes.map((node, index) => [node.name, index]));
    computeImageStates(nodes);
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
 * Fills each node's imageStates: every name of every image in status.images, normalised, with its size and the
 * number of nodes that have it (the spread ImageLocality scales by).
 */
function computeImageStates(nodes: readonly NodeInfo[]): void {
  const perNode = nodes.map((node) => {
    const images = new Map<string, number>();
    for (const image of listOf(node.node.status?.images)) {
      const size = typeof image.sizeBytes === 'number' ? image.sizeBytes : 0;
      for (const name of listOf(image.names)) {
        images.set(normalizeImageName(name), size);
      }
    }
    return images;
  });
  const counts = new Map<string, number>();
  for (const images of perNode) {
    for (const name of images.keys()) {
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  nodes.forEach((node, index) => {
    const states = new Map<string, ImageStateSummary>();
    for (const [name, size] of perNode[index] ?? []) {
      states.set(name, { size, numNodes: counts.get(name) ?? 0 });
    }
    node.imageStates = states;
  });
}
