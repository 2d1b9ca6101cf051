/**
 * Pods matching a predicate, counted per topology domain, kept up to date incrementally: what PodTopologySpread's
 * TpValueToMatchNum / TopologyValueToPodCounts and InterPodAffinity's topologyToMatchedTermCount hold.
 *
 * kube-scheduler recomputes these maps for every pod from its snapshot, walking every pod of every node in 16
 * goroutines. Doing that here would cost O(pods²) for a large simulation, so counters are cached per cluster under a
 * key that fully determines them (the plugin's predicate and domain rule) and replay the cluster's PodChangeLog
 * from where they left off. The result is the same numbers, computed once per change instead of once per pod.
 * Node lists that are not a live cluster's (tests, what-if copies) get fresh, uncached counters.
 */
import type { Cluster } from '../../../model/snapshot/cluster';
import type { PodLabelSelector } from '../../../model/label-selector';
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodLogEntry, PodChangeLog } from '../../../model/snapshot/pod-change-log';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { indexChange, indexPod } from './label-positions';

/** The domain of every node for one rule (a topology key plus which nodes count), with dense domain ids. */
export class NodeDomains {
  /** Domain id of each node (by position in the node list), -1 when the node does not count. */
  readonly domainOfNode: Int32Array;
  /** Domain values by id. */
  readonly values: string[] = [];
  /** Whether every node has a domain (no -1 in domainOfNode). */
  readonly coversEveryNode: boolean;
  private readonly ids = new Map<string, number>();

  constructor(nodes: readonly NodeInfo[], valueOf: (node: NodeInfo) => string | null) {
    this.domainOfNode = new Int32Array(nodes.length);
    let coversEveryNode = true;
    nodes.forEach((node, index) => {
      const value = valueOf(node);
      if (value === null) {
        this.domainOfNode[index] = -1;
        coversEveryNode = false;
        return;
      }
      let id = this.ids.get(value);
      if (id === undefined) {
        id = this.values.length;
        this.values.push(value);
        this.ids.set(value, id);
      }
      this.domainOfNode[index] = id;
    });
    this.coversEveryNode = coversEveryNode;
  }

  /** The id of a domain value, or -1 when no counted node has it. */
  idOf(value: string): number {
    return this.ids.get(value) ?? -1;
  }

  /** How many domains there are. */
  get size(): number {
    return this.values.length;
  }
}

/** Pods matching a predicate, per domain of a NodeDomains. */
export class PodCounter {
  /** Matching pods per domain id. */
  readonly counts: Int32Array;
  /** Matching pods per node (by position), when asked for. */
  readonly perNode: Int32Array | null;
  /** Matching pods on counted nodes. */
  total = 0;
  /** How many domains hold each count (domains with 0 included): the minimum without a scan. */
  private readonly histogram = new Map<number, number>();
  private cachedMin: number | null = null;
  private position = 0;

  constructor(
    private readonly index: TopologyIndex,
    readonly domains: NodeDomains,
    private readonly matches: (pod: PodInfo) => boolean,
    keepPerNode: boolean,
    private readonly anchor: CounterAnchor,
  ) {
    this.counts = new Int32Array(domains.size);
    this.perNode = keepPerNode ? new Int32Array(index.nodes.length) : null;
    const candidates = anchor === 'nothing' ? new Map<PodInfo, number>() : index.podsWithLabel(anchor);
    if (candidates !== null) {
      for (const [pod, nodeIndex] of candidates) {
        if (matches(pod)) {
          this.bump(nodeIndex, domains.domainOfNode[nodeIndex] as number, 1, false);
        }
      }
    } else {
      index.nodes.forEach((node, nodeIndex) => {
        const domain = domains.domainOfNode[nodeIndex] as number;
        if (domain < 0 && this.perNode === null) {
          return;
        }
        for (const pod of node.pods) {
          if (matches(pod)) {
            this.bump(nodeIndex, domain, 1, false);
          }
        }
      });
    }
    for (const count of this.counts) {
      this.histogram.set(count, (this.histogram.get(count) ?? 0) + 1);
    }
    this.position = index.log?.length ?? 0;
  }

  /**
   * Applies the changes recorded since the last sync. A pod the predicate matches carries the anchor's label, so
   * with an anchor only the changes of pods carrying it are looked at (as when the counter was built).
   */
  sync(): void {
    const log = this.index.log;
    if (log === null || log.length === this.position) {
      return;
    }
    const apply = (change: PodLogEntry): void => {
      const nodeIndex = this.index.positionOf(change.node);
      if (nodeIndex < 0 || !this.matches(change.pod)) {
        return;
      }
      this.bump(nodeIndex, this.domains.domainOfNode[nodeIndex] as number, change.sign, true);
    };
    const anchor = this.anchor;
    if (anchor === 'nothing') {
      this.position = log.length;
    } else if (anchor === null) {
      this.position = log.replay(this.position, apply);
    } else {
      const positions = this.index.changesWithLabel(anchor);
      for (let k = firstAtOrAfter(positions, this.position); k < positions.length; k++) {
        apply(log.at(positions[k] as number));
      }
      this.position = log.length;
    }
  }

