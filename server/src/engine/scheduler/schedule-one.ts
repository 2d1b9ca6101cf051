/**
 * One scheduling cycle for one pod, as schedulePod / findNodesThatFitPod / prioritizeNodes / selectHost in
 * pkg/scheduler/schedule_one.go:
 *   PreFilter → Filter nodes from a rotating start index until enough feasible nodes are found
 *   (percentageOfNodesToScore) → PreScore/Score/Normalize → pick the highest total.
 * Differences, on purpose: filters run sequentially (upstream runs them in parallel and may check a few more
 * nodes before stopping), and ties are broken by cluster node order instead of at random (every tied node is
 * reported). Nominated pods of other preemptors are not modelled (preemption completes at once here).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/schedule_one.go
 */
import type { NodeInfo } from '../model/snapshot/node-info';
import type { PodInfo } from '../model/snapshot/pod-info';
import type { CycleState } from './framework/cycle-state';
import type { Diagnosis, FitError } from './framework/fit-error';
import type { SchedulerFramework } from './framework/framework';
import { NodeStatuses } from './framework/node-statuses';
import { SUCCESS, isRejected, isSuccess, newStatus, statusMessage } from './framework/status';
import type { Status } from './framework/status';
import type { RecordDetail, ScoreTable } from './record';

/** minFeasibleNodesToFind: below this many nodes, every node is checked. */
const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** minFeasibleNodesPercentageToFind: the adaptive percentage never drops below this. */
const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/** Reason code of the status given to nodes a PreFilterResult left out. */
const PREFILTER_NARROWED_REASON_CODE = 'Framework/PreFilterResultExcluded';

/**
 * How many feasible nodes to find before scoring (numFeasibleNodesToFind): all nodes below 100; otherwise
 * the percentage (adaptive when 0: 50 - nodes/125, at least 5) of the nodes, at least 100.
 */
export function numFeasibleNodesToFind(
  percentageOfNodesToScore: number | undefined,
  numAllNodes: number,
): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) {
    return numAllNodes;
  }
  let percentage = percentageOfNodesToScore ?? 0;
  if (percentage === 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) {
      percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
    }
  }
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  return numNodes < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : numNodes;
}

/** The result of one cycle. */
export interface CycleResult {
  readonly nodeName: string | null;
  readonly tiedNodes: readonly string[];
  readonly evaluatedNodes: number;
  readonly feasibleNodes: number;
  readonly filterStatuses: ReadonlyMap<string, Status>;
  readonly scores: ScoreTable | null;
  readonly fitError: FitError | null;
  readonly error: Status | null;
  /** The cycle state, for PostFilter. */
  readonly state: CycleState;
}

/** The mutable search position shared by all cycles (sched.nextStartNodeIndex). */
export interface SearchCursor {
  nextStartNodeIndex: number;
}

