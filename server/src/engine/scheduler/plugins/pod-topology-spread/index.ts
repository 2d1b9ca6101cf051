/**
 * PodTopologySpread: spreads matching pods evenly over topology domains. Filter enforces DoNotSchedule
 * constraints (maxSkew, minDomains, node inclusion policies); Score prefers nodes whose domains hold fewer
 * matching pods for ScheduleAnyway constraints. A pod without constraints gets the profile's default constraints
 * (the system defaults: hostname maxSkew 3 and zone maxSkew 5, ScheduleAnyway) with a selector derived from the
 * Services and controller selecting it.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/podtopologyspread/plugin.go
 * See common.ts, filter.ts and score.ts for the phases, pod-classes.ts for the per-class constraints, and
 * helper/topology-counter.ts for how counts are kept.
 */
import type { NodeInfo } from '../../../model/snapshot/node-info';
import { listOf } from '../../../model/objects';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { SYSTEM_DEFAULT_CONSTRAINTS, readPodTopologySpreadArgs } from '../../config';
import { StateKey } from '../../framework/cycle-state';
import type { CycleState } from '../../framework/cycle-state';
import { PRE_FILTER_PASSED, preFilterSkipped } from '../../framework/plugin';
import type { PluginContext, PluginFactory } from '../../framework/plugin';
import { SUCCESS, errorStatus, skip, unresolvable, unschedulable } from '../../framework/status';
import type { Reason, Status } from '../../framework/status';
import { topologyIndexFor } from '../helper/topology-counter';
import { constraintCounter } from './common';
import type { NodeInclusion } from './common';
import { SpreadClasses } from './pod-classes';
import type { ConstraintsResult, SpreadDefaults, UnsatisfiableAction } from './common';
import { SpreadFilterState, checkSpread } from './filter';
import {
  buildSpreadScoreState,
  normalizeSpread,
  normalizeSpreadColumn,
  scoreSpread,
  scoreSpreadNodes,
} from './score';
import type { SpreadScoreState } from './score';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const POD_TOPOLOGY_SPREAD = PLUGIN_NAMES.PodTopologySpread;

/** ErrReasonConstraintsNotMatch: placing the pod on the node would exceed a constraint's maxSkew. */
export const REASON_CONSTRAINTS_NOT_MATCH: Reason = {
  code: 'PodTopologySpread/ConstraintsNotMatch',
  message: "node(s) didn't match pod topology spread constraints",
};

/** ErrReasonNodeLabelNotMatch: the node lacks a constraint's topology key. */
export const REASON_NODE_LABEL_NOT_MATCH: Reason = {
  code: 'PodTopologySpread/NodeLabelNotMatch',
  message: "node(s) didn't match pod topology spread constraints (missing required label)",
};

// Statuses are immutable: one object per outcome, not one per rejected node.
const MISSING_LABEL_STATUS = Object.freeze(unresolvable(POD_TOPOLOGY_SPREAD, REASON_NODE_LABEL_NOT_MATCH));
const SKEW_STATUS = Object.freeze(unschedulable(POD_TOPOLOGY_SPREAD, REASON_CONSTRAINTS_NOT_MATCH));

/** preFilterStateKey: null when the pod has no DoNotSchedule constraint (Filter then passes). */
const PRE_FILTER_KEY = new StateKey<SpreadFilterState | null>('PreFilterPodTopologySpread');
const PRE_SCORE_KEY = new StateKey<SpreadScoreState>('PreScorePodTopologySpread');

type FilterStateResult = { ok: true; state: SpreadFilterState | null } | { ok: false; status: Status };