  /** Matching pods in the domain of the node at `position` in the list, or -1 when that node does not count. */
  countAt(position: number): number {
    const domain = position < 0 ? -1 : (this.domains.domainOfNode[position] as number);
    return domain < 0 ? -1 : (this.counts[domain] as number);
  }

  /** The position of a node in the counter's node list, or -1. */
  positionOf(node: NodeInfo): number {
    return this.index.positionOf(node);
  }

  /** Matching pods in the domain of that value (0 when no counted node has it). */
  count(value: string): number {
    const id = this.domains.idOf(value);
    return id < 0 ? 0 : (this.counts[id] as number);
  }

  /** Matching pods on one node (perNode counters only). */
  countOnNode(node: NodeInfo): number {
    const nodeIndex = this.index.positionOf(node);
    return nodeIndex < 0 || this.perNode === null ? 0 : (this.perNode[nodeIndex] as number);
  }

  /** The smallest count over domains, Infinity when there is no domain. */
  minCount(): number {
    if (this.cachedMin === null) {
      let min = Infinity;
      for (const [count, domains] of this.histogram) {
        if (domains > 0 && count < min) {
          min = count;
        }
      }
      this.cachedMin = min;
    }
    return this.cachedMin;
  }

  /** How many domains hold exactly `count` pods. */
  domainsWithCount(count: number): number {
    return this.histogram.get(count) ?? 0;
  }

  /** The distinct counts held by at least one domain, ascending. */
  distinctCounts(): number[] {
    return [...this.histogram]
      .filter(([, domains]) => domains > 0)
      .map(([count]) => count)
      .sort((a, b) => a - b);
  }

  private bump(nodeIndex: number, domain: number, sign: number, track: boolean): void {
    if (this.perNode !== null) {
      this.perNode[nodeIndex] = (this.perNode[nodeIndex] as number) + sign;
    }
    if (domain < 0) {
      return;
    }
    const before = this.counts[domain] as number;
    this.counts[domain] = before + sign;
    this.total += sign;
    if (track) {
      this.histogram.set(before, (this.histogram.get(before) ?? 0) - 1);
      this.histogram.set(before + sign, (this.histogram.get(before + sign) ?? 0) + 1);
      this.cachedMin = null;
    }
  }
}

/** The first index of an ascending list whose value is at least `value` (the list's length when none). */
function firstAtOrAfter(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as number) < value) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

/**
 * What a counter's predicate requires of a pod's labels, so that building it looks only at the pods carrying that
 * label (`key=value`, an equality requirement of its selector); 'nothing' when it matches no pod; null when unknown.
 */
type CounterAnchor = { readonly key: string; readonly value: string } | 'nothing' | null;

/** The anchor of a selector: its first single-valued In (or matchLabels) requirement. */
export function anchorOf(selector: PodLabelSelector): CounterAnchor {
  if (selector.isNothing) {
    return 'nothing';
  }
  const requirement = selector.requirements.find((r) => r.operator === 'In' && r.values.length === 1);
  return requirement === undefined ? null : { key: requirement.key, value: requirement.values[0] ?? '' };
}

/** Counters and domain rules over one node list; cached and kept in sync when the list is a live cluster's. */
export class TopologyIndex {
  /** Position of each node in the list. */
  readonly nodeIndex = new Map<NodeInfo, number>();
  private readonly domainCache = new Map<string, NodeDomains>();
  private readonly counterCache = new Map<string, PodCounter>();
  /**
   * Placed pods by label key, then value, with the position of their node (live lists only). A key is indexed
   * when a counter first asks for it: a capture of 150,000 pods was indexed by every label of every pod (0.8 s)
   * where counters read one key.
   */
  private readonly labelIndex = new Map<string, Map<string, Map<PodInfo, number>>>();
  private labelPosition = 0;
  /**
   * Log positions of the changes of pods carrying a label, by key then value, ascending (live lists only, per
   * key when first asked for). Only changes from the first counter's creation on are indexed: a counter reads the
   * changes after its own creation, and the log starts with every pod of the cluster file.
   */
  private readonly changeIndex = new Map<string, Map<string, number[]>>();
  private changeIndexStart = -1;
  private changeIndexPosition = 0;

  constructor(
    readonly nodes: readonly NodeInfo[],
    /** The live cluster's change log, or null for a list nobody keeps in sync (nothing is cached then). */
    readonly log: PodChangeLog | null,
  ) {
    nodes.forEach((node, index) => this.nodeIndex.set(node, index));
  }