/** Runs one scheduling cycle; does not bind. `nominatedNodeName` is tried first when set. */
export function runSchedulingCycle(
  framework: SchedulerFramework,
  pod: PodInfo,
  cursor: SearchCursor,
  detail: RecordDetail,
  nominatedNodeName: string | null,
): CycleResult {
  const allNodes = framework.cluster.nodes;
  const state = framework.newCycleState();
  const statuses = new NodeStatuses();
  const unschedulablePlugins = new Set<string>();
  const fail = (diagnosis: Partial<Diagnosis>, evaluated: number): CycleResult => ({
    nodeName: null,
    tiedNodes: [],
    evaluatedNodes: evaluated,
    feasibleNodes: 0,
    filterStatuses: statuses,
    scores: null,
    fitError: {
      numAllNodes: allNodes.length,
      diagnosis: {
        nodeStatuses: statuses,
        absentNodesStatus: null,
        unschedulablePlugins,
        preFilterMessage: '',
        postFilterMessage: '',
        ...diagnosis,
      },
    },
    error: null,
    state,
  });
  const errorResult = (status: Status, evaluated: number): CycleResult => ({
    ...fail({}, evaluated),
    fitError: null,
    error: status,
  });

  const preFilter = framework.runPreFilterPlugins(state, pod);
  for (const name of preFilter.pluginsWithNodes) {
    unschedulablePlugins.add(name);
  }
  if (!isSuccess(preFilter.status)) {
    if (!isRejected(preFilter.status)) {
      return errorResult(preFilter.status, 0);
    }
    if (preFilter.status.plugin !== '') {
      unschedulablePlugins.add(preFilter.status.plugin);
    }
    const message = statusMessage(preFilter.status);
    return fail({ absentNodesStatus: preFilter.status, preFilterMessage: message }, 0);
  }

  // The node a previous preemption nominated is tried first (evaluateNominatedNode).
  if (nominatedNodeName !== null) {
    const nominated = framework.cluster.getNode(nominatedNodeName);
    if (nominated !== undefined && isSuccess(framework.runFilterPlugins(state, pod, nominated))) {
      return place(framework, state, pod, [nominated], statuses, detail, 1);
    }
  }

  let nodes: readonly NodeInfo[] = allNodes;
  let absentNodesStatus: Status | null = null;
  if (preFilter.nodeNames !== null) {
    const names = preFilter.nodeNames;
    nodes = allNodes.filter((node) => names.has(node.name));
    absentNodesStatus = newStatus('UnschedulableAndUnresolvable', '', {
      code: PREFILTER_NARROWED_REASON_CODE,
      message: `node(s) didn't satisfy plugin(s) [${preFilter.pluginsWithNodes.join(' ')}]`,
    });
  }

  let feasible: NodeInfo[] = [];
  let rejected = 0;
  const numNodes = nodes.length;
  if (numNodes > 0) {
    const numToFind = framework.hasScorePlugins
      ? numFeasibleNodesToFind(framework.percentageOfNodesToScore, numNodes)
      : 1;
    const start = cursor.nextStartNodeIndex;
    const isFull = detail === 'full';
    // Nodes are filtered in chunks no larger than the number still to find, so the search stops at exactly
    // the node where a node-by-node search would stop; within a chunk the framework runs plugin by plugin.
    let visited = 0;
    let lastRejector: string | null = null;
    while (visited < numNodes && feasible.length < numToFind) {
      const size = Math.min(numToFind - feasible.length, numNodes - visited);
      const from = (start + visited) % numNodes;
      const run = framework.runFilterPluginsOnNodes(state, pod, nodes, from, size);
      const passed = run.passed;
      if (passed.length === size) {
        // Every node passed (the usual chunk): no status to read. A first chunk that ends the search is used as
        // it is: the framework's scratch list stays intact until its next filter run, and nothing of this cycle
        // filters a chunk again nor keeps the list. Any other first chunk is copied at its final size (a list
        // grown one push at a time to hundreds of nodes leaves several times its size as garbage).
        if (feasible.length === 0) {
          feasible = size === numToFind ? (passed as NodeInfo[]) : passed.slice();
        } else {
          for (let j = 0; j < size; j++) {
            feasible.push(passed[j] as NodeInfo);
          }
        }
        if (isFull) {
          for (let j = 0; j < size; j++) {
            statuses.set((passed[j] as NodeInfo).name, SUCCESS);
          }
        }
        visited += size;
        continue;
      }
      let index = from;
      for (let j = 0; j < size; j++) {
        const node = nodes[index] as NodeInfo;
        index = index + 1 === numNodes ? 0 : index + 1;
        const status = run.statuses[j] as Status;
        if (status === SUCCESS || status.code === 'Success') {
          feasible.push(node);
          if (isFull) {
            statuses.set(node.name, SUCCESS);
          }
        } else if (status.code === 'Error') {
          const evaluated = visited + j + 1;
          cursor.nextStartNodeIndex = (start + evaluated) % allNodes.length;
          return errorResult(status, evaluated);
        } else {
          statuses.set(node.name, status);
          rejected++;
          if (status.plugin !== lastRejector) {
            unschedulablePlugins.add(status.plugin);
            lastRejector = status.plugin;
          }
        }
      }
      visited += size;
    }
  }
  const processed = feasible.length + rejected;
  if (allNodes.length > 0) {
    cursor.nextStartNodeIndex = (cursor.nextStartNodeIndex + processed) % allNodes.length;
  }
  if (feasible.length === 0) {
    return fail({ absentNodesStatus }, processed);
  }
  return place(framework, state, pod, feasible, statuses, detail, processed);
}

