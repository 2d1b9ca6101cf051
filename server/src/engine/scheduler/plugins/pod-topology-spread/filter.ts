/**
 * PodTopologySpread PreFilter and Filter (filtering.go): for every DoNotSchedule constraint, the pods matching its
 * selector per domain of its topology key, over the nodes that count; a node fails when
 *   matching pods in its domain + (1 if the pod matches its own selector) - global minimum > maxSkew,
 * the global minimum being 0 while fewer than minDomains domains exist. A node without a constraint's key fails as
 * unresolvable. AddPod/RemovePod adjust the counts for preemption's what-if evaluations.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/podtopologyspread/filtering.go
 *
 * Difference: upstream keeps two "critical paths" per constraint, which after what-if updates may not hold the
 * true minimum (its code says so); here the minimum is always exact.
 */
import { labelValue } from '../../../model/label-selector';
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import type { ClonableState } from '../../framework/cycle-state';
import type { PodCounter, TopologyIndex } from '../helper/topology-counter';
import type { NodeInclusion, SpreadConstraint } from './common';
import { hasAllTopologyKeys } from './common';

/** What Filter reads: per constraint, the counter of the live cluster and what-if deltas per domain value. */
export class SpreadFilterState implements ClonableState {
  constructor(
    /** The node list the counters are over (positions of nodes). */
    readonly index: TopologyIndex,
    readonly constraints: readonly SpreadConstraint[],
    private readonly counters: readonly PodCounter[],
    /** Whether the incoming pod matches each constraint's selector (selfMatchNum). */
    readonly selfMatches: readonly number[],
    readonly namespace: string,
    readonly inclusion: NodeInclusion,
    private readonly deltas: readonly Map<string, number>[] = constraints.map(() => new Map()),
  ) {}

  /** A copy whose what-if deltas are independent. */
  clone(): SpreadFilterState {
    return new SpreadFilterState(
      this.index,
      this.constraints,
      this.counters,
      this.selfMatches,
      this.namespace,
      this.inclusion,
      this.deltas.map((delta) => new Map(delta)),
    );
  }

  /**
   * Pods matching constraint `i` in the node's domain (TpValueToMatchNum[i][value]), or null when the node lacks
   * the topology key. `position` is the node's place in the counters' node list (-1 for a what-if copy).
   */
  matchNum(i: number, node: NodeInfo, position: number): number | null {
    const counter = this.counters[i] as PodCounter;
    const deltas = this.deltas[i] as Map<string, number>;
    const counted = counter.countAt(position);
    if (counted >= 0 && deltas.size === 0) {
      return counted;
    }
    const value = labelValue(node.labels, (this.constraints[i] as SpreadConstraint).topologyKey);
    if (value === undefined) {
      return null;
    }
    return (counted >= 0 ? counted : counter.count(value)) + (deltas.get(value) ?? 0);
  }

  /** The global minimum of constraint `i` for the skew, 0 while there are fewer domains than minDomains. */
  minMatchNum(i: number): number {
    const counter = this.counters[i] as PodCounter;
    const constraint = this.constraints[i] as SpreadConstraint;
    if (counter.domains.size < constraint.minDomains) {
      return 0;
    }
    const delta = this.deltas[i] as Map<string, number>;
    if (delta.size === 0) {
      return counter.minCount();
    }
    // The minimum over domains not touched by a what-if, from the counter's histogram, then the touched ones.
    let min = Infinity;
    const touchedAt = new Map<number, number>();
    for (const [value, change] of delta) {
      const base = counter.count(value);
      touchedAt.set(base, (touchedAt.get(base) ?? 0) + 1);
      min = Math.min(min, base + change);
    }
    for (const count of counter.distinctCounts()) {
      if (counter.domainsWithCount(count) - (touchedAt.get(count) ?? 0) > 0) {
        return Math.min(min, count);
      }
    }
    return min;
  }

  /** updateWithPod: a pod added to (+1) or removed from (-1) a node in a what-if evaluation. */
  update(updated: PodInfo, node: NodeInfo, sign: 1 | -1): void {
    if (updated.namespace !== this.namespace || !hasAllTopologyKeys(node.labels, this.constraints)) {
      return;
    }
    this.constraints.forEach((constraint, i) => {
      if (!constraint.selector.matches(updated.labels) || !this.inclusion.includes(constraint, node)) {
        return;
      }
      const value = node.labels[constraint.topologyKey] ?? '';
      const delta = this.deltas[i] as Map<string, number>;
      delta.set(value, (delta.get(value) ?? 0) + sign);
    });
  }
}

/** How a node fares against the constraints. */
type SpreadVerdict = 'fits' | 'missing-label' | 'skew';

/** Filter: checks each constraint on the node, in order. */
export function checkSpread(state: SpreadFilterState, node: NodeInfo): SpreadVerdict {
  const constraints = state.constraints;
  const position = state.index.positionOf(node);
  for (let i = 0; i < constraints.length; i++) {
    const constraint = constraints[i] as SpreadConstraint;
    const matchNum = state.matchNum(i, node, position);
    if (matchNum === null) {
      return 'missing-label';
    }
    const skew = matchNum + (state.selfMatches[i] as number) - state.minMatchNum(i);
    if (skew > constraint.maxSkew) {
      return 'skew';
    }
  }
  return 'fits';
}