  /** The position of a node in the list, or -1. */
  positionOf(node: NodeInfo): number {
    const position = node.order;
    if (position >= 0 && this.nodes[position] === node) {
      return position;
    }
    return this.nodeIndex.get(node) ?? -1;
  }

  /** The placed pods carrying a label, with their node's position; null when the list is not kept in sync. */
  podsWithLabel(anchor: CounterAnchor): ReadonlyMap<PodInfo, number> | null {
    if (this.log === null || anchor === null || anchor === 'nothing') {
      return null;
    }
    // The keys indexed so far are brought up to date, then a new key is read from the nodes as they are now.
    if (this.labelIndex.size === 0) {
      this.labelPosition = this.log.length;
    } else if (this.labelPosition !== this.log.length) {
      this.labelPosition = this.log.replay(this.labelPosition, (change) => {
        const position = this.nodeIndex.get(change.node);
        if (position !== undefined) {
          for (const [key, byValue] of this.labelIndex) {
            indexPod(byValue, key, change.pod, position, change.sign);
          }
        }
      });
    }
    let byValue = this.labelIndex.get(anchor.key);
    if (byValue === undefined) {
      const built = new Map<string, Map<PodInfo, number>>();
      this.nodes.forEach((node, position) => {
        for (const pod of node.pods) {
          indexPod(built, anchor.key, pod, position, 1);
        }
      });
      this.labelIndex.set(anchor.key, built);
      byValue = built;
    }
    return byValue.get(anchor.value) ?? new Map<PodInfo, number>();
  }

  /**
   * The log positions, ascending, of every change of a pod carrying the anchor's label from the first counter's
   * creation on (live lists only): each change is indexed once per key asked for, however many counters read it.
   */
  changesWithLabel(anchor: { readonly key: string; readonly value: string }): readonly number[] {
    const log = this.log;
    if (log === null) {
      return [];
    }
    if (this.changeIndexStart < 0) {
      // Not reached through counter(): every change is indexed.
      this.changeIndexStart = 0;
      this.changeIndexPosition = 0;
    }
    let byValue = this.changeIndex.get(anchor.key);
    if (byValue === undefined) {
      // A new key covers the same part of the log as the keys before it.
      byValue = new Map<string, number[]>();
      for (let position = this.changeIndexStart; position < this.changeIndexPosition; position++) {
        indexChange(byValue, anchor.key, log.at(position).pod, position);
      }
      this.changeIndex.set(anchor.key, byValue);
    }
    let position = this.changeIndexPosition;
    this.changeIndexPosition = log.replay(position, (change) => {
      for (const [key, values] of this.changeIndex) {
        indexChange(values, key, change.pod, position);
      }
      position++;
    });
    return byValue.get(anchor.value) ?? [];
  }

  /** The domains of a rule; `key` must determine `valueOf` completely. */
  domains(key: string, valueOf: (node: NodeInfo) => string | null): NodeDomains {
    let domains = this.domainCache.get(key);
    if (domains === undefined) {
      domains = new NodeDomains(this.nodes, valueOf);
      if (this.log !== null) {
        this.domainCache.set(key, domains);
      }
    }
    return domains;
  }

  /** A counter, synced; `key` must determine the domains and the predicate completely. */
  counter(
    key: string,
    domains: NodeDomains,
    matches: (pod: PodInfo) => boolean,
    options: { readonly keepPerNode?: boolean; readonly anchor?: CounterAnchor } = {},
  ): PodCounter {
    let counter = this.counterCache.get(key);
    if (counter === undefined) {
      if (this.changeIndexStart < 0 && this.log !== null) {
        // No counter reads changes from before its creation: the change index starts with the first one.
        this.changeIndexStart = this.log.length;
        this.changeIndexPosition = this.log.length;
      }
      counter = new PodCounter(this, domains, matches, options.keepPerNode ?? false, options.anchor ?? null);
      if (this.log !== null) {
        this.counterCache.set(key, counter);
      }
      return counter;
    }
    counter.sync();
    return counter;
  }
}

const LIVE_INDEXES = new WeakMap<Cluster, TopologyIndex>();

/**
 * The index for a node list: the cluster's cached, incrementally synced index when the list is the cluster's own
 * node list, else a throw-away index over the given nodes.
 */
export function topologyIndexFor(cluster: Cluster, nodes: readonly NodeInfo[]): TopologyIndex {
  if (nodes !== cluster.nodes) {
    return new TopologyIndex(nodes, null);
  }
  let index = LIVE_INDEXES.get(cluster);
  if (index === undefined) {
    index = new TopologyIndex(cluster.nodes, cluster.changeLog);
    LIVE_INDEXES.set(cluster, index);
  }
  return index;
}
