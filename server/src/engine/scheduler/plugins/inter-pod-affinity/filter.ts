/**
 * InterPodAffinity PreFilter and Filter (filtering.go). PreFilter counts, per topology pair (key, value):
 *   existing: placed pods whose required anti-affinity term matches the incoming pod,
 *   affinity: placed pods matching all of the incoming pod's required affinity terms (per term's key),
 *   anti:     placed pods matching each of its required anti-affinity terms;
 * Filter rejects a node (in this order) when an affinity term's key is missing or no matching pod is in its
 * domain (unless no pod matches anywhere and the pod matches its own terms: the first of a group), when an
 * anti-affinity term finds a matching pod in the node's domain, or when a placed pod's anti-affinity term covers
 * the node's domain. AddPod/RemovePod adjust the counts for preemption's what-if evaluations.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/interpodaffinity/filtering.go
 */
import type { Labels } from '../../../model/label-selector';
import { labelValue } from '../../../model/label-selector';
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import type { ClonableState } from '../../framework/cycle-state';
import type { NodeDomains, PodCounter, TopologyIndex } from '../helper/topology-counter';
import type { TermGroup } from './existing-terms';
import { affinityTermsOf, termMatches } from './terms';
import type { AffinityTerm, PodAffinityTerms } from './terms';

/** A what-if adjustment of pair counts: "key\0value" to the change. */
type Deltas = Map<string, number>;

/** How a node fares. */
type AffinityVerdict = 'fits' | 'affinity' | 'anti-affinity' | 'existing-anti-affinity';

/** What Filter reads (preFilterState). */
export class AffinityFilterState implements ClonableState {
  /** Sums of the pair counts (the upstream maps' emptiness is a sum of zero: counts are never negative). */
  private readonly totals: { existing: number; affinity: number; anti: number };
  /** Per existing key: the domains of the key and which of them placed pods' anti-affinity covers. */
  private readonly blocked: readonly { readonly domains: NodeDomains; readonly flags: Uint8Array }[];

  constructor(
    /** The node list the counters are over (positions of nodes). */
    private readonly index: TopologyIndex,
    readonly pod: PodInfo,
    readonly terms: PodAffinityTerms,
    /** The incoming pod's namespace labels (for placed pods' terms). */
    readonly namespaceLabels: Labels,
    /** Whether the incoming pod matches all its own required affinity terms. */
    readonly matchesOwnAffinity: boolean,
    /** Groups of placed pods' required anti-affinity terms that match the incoming pod. */
    private readonly existing: readonly TermGroup[],
    /** Per required affinity term: placed pods matching all the terms, per value of the term's key. */
    private readonly affinity: readonly PodCounter[],
    /** Per required anti-affinity term: placed pods matching it. */
    private readonly anti: readonly PodCounter[],
    /** Namespace labels of a placed pod (to match the incoming pod's terms against a what-if pod). */
    private readonly labelsOf: (namespace: string) => Labels,
    private readonly deltas: { existing: Deltas; affinity: Deltas; anti: Deltas } = {
      existing: new Map(),
      affinity: new Map(),
      anti: new Map(),
    },
    private readonly existingKeys: string[] = distinct(existing.map((group) => group.term.topologyKey)),
  ) {
    this.totals = {
      existing: sum(existing.map((group) => group.total)) + sum([...deltas.existing.values()]),
      affinity: sum(affinity.map((counter) => counter.total)) + sum([...deltas.affinity.values()]),
      anti: sum(anti.map((counter) => counter.total)) + sum([...deltas.anti.values()]),
    };
    this.blocked = this.existingKeys.map((key) => {
      const domains = keyDomains(index, key);
      const flags = new Uint8Array(domains.size);
      for (const group of existing) {
        if (group.term.topologyKey === key) {
          for (const [value, count] of group.counts) {
            const id = domains.idOf(value);
            if (count > 0 && id >= 0) {
              flags[id] = 1;
            }
          }
        }
      }
      return { domains, flags };
    });
  }

  /** A copy with independent what-if counts. */
  clone(): AffinityFilterState {
    return new AffinityFilterState(
      this.index,
      this.pod,
      this.terms,
      this.namespaceLabels,
      this.matchesOwnAffinity,
      this.existing,
      this.affinity,
      this.anti,
      this.labelsOf,
      {
        existing: new Map(this.deltas.existing),
        affinity: new Map(this.deltas.affinity),
        anti: new Map(this.deltas.anti),
      },
      [...this.existingKeys],
    );
  }

  /** Whether the state found anything to check (otherwise PreFilter skips the plugin). */
  get isEmpty(): boolean {
    return (
      this.totals.existing === 0 &&
      this.terms.requiredAffinity.length === 0 &&
      this.terms.requiredAntiAffinity.length === 0
    );
  }

  /** Filter, in upstream order. */
  check(node: NodeInfo): AffinityVerdict {
    const position = this.index.positionOf(node);
    if (!this.satisfiesAffinity(node, position)) {
      return 'affinity';
    }
    if (!this.satisfiesAntiAffinity(node, position)) {
      return 'anti-affinity';
    }
    return this.satisfiesExistingAntiAffinity(node, position) ? 'fits' : 'existing-anti-affinity';
  }

