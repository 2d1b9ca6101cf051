/**
 * PodTopologySpread PreScore, Score and NormalizeScore (scoring.go), for ScheduleAnyway constraints (the pod's
 * own, or the default constraints with the derived selector):
 *   score(node) = round( Σ over constraints whose key the node has: count × log(domains + 2) + (maxSkew - 1) )
 * where count is the matching pods in the node's domain (on the node itself for kubernetes.io/hostname) and
 * domains the number of topology values among the feasible nodes; fewer pods score better after normalising:
 *   100 × (max + min - score) / max, nodes missing a topology key get 0.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/podtopologyspread/scoring.go
 */
import { labelValue } from '../../../model/label-selector';
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { MAX_NODE_SCORE } from '../../framework/plugin';
import type { NodeScore } from '../../framework/plugin';
import type { PodCounter, TopologyIndex } from '../helper/topology-counter';
import { LABEL_HOSTNAME, constraintCounter, hasAllTopologyKeys, perNodeCounter } from './common';
import type { NodeInclusion, SpreadConstraint } from './common';

/** The marks of a constraint whose domains are not marked (the hostname's). */
const NO_MARKS = new Uint8Array(0);

/** The ignored nodes of a state that ignores none. */
const NO_NODES: ReadonlySet<string> = new Set();

/** What Score reads (preScoreState). */
export interface SpreadScoreState {
  readonly constraints: readonly SpreadConstraint[];
  /** Feasible nodes missing some topology key: scored 0. */
  readonly ignoredNodes: ReadonlySet<string>;
  /** Per constraint: pods per domain, or per node for the hostname key. */
  readonly counters: readonly PodCounter[];
  /** Per constraint: log(number of domains among the feasible nodes + 2). */
  readonly weights: readonly number[];
  /** The node list the counters count by position. */
  readonly index: TopologyIndex;
  /** Per constraint, by node position: 0 when the node has the topology key, -1 when not (no label read). */
  readonly keyPresence: readonly Int32Array[];
}

/** initPreScoreState plus the counting of PreScore. */
export function buildSpreadScoreState(
  index: TopologyIndex,
  pod: PodInfo,
  feasible: readonly NodeInfo[],
  constraints: readonly SpreadConstraint[],
  inclusion: NodeInclusion,
  requireAllKeys: boolean,
): SpreadScoreState {
  const counters = constraints.map((constraint) =>
    constraint.topologyKey === LABEL_HOSTNAME
      ? perNodeCounter(index, pod.namespace, constraint.selector)
      : constraintCounter(index, pod, constraints, constraint, inclusion, requireAllKeys),
  );
  // Most pods have no feasible node missing a key: the set is made when the first one comes.
  let ignoredNodes: Set<string> | null = null;
  // The topology values among the feasible nodes: marked by domain id, or kept aside for nodes not counted (a
  // set made only when such a node comes). The hostname constraint counts feasible nodes instead: no marks.
  const seen = counters.map((counter, i) =>
    constraints[i]?.topologyKey === LABEL_HOSTNAME ? NO_MARKS : new Uint8Array(counter.domains.size),
  );
  const sizes = constraints.map(() => 0);
  const others: (Set<string> | undefined)[] = constraints.map(() => undefined);
  // Whether a node has every key of the set, as a domain rule the index caches per cluster and key set.
  const hasAllKeys = requireAllKeys
    ? index.domains(
        `pts-all\u0000${constraints.map((constraint) => constraint.topologyKey).join('\u0001')}`,
        (node) => (hasAllTopologyKeys(node.labels, constraints) ? '' : null),
      ).domainOfNode
    : null;
  // Domains not yet marked, over the counted keys. Once none is left, a node of the index whose every counted key
  // has a domain changes nothing: when every node has one and no node can be ignored, the rest of the list is only
  // checked for nodes outside the index (a pod's domains are counted for every pod, over hundreds of nodes).
  let unmarked = 0;
  let canSkipMarked = hasAllKeys === null;
  for (let i = 0; i < constraints.length; i++) {
    if (constraints[i]?.topologyKey !== LABEL_HOSTNAME) {
      const domains = (counters[i] as PodCounter).domains;
      unmarked += domains.size;
      canSkipMarked &&= domains.coversEveryNode;
    }
  }
  for (const node of feasible) {
    const position = index.positionOf(node);
    if (unmarked === 0 && canSkipMarked && position >= 0) {
      continue;
    }
    if (
      hasAllKeys !== null &&
      (position < 0 ? !hasAllTopologyKeys(node.labels, constraints) : (hasAllKeys[position] as number) < 0)
    ) {
      (ignoredNodes ??= new Set<string>()).add(node.name);
      continue;
    }
    for (let i = 0; i < constraints.length; i++) {
      const constraint = constraints[i] as SpreadConstraint;
      if (constraint.topologyKey === LABEL_HOSTNAME) {
        continue;
      }
      const domains = (counters[i] as PodCounter).domains;
      let domain = position < 0 ? -1 : (domains.domainOfNode[position] as number);
      if (domain < 0) {
        const value = labelValue(node.labels, constraint.topologyKey) ?? '';
        domain = domains.idOf(value);
        if (domain < 0) {
          (others[i] ??= new Set<string>()).add(value);
          continue;
        }
      }
      const marks = seen[i] as Uint8Array;
      if (marks[domain] === 0) {
        marks[domain] = 1;
        sizes[i] = (sizes[i] ?? 0) + 1;
        unmarked--;
      }
    }
  }
  const weights = constraints.map((constraint, i) => {
    const size =
      constraint.topologyKey === LABEL_HOSTNAME
        ? feasible.length - (ignoredNodes?.size ?? 0)
        : (sizes[i] ?? 0) + (others[i]?.size ?? 0);
    return topologyNormalizingWeight(size);
  });
  // Whether each node has each key, once per cluster and key (the index caches the rule), instead of a label
  // lookup per node, constraint and pod in Score.
  const keyPresence = constraints.map(
    (constraint) =>
      index.domains(`pts-has\u0000${constraint.topologyKey}`, (node) =>
        labelValue(node.labels, constraint.topologyKey) === undefined ? null : '',
      ).domainOfNode,
  );
  return { constraints, ignoredNodes: ignoredNodes ?? NO_NODES, counters, weights, index, keyPresence };
}

