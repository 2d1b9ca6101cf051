/**
 * NodeAffinity: Filter checks the pod's nodeSelector and required node affinity (and the profile's
 * addedAffinity); PreFilter narrows the search to the nodes named by matchFields metadata.name In; Score sums
 * the weights of the preferred terms a node matches, normalised so the best node gets 100.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go
 */
import {
  PreferredSchedulingTerms,
  RequiredNodeAffinity,
  OBJECT_NAME_FIELD,
} from '../../../model/node-selector';
import { listOf } from '../../../model/objects';
import type { NodeSelectorObject, PreferredSchedulingTermObject } from '../../../model/objects';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { StateKey } from '../../framework/cycle-state';
import type { CycleState } from '../../framework/cycle-state';
import { MAX_NODE_SCORE, PRE_FILTER_PASSED, preFilterSkipped } from '../../framework/plugin';
import type { PluginContext, PluginFactory, PreFilterResult } from '../../framework/plugin';
import { SUCCESS, skip, unresolvable } from '../../framework/status';
import type { Reason } from '../../framework/status';
import { defaultNormalizeColumn, defaultNormalizeScore } from '../helper/normalize-score';
import { readNodeAffinityArgs } from './args';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const NODE_AFFINITY = PLUGIN_NAMES.NodeAffinity;

/** ErrReasonPod: the pod's nodeSelector or required node affinity does not match. */
export const REASON_NODE_AFFINITY_MISMATCH: Reason = {
  code: 'NodeAffinity/NodeAffinityMismatch',
  message: "node(s) didn't match Pod's node affinity/selector",
};

/** errReasonEnforced: the profile's addedAffinity does not match. */
export const REASON_ENFORCED_AFFINITY_MISMATCH: Reason = {
  code: 'NodeAffinity/EnforcedAffinityMismatch',
  message: "node(s) didn't match scheduler-enforced node affinity",
};

/** errReasonConflict: every required term names nodes by metadata.name and no name is common to a term. */
export const REASON_AFFINITY_TERMS_CONFLICT: Reason = {
  code: 'NodeAffinity/AffinityTermsConflict',
  message: 'pod affinity terms conflict',
};

const PRE_FILTER_KEY = new StateKey<RequiredNodeAffinity>('PreFilterNodeAffinity');
const PRE_SCORE_KEY = new StateKey<PreferredSchedulingTerms | null>('PreScoreNodeAffinity');

/** Builds the NodeAffinity plugin, with the profile's NodeAffinityArgs (addedAffinity) if any. */
export const createNodeAffinity: PluginFactory = (context: PluginContext) => {
  const args = readNodeAffinityArgs(context.args, (message) => context.reportArgsProblem(message));
  const added = args.addedAffinity;
  const addedSelector = added?.requiredDuringSchedulingIgnoredDuringExecution;
  const addedRequired =
    addedSelector !== undefined
      ? new RequiredNodeAffinity({
          affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: addedSelector } },
        })
      : null;
  const addedTerms = listOf(added?.preferredDuringSchedulingIgnoredDuringExecution);
  const addedPreferred = addedTerms.length > 0 ? new PreferredSchedulingTerms(addedTerms) : null;
  return {
    name: NODE_AFFINITY,
    preFilter(state, pod) {
      const spec = pod.pod.spec ?? {};
      const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
      if (required === undefined && addedRequired === null && spec.nodeSelector === undefined) {
        return preFilterSkipped(NODE_AFFINITY);
      }
      state.write(PRE_FILTER_KEY, new RequiredNodeAffinity(spec));
      return required === undefined ? PRE_FILTER_PASSED : nodesNamedByTerms(required);
    },
    filter(state, pod, node) {
      if (addedRequired !== null && !addedRequired.matches(node)) {
        return unresolvable(NODE_AFFINITY, REASON_ENFORCED_AFFINITY_MISMATCH);
      }
      const required = state.read(PRE_FILTER_KEY) ?? new RequiredNodeAffinity(pod.pod.spec ?? {});
      return required.matches(node) ? SUCCESS : unresolvable(NODE_AFFINITY, REASON_NODE_AFFINITY_MISMATCH);
    },
    preScore(state, pod) {
      const preferred = podPreferred(pod);
      if (preferred === null && addedPreferred === null) {
        return skip(NODE_AFFINITY);
      }
      state.write(PRE_SCORE_KEY, preferred);
      return SUCCESS;
    },
    score(state, pod, node) {
      let count = addedPreferred?.score(node) ?? 0;
      count += readPreferred(state, pod)?.score(node) ?? 0;
      return count;
    },
    normalizeScore(_state, _pod, scores) {
      return defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
    },
    normalizeScoreColumn(_state, _pod, _nodes, scores) {
      return defaultNormalizeColumn(MAX_NODE_SCORE, false, scores);
    },
  };
};

/**
 * The PreFilterResult of required terms: when every term names nodes with matchFields metadata.name In (terms
 * ORed: union; requirements ANDed: intersection), only those nodes are filtered; an empty union is a conflict.
 */
function nodesNamedByTerms(required: NodeSelectorObject): PreFilterResult {
  const terms = listOf(required.nodeSelectorTerms);
  if (terms.length === 0) {
    return PRE_FILTER_PASSED;
  }
  let union: Set<string> | null = null;
  for (const term of terms) {
    let named: Set<string> | null = null;
    for (const field of listOf(term.matchFields)) {
      if (field.key === OBJECT_NAME_FIELD && field.operator === 'In') {
        named = intersectNames(named, new Set(listOf(field.values).map(String)));
      }
    }
    if (named === null) {
      return PRE_FILTER_PASSED;
    }
    const merged: Set<string> = union ?? new Set<string>();
    for (const name of named) {
      merged.add(name);
    }
    union = merged;
  }
  if (union !== null && union.size === 0) {
    return { status: unresolvable(NODE_AFFINITY, REASON_AFFINITY_TERMS_CONFLICT), nodeNames: null };
  }
  return { status: SUCCESS, nodeNames: union };
}

function intersectNames(current: ReadonlySet<string> | null, values: Set<string>): Set<string> {
  if (current === null) {
    return values;
  }
  const result = new Set<string>();
  for (const name of current) {
    if (values.has(name)) {
      result.add(name);
    }
  }
  return result;
}

function podPreferred(pod: PodInfo): PreferredSchedulingTerms | null {
  return preferredOrNull(
    pod.pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
  );
}

/** Upstream keeps an (empty) term list whenever the field is set; only an absent field skips scoring. */
function preferredOrNull(
  terms: readonly PreferredSchedulingTermObject[] | undefined,
): PreferredSchedulingTerms | null {
  return terms === undefined || terms === null ? null : new PreferredSchedulingTerms(listOf(terms));
}

function readPreferred(state: CycleState, pod: PodInfo): PreferredSchedulingTerms | null {
  const stored = state.read(PRE_SCORE_KEY);
  return stored !== undefined ? stored : podPreferred(pod);
}
