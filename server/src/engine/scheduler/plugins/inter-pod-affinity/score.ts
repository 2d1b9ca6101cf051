/**
 * InterPodAffinity PreScore, Score and NormalizeScore (scoring.go). Every (placed pod, term) match adds a weight
 * to the topology pair of the placed pod's node, and a node scores the sum over the pairs it belongs to:
 *   + weight   for each of the incoming pod's preferred affinity terms a placed pod matches,
 *   - weight   for each of its preferred anti-affinity terms,
 *   + hardPodAffinityWeight for each placed pod's required affinity term the incoming pod matches,
 *   ± weight   for each placed pod's preferred (anti-)affinity term the incoming pod matches.
 * Scores are then scaled to 0..100 between the lowest and the highest (truncated).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/interpodaffinity/scoring.go
 */
import type { Labels } from '../../../model/label-selector';
import { labelValue } from '../../../model/label-selector';
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { MAX_NODE_SCORE } from '../../framework/plugin';
import type { NodeScore } from '../../framework/plugin';
import type { PodCounter } from '../helper/topology-counter';
import type { ExistingTermsIndex } from './existing-terms';
import type { PodAffinityTerms, WeightedAffinityTerm } from './terms';

/** Weighted pod counts per value of one topology key. */
interface Contribution {
  readonly topologyKey: string;
  /** Weight per matching pod (negative for anti-affinity). */
  readonly factor: number;
  count(value: string): number;
  readonly total: number;
}

/** What Score reads (preScoreState). */
export interface AffinityScoreState {
  readonly contributions: readonly Contribution[];
}

/** What PreScore needs to count. */
interface ScoreInputs {
  readonly pod: PodInfo;
  readonly terms: PodAffinityTerms;
  readonly namespaceLabels: Labels;
  readonly hardPodAffinityWeight: number;
  readonly counterFor: (term: WeightedAffinityTerm) => PodCounter;
  readonly existing: ExistingTermsIndex;
}

/** PreScore's counting; null when nothing matched anywhere (PreScore then skips). */
export function buildAffinityScoreState(inputs: ScoreInputs): AffinityScoreState | null {
  const { pod, terms, namespaceLabels } = inputs;
  const contributions: Contribution[] = [];
  const fromCounter = (term: WeightedAffinityTerm, sign: number): void => {
    const counter = inputs.counterFor(term);
    contributions.push({
      topologyKey: term.topologyKey,
      factor: sign * term.weight,
      count: (value) => counter.count(value),
      total: counter.total,
    });
  };
  terms.preferredAffinity.forEach((term) => fromCounter(term, 1));
  terms.preferredAntiAffinity.forEach((term) => fromCounter(term, -1));
  const fromGroups = (kind: 'requiredAffinity' | 'preferredAffinity' | 'preferredAntiAffinity'): void => {
    for (const group of inputs.existing.matching(kind, pod, namespaceLabels)) {
      const factor =
        kind === 'requiredAffinity'
          ? inputs.hardPodAffinityWeight
          : kind === 'preferredAffinity'
            ? group.weight
            : -group.weight;
      contributions.push({
        topologyKey: group.term.topologyKey,
        factor,
        count: (value) => group.counts.get(value) ?? 0,
        total: group.total,
      });
    }
  };
  if (inputs.hardPodAffinityWeight > 0) {
    fromGroups('requiredAffinity');
  }
  fromGroups('preferredAffinity');
  fromGroups('preferredAntiAffinity');
  const matched = contributions.filter((contribution) => contribution.total > 0);
  return matched.length === 0 ? null : { contributions: matched };
}

/** Score: the sum of the weights of the pairs the node belongs to. */
export function scoreAffinity(state: AffinityScoreState, node: NodeInfo): number {
  let score = 0;
  for (const contribution of state.contributions) {
    const value = labelValue(node.labels, contribution.topologyKey);
    if (value !== undefined) {
      score += contribution.factor * contribution.count(value);
    }
  }
  return score;
}

/** NormalizeScore: (score - min) / (max - min) × 100, truncated; all 0 when every node scored the same. */
export function normalizeAffinity(scores: NodeScore[]): void {
  let min = Infinity;
  let max = -Infinity;
  for (const entry of scores) {
    min = Math.min(min, entry.score);
    max = Math.max(max, entry.score);
  }
  const spread = max - min;
  for (const entry of scores) {
    entry.score = spread > 0 ? Math.trunc(MAX_NODE_SCORE * ((entry.score - min) / spread)) : 0;
  }
}