/**
 * Score: the weighted matching counts of the node's domains. The domain is read by the node's position when the
 * counter counts the node, by its label value otherwise (a node left out by an inclusion policy still reads the
 * count of its value's domain).
 */
export function scoreSpread(state: SpreadScoreState, node: NodeInfo): number {
  if (state.ignoredNodes.size > 0 && state.ignoredNodes.has(node.name)) {
    return 0;
  }
  const { constraints, counters, weights } = state;
  let score = 0;
  for (let i = 0; i < constraints.length; i++) {
    const constraint = constraints[i] as SpreadConstraint;
    const value = labelValue(node.labels, constraint.topologyKey);
    if (value === undefined) {
      continue;
    }
    const counter = counters[i] as PodCounter;
    let count: number;
    if (constraint.topologyKey === LABEL_HOSTNAME) {
      count = counter.countOnNode(node);
    } else {
      const counted = counter.countAt(counter.positionOf(node));
      count = counted >= 0 ? counted : counter.count(value);
    }
    score += scoreForCount(count, constraint.maxSkew, weights[i] as number);
  }
  return Math.round(score);
}

/**
 * scoreSpread over many nodes (scores[i] is nodes[i]'s), with the same arithmetic in the same order: a node of
 * the index reads whether it has each key and its counts by position; any other node goes through scoreSpread.
 */
export function scoreSpreadNodes(
  state: SpreadScoreState,
  nodes: readonly NodeInfo[],
  scores: Float64Array,
): void {
  const { constraints, counters, weights, index, keyPresence, ignoredNodes } = state;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as NodeInfo;
    const position = index.positionOf(node);
    if (position < 0 || (ignoredNodes.size > 0 && ignoredNodes.has(node.name))) {
      scores[i] = scoreSpread(state, node);
      continue;
    }
    let score = 0;
    for (let c = 0; c < constraints.length; c++) {
      if (((keyPresence[c] as Int32Array)[position] as number) < 0) {
        continue;
      }
      const constraint = constraints[c] as SpreadConstraint;
      const counter = counters[c] as PodCounter;
      let count: number;
      if (constraint.topologyKey === LABEL_HOSTNAME) {
        count = counter.perNode === null ? 0 : (counter.perNode[position] as number);
      } else {
        const domain = counter.domains.domainOfNode[position] as number;
        count =
          domain >= 0
            ? (counter.counts[domain] as number)
            : counter.count(labelValue(node.labels, constraint.topologyKey) ?? '');
      }
      score += scoreForCount(count, constraint.maxSkew, weights[c] as number);
    }
    scores[i] = Math.round(score);
  }
}

/** NormalizeScore: fewer matching pods is better; ignored nodes get 0. */
export function normalizeSpread(state: SpreadScoreState, scores: NodeScore[]): void {
  let minScore = Number.MAX_SAFE_INTEGER;
  let maxScore = 0;
  const hasIgnored = state.ignoredNodes.size > 0;
  for (const entry of scores) {
    if (hasIgnored && state.ignoredNodes.has(entry.name)) {
      continue;
    }
    minScore = Math.min(minScore, entry.score);
    maxScore = Math.max(maxScore, entry.score);
  }
  for (const entry of scores) {
    if (hasIgnored && state.ignoredNodes.has(entry.name)) {
      entry.score = 0;
    } else if (maxScore === 0) {
      entry.score = MAX_NODE_SCORE;
    } else {
      entry.score = Math.trunc((MAX_NODE_SCORE * (maxScore + minScore - entry.score)) / maxScore);
    }
  }
}

/** normalizeSpread over a score column (scores[i] is nodes[i]'s), with the same arithmetic. */
export function normalizeSpreadColumn(
  state: SpreadScoreState,
  nodes: readonly NodeInfo[],
  scores: Float64Array,
): void {
  const ignored = state.ignoredNodes;
  const isIgnored = (i: number): boolean => ignored.size > 0 && ignored.has((nodes[i] as NodeInfo).name);
  let minScore = Number.MAX_SAFE_INTEGER;
  let maxScore = 0;
  for (let i = 0; i < scores.length; i++) {
    if (isIgnored(i)) {
      continue;
    }
    minScore = Math.min(minScore, scores[i] as number);
    maxScore = Math.max(maxScore, scores[i] as number);
  }
  for (let i = 0; i < scores.length; i++) {
    if (isIgnored(i)) {
      scores[i] = 0;
    } else if (maxScore === 0) {
      scores[i] = MAX_NODE_SCORE;
    } else {
      scores[i] = Math.trunc((MAX_NODE_SCORE * (maxScore + minScore - (scores[i] as number))) / maxScore);
    }
  }
}

/** topologyNormalizingWeight: log(size + 2), so counts in small topologies weigh more. */
function topologyNormalizingWeight(size: number): number {
  return Math.log(size + 2);
}

/** scoreForCount: maxSkew - 1 is added so that differences within the allowed skew are watered down. */
function scoreForCount(count: number, maxSkew: number, weight: number): number {
  return count * weight + (maxSkew - 1);
}
