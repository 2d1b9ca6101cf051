/**
 * InterPodAffinity: required pod affinity and anti-affinity as a filter (the incoming pod's terms, and the
 * required anti-affinity of the pods already placed), preferred terms (both sides) and placed pods' required
 * affinity (hardPodAffinityWeight) as a score.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/interpodaffinity/plugin.go
 * See terms.ts (parsing and matching), filter.ts, score.ts, existing-terms.ts (placed pods' terms) and
 * helper/topology-counter.ts (how placed pods matching the incoming pod's terms are counted).
 */
import type { Labels } from '../../../model/label-selector';
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { readInterPodAffinityArgs } from '../../config';
import { StateKey } from '../../framework/cycle-state';
import type { CycleState } from '../../framework/cycle-state';
import { PRE_FILTER_PASSED, preFilterSkipped } from '../../framework/plugin';
import type { PluginContext, PluginFactory } from '../../framework/plugin';
import { SUCCESS, errorStatus, skip, unresolvable, unschedulable } from '../../framework/status';
import type { Reason, Status } from '../../framework/status';
import { anchorOf, topologyIndexFor } from '../helper/topology-counter';
import type { PodCounter, TopologyIndex } from '../helper/topology-counter';
import { existingTermsFor } from './existing-terms';
import { AffinityFilterState, keyDomains } from './filter';
import { buildAffinityScoreState, normalizeAffinity, scoreAffinity } from './score';
import type { AffinityScoreState } from './score';
import { affinityTermsOf, namespaceLabelsOf, termMatches } from './terms';
import type { AffinityTerm } from './terms';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const INTER_POD_AFFINITY = PLUGIN_NAMES.InterPodAffinity;

/** ErrReasonAffinityRulesNotMatch: no pod matching the required affinity terms in the node's domains. */
export const REASON_AFFINITY_RULES_NOT_MATCH: Reason = {
  code: 'InterPodAffinity/AffinityRulesNotMatch',
  message: "node(s) didn't match pod affinity rules",
};

/** ErrReasonAntiAffinityRulesNotMatch: a pod matching a required anti-affinity term is in the node's domain. */
export const REASON_ANTI_AFFINITY_RULES_NOT_MATCH: Reason = {
  code: 'InterPodAffinity/AntiAffinityRulesNotMatch',
  message: "node(s) didn't match pod anti-affinity rules",
};

/** ErrReasonExistingAntiAffinityRulesNotMatch: a placed pod's required anti-affinity covers the node. */
export const REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH: Reason = {
  code: 'InterPodAffinity/ExistingAntiAffinityRulesNotMatch',
  message: "node(s) didn't satisfy existing pods anti-affinity rules",
};

/** The pod's terms do not parse (a malformed selector the API server would have refused). */
function parsePodReason(detail: string): Reason {
  return { code: 'InterPodAffinity/ParsePod', message: `parsing pod: ${detail}` };
}

