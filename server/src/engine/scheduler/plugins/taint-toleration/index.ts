/**
 * TaintToleration: Filter rejects a node with a NoSchedule or NoExecute taint the pod does not tolerate; Score
 * counts the PreferNoSchedule taints the pod does not tolerate, normalised reversed (fewer is better).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go
 *
 * Wording by version. 1.33 and 1.34.0 name the first untolerated taint: "node(s) had untolerated taint {key:
 * value}" (fmt "{%s: %s}", so an empty value leaves "{key: }"). kubernetes/kubernetes#134740 (1.35) replaced it with
 * the generic "node(s) had untolerated taint(s)" so that taints do not leak into pod statuses; that change was
 * also cherry-picked into a later 1.34 patch release (#135023). The engine takes minors only, so "1.34" follows
 * the 1.34.0 wording; "1.35" the new one.
 */
import { listOf } from '../../../model/objects';
import type { TaintObject, TolerationObject } from '../../../model/objects';
import {
  findMatchingUntoleratedTaint,
  isDoNotScheduleTaint,
  tolerationsTolerateTaint,
} from '../../../model/taints';
import { isAtLeast } from '../../../version';
import type { KubernetesMinor } from '../../../version';
import { StateKey } from '../../framework/cycle-state';
import type { CycleState } from '../../framework/cycle-state';
import { MAX_NODE_SCORE } from '../../framework/plugin';
import type { PluginFactory } from '../../framework/plugin';
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { SUCCESS, unresolvable } from '../../framework/status';
import type { Reason, Status } from '../../framework/status';
import { defaultNormalizeColumn, defaultNormalizeScore } from '../helper/normalize-score';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const TAINT_TOLERATION = PLUGIN_NAMES.TaintToleration;

/** Reason code of an untolerated taint (both wordings). */
export const UNTOLERATED_TAINT_CODE = 'TaintToleration/UntoleratedTaint';

/** The reason for an untolerated NoSchedule/NoExecute taint, worded as the given version words it. */
export function untoleratedTaintReason(version: KubernetesMinor, taint: TaintObject): Reason {
  if (isAtLeast(version, '1.35')) {
    return { code: UNTOLERATED_TAINT_CODE, message: 'node(s) had untolerated taint(s)' };
  }
  return {
    code: UNTOLERATED_TAINT_CODE,
    message: `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`,
  };
}

/** Tolerations that can tolerate PreferNoSchedule taints (effect PreferNoSchedule or empty), per cycle. */
const PRE_SCORE_KEY = new StateKey<readonly TolerationObject[]>('PreScoreTaintToleration');

/** Builds the TaintToleration plugin for a version. */
export const createTaintToleration: PluginFactory = (context) => ({
  name: TAINT_TOLERATION,
  filter(_state, pod, node) {
    return filterTaints(context.version, pod, node);
  },
  filterNodes(_state, pod, nodes, statuses) {
    for (let i = 0; i < nodes.length; i++) {
      statuses[i] = filterTaints(context.version, pod, nodes[i] as NodeInfo);
    }
  },
  // No node with a NoSchedule or NoExecute taint: filterTaints passes on every node (it returns at once).
  filterPassesEveryNode() {
    return !context.handle.cluster.nodeSpecs.hasDoNotScheduleTaint;
  },
  preScore(state, pod) {
    state.write(PRE_SCORE_KEY, preferNoScheduleTolerations(pod));
    return SUCCESS;
  },
  score(state, pod, node) {
    return countIntolerableTaints(node, readTolerations(state, pod));
  },
  scoreNodes(state, pod, nodes, scores) {
    const tolerations = readTolerations(state, pod);
    for (let i = 0; i < nodes.length; i++) {
      scores[i] = countIntolerableTaints(nodes[i] as NodeInfo, tolerations);
    }
  },
  // No node with a PreferNoSchedule taint: every count is 0, which the reversed normalisation makes the maximum.
  uniformScore() {
    return context.handle.cluster.nodeSpecs.hasPreferNoScheduleTaint ? null : MAX_NODE_SCORE;
  },
  normalizeScore(_state, _pod, scores) {
    return defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
  },
  normalizeScoreColumn(_state, _pod, _nodes, scores) {
    return defaultNormalizeColumn(MAX_NODE_SCORE, true, scores);
  },
});

function filterTaints(version: KubernetesMinor, pod: PodInfo, node: NodeInfo): Status {
  if (node.taints.length === 0) {
    return SUCCESS;
  }
  const taint = findMatchingUntoleratedTaint(
    node.taints,
    listOf(pod.pod.spec?.tolerations),
    isDoNotScheduleTaint,
  );
  return taint === undefined
    ? SUCCESS
    : unresolvable(TAINT_TOLERATION, untoleratedTaintReason(version, taint));
}

/** The node's PreferNoSchedule taints that no toleration tolerates (countIntolerableTaintsPreferNoSchedule). */
function countIntolerableTaints(node: NodeInfo, tolerations: readonly TolerationObject[]): number {
  if (node.taints.length === 0) {
    return 0;
  }
  let count = 0;
  for (const taint of node.taints) {
    if (taint.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(tolerations, taint)) {
      count++;
    }
  }
  return count;
}

function readTolerations(state: CycleState, pod: PodInfo): readonly TolerationObject[] {
  return state.read(PRE_SCORE_KEY) ?? preferNoScheduleTolerations(pod);
}

/** getAllTolerationPreferNoSchedule: an empty effect means every effect, PreferNoSchedule included. */
function preferNoScheduleTolerations(pod: PodInfo): readonly TolerationObject[] {
  return listOf(pod.pod.spec?.tolerations).filter(
    (toleration) => (toleration.effect ?? '') === '' || toleration.effect === 'PreferNoSchedule',
  );
}