/** Builds the PodTopologySpread plugin with the profile's PodTopologySpreadArgs. */
export const createPodTopologySpread: PluginFactory = (context: PluginContext) => {
  const parsed = readPodTopologySpreadArgs(context.args);
  for (const problem of parsed.problems) {
    context.reportArgsProblem(problem.message);
  }
  const systemDefaulted = parsed.args.defaultingType === 'System';
  const defaults: SpreadDefaults = {
    constraints: systemDefaulted ? SYSTEM_DEFAULT_CONSTRAINTS : parsed.args.defaultConstraints,
    systemDefaulted,
  };
  const cluster = context.handle.cluster;
  // A pod's constraints and node inclusion do not change while it is scheduled (PreFilter, PreScore, what-ifs),
  // and pods of one template share them.
  const classes = new SpreadClasses(defaults, cluster.objects);
  const inclusionOf = (pod: PodInfo): NodeInclusion => classes.inclusionOf(pod);
  const constraintsOf = (pod: PodInfo, action: UnsatisfiableAction): ConstraintsResult =>
    classes.constraintsOf(pod, action);

  const buildFilterState = (pod: PodInfo, nodes: readonly NodeInfo[]): FilterStateResult => {
    const built = constraintsOf(pod, 'DoNotSchedule');
    if (!built.ok) {
      const message = `obtaining pod's hard topology spread constraints: ${built.message}`;
      return { ok: false, status: errorStatus(POD_TOPOLOGY_SPREAD, message) };
    }
    const constraints = built.constraints;
    if (constraints.length === 0) {
      return { ok: true, state: null };
    }
    const index = topologyIndexFor(cluster, nodes);
    const inclusion = inclusionOf(pod);
    const counters = constraints.map((constraint) =>
      constraintCounter(index, pod, constraints, constraint, inclusion, true),
    );
    const selfMatches = constraints.map((constraint) => (constraint.selector.matches(pod.labels) ? 1 : 0));
    return {
      ok: true,
      state: new SpreadFilterState(index, constraints, counters, selfMatches, pod.namespace, inclusion),
    };
  };

  /** The PreFilter state, recomputed when missing (the framework may call filter alone). */
  const readFilterState = (state: CycleState, pod: PodInfo): FilterStateResult => {
    const stored = state.read(PRE_FILTER_KEY);
    return stored === undefined ? buildFilterState(pod, cluster.nodes) : { ok: true, state: stored };
  };

  return {
    name: POD_TOPOLOGY_SPREAD,
    preFilter(state, pod, nodes) {
      const result = buildFilterState(pod, nodes);
      if (!result.ok) {
        return { status: result.status, nodeNames: null };
      }
      if (result.state === null) {
        return preFilterSkipped(POD_TOPOLOGY_SPREAD);
      }
      state.write(PRE_FILTER_KEY, result.state);
      return PRE_FILTER_PASSED;
    },
    preFilterExtensions: {
      addPod(state, _podToSchedule, podToAdd, node) {
        const stored = state.read(PRE_FILTER_KEY);
        stored?.update(podToAdd, node, 1);
        return SUCCESS;
      },
      removePod(state, _podToSchedule, podToRemove, node) {
        const stored = state.read(PRE_FILTER_KEY);
        stored?.update(podToRemove, node, -1);
        return SUCCESS;
      },
    },
    filter(state, pod, node) {
      const stored = readFilterState(state, pod);
      return stored.ok ? spreadStatus(stored.state, node) : stored.status;
    },
    filterNodes(state, pod, nodes, statuses) {
      const stored = readFilterState(state, pod);
      for (let i = 0; i < nodes.length; i++) {
        statuses[i] = stored.ok ? spreadStatus(stored.state, nodes[i] as NodeInfo) : stored.status;
      }
    },
    preScore(state, pod, feasible) {
      if (cluster.nodes.length === 0) {
        return skip(POD_TOPOLOGY_SPREAD);
      }
      const built = constraintsOf(pod, 'ScheduleAnyway');
      if (!built.ok) {
        return errorStatus(POD_TOPOLOGY_SPREAD, `calculating preScoreState: ${built.message}`);
      }
      if (built.constraints.length === 0) {
        return skip(POD_TOPOLOGY_SPREAD);
      }
      // Only non-default constraints require nodes to carry every topology key (so that nodes without a zone
      // label still get hostname spreading from the system defaults).
      const ownConstraints = listOf(pod.pod.spec?.topologySpreadConstraints).length > 0;
      const requireAllKeys = ownConstraints || !defaults.systemDefaulted;
      const index = topologyIndexFor(cluster, cluster.nodes);
      const inclusion = inclusionOf(pod);
      state.write(
        PRE_SCORE_KEY,
        buildSpreadScoreState(index, pod, feasible, built.constraints, inclusion, requireAllKeys),
      );
      return SUCCESS;
    },
    score(state, _pod, node) {
      const stored = state.read(PRE_SCORE_KEY);
      return stored === undefined ? 0 : scoreSpread(stored, node);
    },
    scoreNodes(state, _pod, nodes, scores) {
      const stored = state.read(PRE_SCORE_KEY);
      if (stored === undefined) {
        scores.fill(0);
      } else {
        scoreSpreadNodes(stored, nodes, scores);
      }
    },
    normalizeScore(state, _pod, scores) {
      const stored = state.read(PRE_SCORE_KEY);
      if (stored !== undefined) {
        normalizeSpread(stored, scores);
      }
      return SUCCESS;
    },
    normalizeScoreColumn(state, _pod, nodes, scores) {
      const stored = state.read(PRE_SCORE_KEY);
      if (stored !== undefined) {
        normalizeSpreadColumn(stored, nodes, scores);
      }
      return SUCCESS;
    },
  };
};

/** Filter's status on one node for a built state (null: no DoNotSchedule constraint, every node passes). */
function spreadStatus(stored: SpreadFilterState | null, node: NodeInfo): Status {
  if (stored === null) {
    return SUCCESS;
  }
  switch (checkSpread(stored, node)) {
    case 'fits':
      return SUCCESS;
    case 'missing-label':
      return MISSING_LABEL_STATUS;
    case 'skew':
      return SKEW_STATUS;
  }
}
