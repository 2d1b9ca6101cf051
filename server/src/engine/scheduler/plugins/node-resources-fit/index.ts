/**
 * NodeResourcesFit: Filter checks the pod count and that every resource the pod requests fits in what the node
 * has left (allocatable minus the requests of its pods), keeping every failing resource as a reason; Score ranks
 * nodes by the profile's scoring strategy (LeastAllocated by default, MostAllocated, RequestedToCapacityRatio).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/noderesources/fit.go
 *
 * Requests are PodInfo.requests (containers, init containers and sidecars, overhead, pod-level resources; see
 * model/snapshot/pod-requests.ts). Left out: DRA-backed extended resources, in-place resize status.
 */
import type { NodeColumns } from '../../../model/snapshot/node-columns';
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { StateKey } from '../../framework/cycle-state';
import type { PluginFactory } from '../../framework/plugin';
import { SUCCESS, newStatus } from '../../framework/status';
import type { Reason, Status } from '../../framework/status';
import { readNodeResourcesFitArgs } from '../../config/node-resources-args';
import type { NodeResourcesFitArgs } from '../../config/node-resources-args';
import {
  ResourceAllocationScorer,
  leastAllocatedScorer,
  mostAllocatedScorer,
  podRequestVector,
  requestedToCapacityRatioScorer,
} from './resource-allocation';
import type { VectorScorer } from './resource-allocation';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const NODE_RESOURCES_FIT = PLUGIN_NAMES.NodeResourcesFit;

/** Reason code of every "Insufficient <resource>" reason. */
export const INSUFFICIENT_RESOURCE_CODE = 'NodeResourcesFit/InsufficientResource';

/** The node already runs as many pods as its allocatable "pods" allows. */
export const REASON_TOO_MANY_PODS: Reason = {
  code: 'NodeResourcesFit/TooManyPods',
  message: 'Too many pods',
};

/** "Insufficient <resource>": the pod requests more of it than the node has left. */
export function insufficientResource(resource: string): Reason {
  return { code: INSUFFICIENT_RESOURCE_CODE, message: `Insufficient ${resource}`, data: { resource } };
}

const INSUFFICIENT_CPU = insufficientResource('cpu');
const INSUFFICIENT_MEMORY = insufficientResource('memory');
const INSUFFICIENT_EPHEMERAL_STORAGE = insufficientResource('ephemeral-storage');

const PRE_SCORE_KEY = new StateKey<readonly number[]>('PreScoreNodeResourcesFit');

/** The ignored resources of NodeResourcesFitArgs as sets, for the filter's per-resource check. */
interface IgnoredResources {
  readonly names: ReadonlySet<string>;
  readonly groups: ReadonlySet<string>;
}

/**
 * Builds NodeResourcesFit with the profile's NodeResourcesFitArgs, read (defaulted and validated) by the one
 * reader of scheduler/config, as upstream's NewFit takes config.NodeResourcesFitArgs and validates it again with
 * ValidateNodeResourcesFitArgs. Args that fail are reported and the defaults used.
 */
export const createNodeResourcesFit: PluginFactory = (context) => {
  const parsed = readNodeResourcesFitArgs(context.args);
  for (const problem of parsed.problems) {
    context.reportArgsProblem(problem.message);
  }
  const args = parsed.args;
  const ignored: IgnoredResources = {
    names: new Set(args.ignoredResources),
    groups: new Set(args.ignoredResourceGroups),
  };
  const { resources } = args.scoringStrategy;
  const scorer = new ResourceAllocationScorer(resources, false, strategyScorer(args));
  return {
    name: NODE_RESOURCES_FIT,
    // Upstream's PreFilter computes the pod's requests into the cycle state; PodInfo already holds them.
    filter(_state, pod, node) {
      return fitsRequest(pod, node, ignored);
    },
    filterNodes(_state, pod, nodes, statuses) {
      // The column check first, in the loop (small enough to inline); fitsRequest only for a node it sends back.
      const isColumnCheckable = pod.scalarResourceNames.length === 0;
      for (let i = 0; i < nodes.length; i++) {
        const node = nodes[i] as NodeInfo;
        const columns = node.columns;
        statuses[i] =
          isColumnCheckable && columns !== null && fitsColumns(pod, columns, node.order)
            ? SUCCESS
            : fitsRequest(pod, node, ignored);
      }
    },
    preScore(state, pod) {
      state.write(PRE_SCORE_KEY, podRequestVector(pod, resources, false));
      return SUCCESS;
    },
    score(state, pod, node) {
      return scorer.score(node, state.read(PRE_SCORE_KEY) ?? podRequestVector(pod, resources, false));
    },
    scoreNodes(state, pod, nodes, scores) {
      scorer.scoreNodes(nodes, state.read(PRE_SCORE_KEY) ?? podRequestVector(pod, resources, false), scores);
    },
  };
};

