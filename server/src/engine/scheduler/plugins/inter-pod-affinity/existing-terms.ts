/**
 * The terms of the pods already placed, grouped: pods of one workload carry the same terms, so a group holds one
 * term (kind, weight, namespaces, selectors, topology key) and how many placed pods carry it per value of its
 * topology key. This is what InterPodAffinity's PreFilter (existing pods' required anti-affinity matching the
 * incoming pod) and PreScore (existing pods' required affinity and preferred terms) walk pod by pod upstream
 * (getExistingAntiAffinityCounts, processExistingPod); here each incoming pod only tests each group once, and
 * only the groups whose selector can match its labels (indexed by one `key=value` requirement of the selector).
 *
 * The index of a live cluster is kept in sync with its PodChangeLog, like helper/topology-counter.ts.
 */
import type { Cluster } from '../../../model/snapshot/cluster';
import type { Labels } from '../../../model/label-selector';
import { labelValue } from '../../../model/label-selector';
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodChangeLog } from '../../../model/snapshot/pod-change-log';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { affinityTermsOf, termMatches } from './terms';
import type { AffinityTerm } from './terms';

/** Which list of the placed pod a term comes from. */
type TermKind = 'requiredAffinity' | 'requiredAntiAffinity' | 'preferredAffinity' | 'preferredAntiAffinity';

const KINDS: readonly TermKind[] = [
  'requiredAffinity',
  'requiredAntiAffinity',
  'preferredAffinity',
  'preferredAntiAffinity',
];

/** Placed pods carrying one term, per value of the term's topology key on their nodes. */
export interface TermGroup {
  readonly kind: TermKind;
  readonly term: AffinityTerm;
  /** The term's weight (0 for required terms). */
  readonly weight: number;
  readonly counts: Map<string, number>;
  /** Sum of counts: placed pods with the term on nodes that have its topology key. */
  total: number;
}

/** The groups of a node list. */
export class ExistingTermsIndex {
  private readonly groups = new Map<string, TermGroup>();
  /** Groups by kind, then by an equality requirement of their selector ("key=value"). */
  private readonly anchored = new Map<TermKind, Map<string, TermGroup[]>>();
  /** Groups by kind whose selector has no equality requirement. */
  private readonly unanchored = new Map<TermKind, TermGroup[]>();
  private readonly nodeSet: ReadonlySet<NodeInfo>;
  private position: number;

  constructor(
    nodes: readonly NodeInfo[],
    private readonly log: PodChangeLog | null,
  ) {
    for (const kind of KINDS) {
      this.anchored.set(kind, new Map());
      this.unanchored.set(kind, []);
    }
    this.nodeSet = new Set(nodes);
    for (const node of nodes) {
      for (const pod of node.podsWithAffinity) {
        this.apply(pod, node, 1);
      }
    }
    this.position = log?.length ?? 0;
  }

  /** Applies the pod changes recorded since the last sync. */
  sync(): void {
    if (this.log === null || this.log.length === this.position) {
      return;
    }
    this.position = this.log.replay(this.position, (change) => {
      if (change.pod.hasPodAffinity && this.nodeSet.has(change.node)) {
        this.apply(change.pod, change.node, change.sign);
      }
    });
  }

  /** The groups of a kind with placed pods whose term matches the pod (its namespace labels given). */
  matching(kind: TermKind, pod: PodInfo, namespaceLabels: Labels): TermGroup[] {
    const result: TermGroup[] = [];
    const consider = (group: TermGroup): void => {
      if (group.total > 0 && termMatches(group.term, pod, namespaceLabels)) {
        result.push(group);
      }
    };
    const anchored = this.anchored.get(kind) as Map<string, TermGroup[]>;
    if (anchored.size > 0) {
      for (const name of Object.keys(pod.labels)) {
        anchored.get(`${name}=${pod.labels[name] ?? ''}`)?.forEach(consider);
      }
    }
    this.unanchored.get(kind)?.forEach(consider);
    return result;
  }

  private apply(pod: PodInfo, node: NodeInfo, sign: number): void {
    const terms = affinityTermsOf(pod);
    for (const term of terms.requiredAffinity) {
      this.count('requiredAffinity', term, 0, node, sign);
    }
    for (const term of terms.requiredAntiAffinity) {
      this.count('requiredAntiAffinity', term, 0, node, sign);
    }
    for (const term of terms.preferredAffinity) {
      this.count('preferredAffinity', term, term.weight, node, sign);
    }
    for (const term of terms.preferredAntiAffinity) {
      this.count('preferredAntiAffinity', term, term.weight, node, sign);
    }
  }

  private count(kind: TermKind, term: AffinityTerm, weight: number, node: NodeInfo, sign: number): void {
    const value = labelValue(node.labels, term.topologyKey);
    if (value === undefined || term.selector.isNothing) {
      return;
    }
    const id = `${kind}\u0000${weight}\u0000${term.key}`;
    let group = this.groups.get(id);
    if (group === undefined) {
      group = { kind, term, weight, counts: new Map(), total: 0 };
      this.groups.set(id, group);
      this.register(group);
    }
    const next = (group.counts.get(value) ?? 0) + sign;
    if (next === 0) {
      group.counts.delete(value);
    } else {
      group.counts.set(value, next);
    }
    group.total += sign;
  }

  private register(group: TermGroup): void {
    const anchor = group.term.selector.requirements.find(
      (requirement) => requirement.operator === 'In' && requirement.values.length === 1,
    );
    if (anchor === undefined) {
      this.unanchored.get(group.kind)?.push(group);
      return;
    }
    const anchored = this.anchored.get(group.kind) as Map<string, TermGroup[]>;
    const name = `${anchor.key}=${anchor.values[0] ?? ''}`;
    const list = anchored.get(name);
    if (list === undefined) {
      anchored.set(name, [group]);
    } else {
      list.push(group);
    }
  }
}

const LIVE = new WeakMap<Cluster, ExistingTermsIndex>();

/** The synced index of a cluster's node list, or a throw-away one over other nodes. */
export function existingTermsFor(cluster: Cluster, nodes: readonly NodeInfo[]): ExistingTermsIndex {
  if (nodes !== cluster.nodes) {
    return new ExistingTermsIndex(nodes, null);
  }
  let index = LIVE.get(cluster);
  if (index === undefined) {
    index = new ExistingTermsIndex(cluster.nodes, cluster.changeLog);
    LIVE.set(cluster, index);
  } else {
    index.sync();
  }
  return index;
}
