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
import type { NodeInfo } from '../../../model/node-info';
import type { PodInfo } from '../../../model/pod-info';
import type { ClonableState } from '../../framework/cycle-state';
import type { PodCounter } from '../helper/topology-counter';
import type { TermGroup } from './existing-terms';
import { affinityTermsOf, termMatches } from './terms';
import type { AffinityTerm, PodAffinityTerms } from './terms';

/** A what-if adjustment of pair counts: "key\0value" to the change. */
type Deltas = Map<string, number>;

/** How a node fares. */
export type AffinityVerdict = 'fits' | 'affinity' | 'anti-affinity' | 'existing-anti-affinity';

/** What Filter reads (preFilterState). */
export class AffinityFilterState implements ClonableState {
  constructor(
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
  ) {}

  /** A copy with independent what-if counts. */
  clone(): AffinityFilterState {
    return new AffinityFilterState(
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
      this.existingTotal() === 0 &&
      this.terms.requiredAffinity.length === 0 &&
      this.terms.requiredAntiAffinity.length === 0
    );
  }

  /** Filter, in upstream order. */
  check(node: NodeInfo): AffinityVerdict {
    if (!this.satisfiesAffinity(node)) {
      return 'affinity';
    }
    if (!this.satisfiesAntiAffinity(node)) {
      return 'anti-affinity';
    }
    return this.satisfiesExistingAntiAffinity(node) ? 'fits' : 'existing-anti-affinity';
  }

  /** updateWithPod: a pod added to (+1) or removed from (-1) a node in a what-if evaluation. */
  update(updated: PodInfo, node: NodeInfo, sign: 1 | -1): void {
    const theirs = affinityTermsOf(updated);
    for (const term of theirs.requiredAntiAffinity) {
      if (termMatches(term, this.pod, this.namespaceLabels)) {
        this.bump(this.deltas.existing, term, node, sign);
        if (!this.existingKeys.includes(term.topologyKey)) {
          this.existingKeys.push(term.topologyKey);
        }
      }
    }
    const ours = this.terms;
    const updatedLabels = this.labelsOf(updated.namespace);
    if (ours.requiredAffinity.every((term) => termMatches(term, updated, updatedLabels))) {
      for (const term of ours.requiredAffinity) {
        this.bump(this.deltas.affinity, term, node, sign);
      }
    }
    for (const term of ours.requiredAntiAffinity) {
      if (termMatches(term, updated, updatedLabels)) {
        this.bump(this.deltas.anti, term, node, sign);
      }
    }
  }

  private satisfiesAffinity(node: NodeInfo): boolean {
    let podsExist = true;
    const terms = this.terms.requiredAffinity;
    for (const term of terms) {
      const value = labelValue(node.labels, term.topologyKey);
      if (value === undefined) {
        return false;
      }
      if (this.pairCount(this.affinity, terms, this.deltas.affinity, term.topologyKey, value) <= 0) {
        podsExist = false;
      }
    }
    if (podsExist) {
      return true;
    }
    // The first pod of a group with affinity to itself may go where its terms' topology keys exist.
    return this.total(this.affinity, this.deltas.affinity) === 0 && this.matchesOwnAffinity;
  }

  private satisfiesAntiAffinity(node: NodeInfo): boolean {
    const terms = this.terms.requiredAntiAffinity;
    if (this.total(this.anti, this.deltas.anti) === 0) {
      return true;
    }
    for (const term of terms) {
      const value = labelValue(node.labels, term.topologyKey);
      if (
        value !== undefined &&
        this.pairCount(this.anti, terms, this.deltas.anti, term.topologyKey, value) > 0
      ) {
        return false;
      }
    }
    return true;
  }

  private satisfiesExistingAntiAffinity(node: NodeInfo): boolean {
    if (this.existingTotal() === 0) {
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

  /** Count of the pair (key, value) over the counters of the terms with that key, plus what-if changes. */
  private pairCount(
    counters: readonly PodCounter[],
    terms: readonly AffinityTerm[],
    deltas: Deltas,
    key: string,
    value: string,
  ): number {
    let count = deltas.get(pairKey(key, value)) ?? 0;
    terms.forEach((term, i) => {
      if (term.topologyKey === key) {
        count += (counters[i] as PodCounter).count(value);
      }
    });
    return count;
  }

  private total(counters: readonly PodCounter[], deltas: Deltas): number {
    let total = 0;
    for (const counter of counters) {
      total += counter.total;
    }
    for (const change of deltas.values()) {
      total += change;
    }
    return total;
  }

  private existingCount(key: string, value: string): number {
    let count = this.deltas.existing.get(pairKey(key, value)) ?? 0;
    for (const group of this.existing) {
      if (group.term.topologyKey === key) {
        count += group.counts.get(value) ?? 0;
      }
    }
    return count;
  }

  private existingTotal(): number {
    let total = 0;
    for (const group of this.existing) {
      total += group.total;
    }
    for (const change of this.deltas.existing.values()) {
      total += change;
    }
    return total;
  }

  private bump(deltas: Deltas, term: AffinityTerm, node: NodeInfo, sign: number): void {
    const value = labelValue(node.labels, term.topologyKey);
    if (value !== undefined) {
      const key = pairKey(term.topologyKey, value);
      deltas.set(key, (deltas.get(key) ?? 0) + sign);
    }
  }
}

function pairKey(key: string, value: string): string {
  return `${key}\u0000${value}`;
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}