  /** updateWithPod: a pod added to (+1) or removed from (-1) a node in a what-if evaluation. */
  update(updated: PodInfo, node: NodeInfo, sign: 1 | -1): void {
    const theirs = affinityTermsOf(updated);
    for (const term of theirs.requiredAntiAffinity) {
      if (termMatches(term, this.pod, this.namespaceLabels)) {
        this.bump('existing', term, node, sign);
        if (!this.existingKeys.includes(term.topologyKey)) {
          this.existingKeys.push(term.topologyKey);
        }
      }
    }
    const ours = this.terms;
    const updatedLabels = this.labelsOf(updated.namespace);
    if (ours.requiredAffinity.every((term) => termMatches(term, updated, updatedLabels))) {
      for (const term of ours.requiredAffinity) {
        this.bump('affinity', term, node, sign);
      }
    }
    for (const term of ours.requiredAntiAffinity) {
      if (termMatches(term, updated, updatedLabels)) {
        this.bump('anti', term, node, sign);
      }
    }
  }

  private satisfiesAffinity(node: NodeInfo, position: number): boolean {
    let podsExist = true;
    const terms = this.terms.requiredAffinity;
    for (const term of terms) {
      const count = this.pairCountAt(
        this.affinity,
        terms,
        this.deltas.affinity,
        term.topologyKey,
        node,
        position,
      );
      if (count === null) {
        return false;
      }
      if (count <= 0) {
        podsExist = false;
      }
    }
    if (podsExist) {
      return true;
    }
    // The first pod of a group with affinity to itself may go where its terms' topology keys exist.
    return this.totals.affinity === 0 && this.matchesOwnAffinity;
  }

  private satisfiesAntiAffinity(node: NodeInfo, position: number): boolean {
    if (this.totals.anti === 0) {
      return true;
    }
    const terms = this.terms.requiredAntiAffinity;
    for (const term of terms) {
      const count = this.pairCountAt(this.anti, terms, this.deltas.anti, term.topologyKey, node, position);
      if (count !== null && count > 0) {
        return false;
      }
    }
    return true;
  }

  private satisfiesExistingAntiAffinity(node: NodeInfo, position: number): boolean {
    if (this.totals.existing === 0) {
      return true;
    }
    if (position >= 0 && this.deltas.existing.size === 0) {
      for (const { domains, flags } of this.blocked) {
        const domain = domains.domainOfNode[position] as number;
        if (domain >= 0 && flags[domain] === 1) {
          return false;
        }
      }
      return true;
    }
    for (const key of this.existingKeys) {
      const value = labelValue(node.labels, key);
      if (value !== undefined && this.existingCount(key, value) > 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The count of the pair (key, node's value) over the counters of the terms with that key, plus what-if changes;
   * null when the node lacks the key. Read by the node's position when it is one of the counted nodes.
   */
  private pairCountAt(
    counters: readonly PodCounter[],
    terms: readonly AffinityTerm[],
    deltas: Deltas,
    key: string,
    node: NodeInfo,
    position: number,
  ): number | null {
    if (position >= 0 && deltas.size === 0) {
      let count = 0;
      for (let i = 0; i < terms.length; i++) {
        if ((terms[i] as AffinityTerm).topologyKey === key) {
          const counted = (counters[i] as PodCounter).countAt(position);
          if (counted < 0) {
            return null;
          }
          count += counted;
        }
      }
      return count;
    }
    const value = labelValue(node.labels, key);
    if (value === undefined) {
      return null;
    }
    let count = deltas.get(pairKey(key, value)) ?? 0;
    for (let i = 0; i < terms.length; i++) {
      if ((terms[i] as AffinityTerm).topologyKey === key) {
        count += (counters[i] as PodCounter).count(value);
      }
    }
    return count;
  }

  private existingCount(key: string, value: string): number {
    const deltas = this.deltas.existing;
    let count = deltas.size === 0 ? 0 : (deltas.get(pairKey(key, value)) ?? 0);
    for (const group of this.existing) {
      if (group.term.topologyKey === key) {
        count += group.counts.get(value) ?? 0;
      }
    }
    return count;
  }

  private bump(
    kind: 'existing' | 'affinity' | 'anti',
    term: AffinityTerm,
    node: NodeInfo,
    sign: number,
  ): void {
    const value = labelValue(node.labels, term.topologyKey);
    if (value !== undefined) {
      const deltas = this.deltas[kind];
      const key = pairKey(term.topologyKey, value);
      deltas.set(key, (deltas.get(key) ?? 0) + sign);
      this.totals[kind] += sign;
    }
  }
}

/** The domains of a topology key: every node that has the key (the pairs upstream's maps are keyed by). */
export function keyDomains(index: TopologyIndex, key: string): NodeDomains {
  return index.domains(`ipa\u0000${key}`, (node) => labelValue(node.labels, key) ?? null);
}

function pairKey(key: string, value: string): string {
  return `${key}\u0000${value}`;
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) {
    total += value;
  }
  return total;
}