function place(
  framework: SchedulerFramework,
  state: CycleState,
  pod: PodInfo,
  feasible: readonly NodeInfo[],
  statuses: ReadonlyMap<string, Status>,
  detail: RecordDetail,
  evaluated: number,
): CycleResult {
  const result = (nodeName: string | null, tiedNodes: readonly string[], scores: ScoreTable | null) => ({
    nodeName,
    tiedNodes,
    evaluatedNodes: evaluated,
    feasibleNodes: feasible.length,
    filterStatuses: statuses,
    scores,
    fitError: null,
    error: null,
    state,
  });
  const failed = (error: Status): CycleResult => ({ ...result(null, [], null), error });
  if (feasible.length === 1) {
    const only = feasible[0] as NodeInfo;
    return result(only.name, [only.name], null);
  }
  if (framework.hasScorePlugins) {
    const preScore = framework.runPreScorePlugins(state, pod, feasible);
    if (!isSuccess(preScore)) {
      return failed(preScore);
    }
  }
  const isFull = detail === 'full';
  let totals: Float64Array;
  let perPlugin: readonly Float64Array[] | null = null;
  if (framework.hasScorePlugins) {
    const outcome = framework.runScorePlugins(state, pod, feasible, isFull);
    if (!outcome.ok) {
      return failed(outcome.status);
    }
    totals = outcome.totals;
    perPlugin = outcome.perPlugin;
  } else {
    totals = new Float64Array(feasible.length).fill(1);
  }
  // selectHost: the highest total; ties are broken by cluster node order instead of at random.
  let best = -Infinity;
  let tiedCount = 0;
  for (let i = 0; i < totals.length; i++) {
    const total = totals[i] as number;
    if (total > best) {
      best = total;
      tiedCount = 1;
    } else if (total === best) {
      tiedCount++;
    }
  }
  const tiedNodes = tiedInNodeOrder(feasible, totals, best, tiedCount);
  const scores = isFull ? scoreTable(framework, feasible, totals, perPlugin ?? []) : null;
  return result(tiedNodes[0] ?? null, tiedNodes, scores);
}

/**
 * The names of the nodes scoring `best`, in cluster order. The search visits nodes in rotated cluster order, so
 * the feasible list is usually one ascending run, or two when the search wrapped: the second run's ties come
 * first. Anything else (a nominated node) is sorted.
 */
function tiedInNodeOrder(
  feasible: readonly NodeInfo[],
  totals: Float64Array,
  best: number,
  tiedCount: number,
): string[] {
  let descents = 0;
  let split = 0;
  for (let i = 1; i < feasible.length; i++) {
    if ((feasible[i] as NodeInfo).order < (feasible[i - 1] as NodeInfo).order) {
      descents++;
      split = i;
    }
  }
  const first = feasible[0] as NodeInfo;
  const last = feasible[feasible.length - 1] as NodeInfo;
  if (descents === 0 || (descents === 1 && last.order < first.order)) {
    // Sized once: a cycle on identical nodes ties hundreds of them, and growing the list step by step copies it.
    const names = new Array<string>(tiedCount);
    let n = 0;
    for (let k = 0; k < feasible.length; k++) {
      const i = k + split < feasible.length ? k + split : k + split - feasible.length;
      if (totals[i] === best) {
        names[n++] = (feasible[i] as NodeInfo).name;
      }
    }
    return names;
  }
  const tied = feasible.filter((_node, i) => totals[i] === best);
  tied.sort((a, b) => a.order - b.order);
  return tied.map((node) => node.name);
}

function scoreTable(
  framework: SchedulerFramework,
  feasible: readonly NodeInfo[],
  totals: Float64Array,
  perPlugin: readonly Float64Array[],
): ScoreTable {
  const nodes = feasible.map((node, index) => ({
    name: node.name,
    total: totals[index] ?? 0,
    scores: perPlugin.map((column) => column[index] ?? 0),
  }));
  return { plugins: framework.scorePluginNames, nodes };
}