// Statuses are immutable: one object per outcome, not one per rejected node.
const AFFINITY_STATUS = Object.freeze(unresolvable(INTER_POD_AFFINITY, REASON_AFFINITY_RULES_NOT_MATCH));
const ANTI_AFFINITY_STATUS = Object.freeze(
  unschedulable(INTER_POD_AFFINITY, REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
);
const EXISTING_ANTI_AFFINITY_STATUS = Object.freeze(
  unschedulable(INTER_POD_AFFINITY, REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH),
);

const PRE_FILTER_KEY = new StateKey<AffinityFilterState | null>('PreFilterInterPodAffinity');
const PRE_SCORE_KEY = new StateKey<AffinityScoreState>('PreScoreInterPodAffinity');

type FilterStateResult = { ok: true; state: AffinityFilterState | null } | { ok: false; status: Status };

/** Builds the InterPodAffinity plugin with the profile's InterPodAffinityArgs. */
export const createInterPodAffinity: PluginFactory = (context: PluginContext) => {
  const parsed = readInterPodAffinityArgs(context.args);
  for (const problem of parsed.problems) {
    context.reportArgsProblem(problem.message);
  }
  const args = parsed.args;
  const cluster = context.handle.cluster;
  const namespaceLabels = new Map<string, Labels>();
  const labelsOf = (namespace: string): Labels => {
    let labels = namespaceLabels.get(namespace);
    if (labels === undefined) {
      labels = namespaceLabelsOf(cluster, namespace);
      namespaceLabels.set(namespace, labels);
    }
    return labels;
  };

  const buildFilterState = (pod: PodInfo, nodes: readonly NodeInfo[]): FilterStateResult => {
    const terms = affinityTermsOf(pod);
    if (terms.parseError !== null) {
      return { ok: false, status: unresolvable(INTER_POD_AFFINITY, parsePodReason(terms.parseError)) };
    }
    const ownLabels = labelsOf(pod.namespace);
    const existing = existingTermsFor(cluster, nodes).matching('requiredAntiAffinity', pod, ownLabels);
    if (
      terms.requiredAffinity.length === 0 &&
      terms.requiredAntiAffinity.length === 0 &&
      existing.every((group) => group.total === 0)
    ) {
      // Nothing to check (AffinityFilterState.isEmpty), known before counting anything: PreFilter skips.
      return { ok: true, state: null };
    }
    const index = topologyIndexFor(cluster, nodes);
    const all = terms.requiredAffinity;
    const allKey = all.map((term) => term.key).join('\u0001');
    const matchesAll = (other: PodInfo): boolean =>
      all.every((term) => termMatches(term, other, labelsOf(other.namespace)));
    const affinity = all.map((term) =>
      termCounter(index, term, `ipa-all\u0000${allKey}`, matchesAll, all[0]),
    );
    const anti = terms.requiredAntiAffinity.map((term) =>
      termCounter(index, term, 'ipa-term', (other) => termMatches(term, other, labelsOf(other.namespace))),
    );
    const matchesOwn = all.length > 0 && all.every((term) => termMatches(term, pod, ownLabels));
    const state = new AffinityFilterState(
      index,
      pod,
      terms,
      ownLabels,
      matchesOwn,
      existing,
      affinity,
      anti,
      labelsOf,
    );
    return { ok: true, state: state.isEmpty ? null : state };
  };

  /** The PreFilter state, recomputed when missing (the framework may call filter alone). */
  const readFilterState = (state: CycleState, pod: PodInfo): FilterStateResult => {
    const stored = state.read(PRE_FILTER_KEY);
    return stored === undefined ? buildFilterState(pod, cluster.nodes) : { ok: true, state: stored };
  };

  return {
    name: INTER_POD_AFFINITY,
    preFilter(state, pod, nodes) {
      const result = buildFilterState(pod, nodes);
      if (!result.ok) {
        return { status: result.status, nodeNames: null };
      }
      if (result.state === null) {
        return preFilterSkipped(INTER_POD_AFFINITY);
      }
      state.write(PRE_FILTER_KEY, result.state);
      return PRE_FILTER_PASSED;
    },
    preFilterExtensions: {
      addPod(state, _podToSchedule, podToAdd, node) {
        state.read(PRE_FILTER_KEY)?.update(podToAdd, node, 1);
        return SUCCESS;
      },
      removePod(state, _podToSchedule, podToRemove, node) {
        state.read(PRE_FILTER_KEY)?.update(podToRemove, node, -1);
        return SUCCESS;
      },
    },
    filter(state, pod, node) {
      const stored = readFilterState(state, pod);
      return stored.ok ? affinityStatus(stored.state, node) : stored.status;
    },
    filterNodes(state, pod, nodes, statuses) {
      const stored = readFilterState(state, pod);
      for (let i = 0; i < nodes.length; i++) {
        statuses[i] = stored.ok ? affinityStatus(stored.state, nodes[i] as NodeInfo) : stored.status;
      }
    },
    preScore(state, pod) {
      const terms = affinityTermsOf(pod);
      if (terms.parseError !== null) {
        return errorStatus(INTER_POD_AFFINITY, `failed to parse pod: ${terms.parseError}`);
      }
      const hasPreferred = terms.preferredAffinity.length > 0 || terms.preferredAntiAffinity.length > 0;
      if (args.ignorePreferredTermsOfExistingPods && !hasPreferred) {
        return skip(INTER_POD_AFFINITY);
      }
      const index = topologyIndexFor(cluster, cluster.nodes);
      const built = buildAffinityScoreState({
        pod,
        terms,
        namespaceLabels: labelsOf(pod.namespace),
        hardPodAffinityWeight: args.hardPodAffinityWeight,
        counterFor: (term) =>
          termCounter(index, term, 'ipa-term', (other) =>
            termMatches(term, other, labelsOf(other.namespace)),
          ),
        existing: existingTermsFor(cluster, cluster.nodes),
      });
      if (built === null) {
        return skip(INTER_POD_AFFINITY);
      }
      state.write(PRE_SCORE_KEY, built);
      return SUCCESS;
    },
    score(state, _pod, node) {
      const stored = state.read(PRE_SCORE_KEY);
      return stored === undefined ? 0 : scoreAffinity(stored, node);
    },
    scoreNodes(state, _pod, nodes, scores) {
      const stored = state.read(PRE_SCORE_KEY);
      for (let i = 0; i < nodes.length; i++) {
        scores[i] = stored === undefined ? 0 : scoreAffinity(stored, nodes[i] as NodeInfo);
      }
    },
    normalizeScore(state, _pod, scores) {
      if (state.read(PRE_SCORE_KEY) !== undefined) {
        normalizeAffinity(scores);
      }
      return SUCCESS;
    },
  };
};

/** Filter's status on one node for a built state (null: nothing to check, every node passes). */
function affinityStatus(stored: AffinityFilterState | null, node: NodeInfo): Status {
  switch (stored?.check(node) ?? 'fits') {
    case 'fits':
      return SUCCESS;
    case 'affinity':
      return AFFINITY_STATUS;
    case 'anti-affinity':
      return ANTI_AFFINITY_STATUS;
    case 'existing-anti-affinity':
      return EXISTING_ANTI_AFFINITY_STATUS;
  }
}

/**
 * Placed pods matching a predicate of one of the incoming pod's terms, per value of the term's topology key;
 * `scope` and the term's key determine the predicate (cache key).
 */
function termCounter(
  index: TopologyIndex,
  term: AffinityTerm,
  scope: string,
  matches: (pod: PodInfo) => boolean,
  anchorTerm: AffinityTerm = term,
): PodCounter {
  const domains = keyDomains(index, term.topologyKey);
  return index.counter(`${scope}\u0000${term.key}\u0000${term.topologyKey}`, domains, matches, {
    anchor: anchorOf(anchorTerm.selector),
  });
}