function strategyScorer(args: NodeResourcesFitArgs): VectorScorer {
  const { type, resources, requestedToCapacityRatio } = args.scoringStrategy;
  switch (type) {
    case 'LeastAllocated':
      return leastAllocatedScorer(resources);
    case 'MostAllocated':
      return mostAllocatedScorer(resources);
    case 'RequestedToCapacityRatio':
      return requestedToCapacityRatioScorer(resources, requestedToCapacityRatio?.shape ?? []);
  }
}

/**
 * fitsRequest: "Too many pods" when the node is full, then each requested resource that does not fit, in the
 * order cpu, memory, ephemeral-storage, then scalar resources by name (upstream iterates a Go map there).
 */
function fitsRequest(pod: PodInfo, node: NodeInfo, ignored: IgnoredResources): Status {
  const columns = node.columns;
  if (columns !== null && pod.scalarResourceNames.length === 0 && fitsColumns(pod, columns, node.order)) {
    return SUCCESS;
  }
  let reasons: Reason[] | null = null;
  const allocatable = node.allocatable;
  const used = node.requested;
  const request = pod.requests;
  if (node.pods.length + 1 > allocatable.allowedPodNumber) {
    reasons = [REASON_TOO_MANY_PODS];
  }
  if (request.milliCpu > 0 && request.milliCpu > allocatable.milliCpu - used.milliCpu) {
    (reasons ??= []).push(INSUFFICIENT_CPU);
  }
  if (request.memory > 0 && request.memory > allocatable.memory - used.memory) {
    (reasons ??= []).push(INSUFFICIENT_MEMORY);
  }
  if (
    request.ephemeralStorage > 0 &&
    request.ephemeralStorage > allocatable.ephemeralStorage - used.ephemeralStorage
  ) {
    (reasons ??= []).push(INSUFFICIENT_EPHEMERAL_STORAGE);
  }
  for (const name of pod.scalarResourceNames) {
    const amount = request.get(name);
    if (amount === 0 || (isExtendedResourceName(name) && isIgnored(name, ignored))) {
      continue;
    }
    if (amount > allocatable.get(name) - used.get(name)) {
      (reasons ??= []).push(insufficientResource(name));
    }
  }
  return reasons === null ? SUCCESS : newStatus('Unschedulable', NODE_RESOURCES_FIT, ...reasons);
}

/**
 * The same checks as fitsRequest for a pod without scalar resources, read from the cluster's columns (sequential
 * memory when the search walks nodes in order): true when everything fits; false sends the node to fitsRequest,
 * which builds the reasons.
 */
function fitsColumns(pod: PodInfo, columns: NodeColumns, row: number): boolean {
  const request = pod.requests;
  return (
    (columns.podCount[row] as number) + 1 <= (columns.allowedPodNumber[row] as number) &&
    (request.milliCpu <= 0 ||
      request.milliCpu <=
        (columns.allocatableMilliCpu[row] as number) - (columns.requestedMilliCpu[row] as number)) &&
    (request.memory <= 0 ||
      request.memory <=
        (columns.allocatableMemory[row] as number) - (columns.requestedMemory[row] as number)) &&
    (request.ephemeralStorage <= 0 ||
      request.ephemeralStorage <=
        (columns.allocatableEphemeralStorage[row] as number) -
          (columns.requestedEphemeralStorage[row] as number))
  );
}

/** v1helper.IsExtendedResourceName: a name with a domain outside kubernetes.io, not a quota "requests." name. */
function isExtendedResourceName(name: string): boolean {
  return name.includes('/') && !name.includes('kubernetes.io/') && !name.startsWith('requests.');
}

function isIgnored(name: string, ignored: IgnoredResources): boolean {
  if (ignored.names.has(name)) {
    return true;
  }
  return ignored.groups.size > 0 && ignored.groups.has(name.split('/')[0] ?? '');
}
