/**
 * What a pod requests, computed as kube-scheduler does (resourcehelper.PodRequests and PodInfo.CalculateResource):
 * the sum of the containers, the sidecar rule for restartable init containers, the largest init container,
 * pod-level resources (spec.resources, PodLevelResources: beta and on by default from 1.34), and the overhead.
 * https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/component-helpers/resource/helpers.go
 *
 * The API server defaults a container's missing request to its limit (SetDefaults_Pod); pods reach the scheduler
 * after that, so we apply it here too. Left out: in-place resize status (status.containerStatuses resources) and
 * DRA node-allocatable claims.
 */
import type { ContainerObject, PodSpecObject, ResourceListObject } from '../objects';
import {
  DEFAULT_MEMORY_REQUEST,
  DEFAULT_MILLI_CPU_REQUEST,
  RESOURCE_CPU,
  RESOURCE_MEMORY,
  readResourceList,
} from '../resources';
import type { ResourceListProblem } from '../resources';
import { plainPodRequests } from './plain-pod-requests';

/** A problem in a pod's resources, with the path of the offending list inside the pod spec. */
export interface PodResourceProblem extends ResourceListProblem {
  readonly path: readonly (string | number)[];
}

/** A pod's requests in scheduler units (cpu in millicores), plus the non-zero cpu and memory used for scoring. */
export interface PodRequests {
  /** Effective requests by resource name; a name is present when some container or the pod sets it. */
  readonly requests: ReadonlyMap<string, number>;
  /** cpu with 100m assumed for each container that requests none (NonZeroRequested). */
  readonly nonZeroMilliCpu: number;
  /** memory with 200Mi assumed for each container that requests none. */
  readonly nonZeroMemory: number;
}

/** Options that follow the selected Kubernetes version's feature gates. */
interface PodRequestOptions {
  /** Whether spec.resources (pod-level resources) is honoured: PodLevelResources, on by default from 1.34. */
  readonly podLevelResources: boolean;
}

type Amounts = Map<string, number>;

/** Computes a pod's effective requests; problems (malformed quantities) are appended to `problems`. */
export function computePodRequests(
  spec: PodSpecObject,
  options: PodRequestOptions,
  problems: PodResourceProblem[],
): PodRequests {
  // Plain containers of cpu and memory, well formed: the same numbers without the maps of the general walk.
  return (
    plainPodRequests(spec, options.podLevelResources) ?? computeGeneralPodRequests(spec, options, problems)
  );
}

/** computePodRequests for any pod, by the general walk (exported for the test comparing it with the plain one). */
export function computeGeneralPodRequests(
  spec: PodSpecObject,
  options: PodRequestOptions,
  problems: PodResourceProblem[],
): PodRequests {
  const containers = readContainers(spec.containers, 'containers', problems);
  const initContainers = readContainers(spec.initContainers, 'initContainers', problems);
  const overhead = readList(spec.overhead, ['overhead'], problems);
  const requests = aggregate(containers, initContainers, null);
  const podLevel = options.podLevelResources
    ? readPodLevelRequests(spec, requests, problems)
    : new Map<string, number>();
  applyPodLevel(requests, podLevel);
  addInto(requests, overhead);

  // Scoring: a container with no cpu or memory request counts as 100m / 200Mi, unless pod-level requests set it.
  const defaults = new Map<string, number>();
  if (podLevel.size === 0) {
    defaults.set(RESOURCE_CPU, DEFAULT_MILLI_CPU_REQUEST).set(RESOURCE_MEMORY, DEFAULT_MEMORY_REQUEST);
  } else {
    if (!requests.has(RESOURCE_CPU)) {
      defaults.set(RESOURCE_CPU, DEFAULT_MILLI_CPU_REQUEST);
    }
    if (!requests.has(RESOURCE_MEMORY)) {
      defaults.set(RESOURCE_MEMORY, DEFAULT_MEMORY_REQUEST);
    }
  }
  let nonZero = requests;
  if (defaults.size > 0) {
    nonZero = aggregate(containers, initContainers, defaults);
    applyPodLevel(nonZero, podLevel);
    addInto(nonZero, overhead);
  }
  return {
    requests,
    nonZeroMilliCpu: nonZero.get(RESOURCE_CPU) ?? 0,
    nonZeroMemory: nonZero.get(RESOURCE_MEMORY) ?? 0,
  };
}

interface ContainerRequests {
  readonly requests: Amounts;
  readonly isRestartable: boolean;
}

function readContainers(
  containers: readonly ContainerObject[] | undefined,
  field: string,
  problems: PodResourceProblem[],
): ContainerRequests[] {
  if (!Array.isArray(containers)) {
    return [];
  }
  return containers.map((container: ContainerObject, index) => {
    const base = [field, index, 'resources'];
    const limits = readList(container.resources?.limits, [...base, 'limits'], problems);
    const requests = readList(container.resources?.requests, [...base, 'requests'], problems);
    // API defaulting: a limit without a request makes the request equal to the limit.
    for (const [name, amount] of limits) {
      if (!requests.has(name)) {
        requests.set(name, amount);
      }
    }
    return { requests, isRestartable: container.restartPolicy === 'Always' };
  });
}

/**
 * Pod-level requests after the API server's defaulting (defaultPodRequests): when pod-level limits are set, a
 * missing pod-level request becomes the containers' aggregated request for that resource, else the pod-level limit.
 */
function readPodLevelRequests(
  spec: PodSpecObject,
  aggregated: ReadonlyMap<string, number>,
  problems: PodResourceProblem[],
): Amounts {
  const requests = readList(spec.resources?.requests, ['resources', 'requests'], problems);
  const limits = readList(spec.resources?.limits, ['resources', 'limits'], problems);
  for (const [name, amount] of limits) {
    if (!requests.has(name)) {
      requests.set(name, aggregated.get(name) ?? amount);
    }
  }
  for (const name of [...requests.keys()]) {
    if (!isSupportedPodLevelResource(name)) {
      requests.delete(name);
    }
  }
  return requests;
}

/** Pod-level resources cover cpu, memory and hugepages-* only (IsSupportedPodLevelResource). */
function isSupportedPodLevelResource(name: string): boolean {
  return name === RESOURCE_CPU || name === RESOURCE_MEMORY || name.startsWith('hugepages-');
}

function readList(
  list: ResourceListObject | undefined,
  path: readonly (string | number)[],
  problems: PodResourceProblem[],
): Amounts {
  const listProblems: ResourceListProblem[] = [];
  const amounts = readResourceList(list, listProblems);
  for (const problem of listProblems) {
    problems.push({ ...problem, path: [...path, problem.resource] });
  }
  return amounts;
}

/** Containers summed, then the sidecar-aware maximum with init containers (KEP-753). */
function aggregate(
  containers: readonly ContainerRequests[],
  initContainers: readonly ContainerRequests[],
  nonMissing: ReadonlyMap<string, number> | null,
): Amounts {
  const result: Amounts = new Map();
  for (const container of containers) {
    addInto(result, withNonMissing(container.requests, nonMissing));
  }
  const restartable: Amounts = new Map();
  const initMax: Amounts = new Map();
  for (const container of initContainers) {
    const own = withNonMissing(container.requests, nonMissing);
    let inUse: Amounts;
    if (container.isRestartable) {
      addInto(result, own);
      addInto(restartable, own);
      inUse = restartable;
    } else {
      inUse = new Map(own);
      addInto(inUse, restartable);
    }
    maxInto(initMax, inUse);
  }
  maxInto(result, initMax);
  return result;
}

function withNonMissing(requests: Amounts, nonMissing: ReadonlyMap<string, number> | null): Amounts {
  if (nonMissing === null) {
    return requests;
  }
  const copy = new Map(requests);
  for (const [name, amount] of nonMissing) {
    if (!requests.has(name)) {
      copy.set(name, amount);
    }
  }
  return copy;
}

function applyPodLevel(target: Amounts, podLevel: ReadonlyMap<string, number>): void {
  for (const [name, amount] of podLevel) {
    target.set(name, amount);
  }
}

function addInto(target: Amounts, source: ReadonlyMap<string, number>): void {
  for (const [name, amount] of source) {
    target.set(name, (target.get(name) ?? 0) + amount);
  }
}

function maxInto(target: Amounts, source: ReadonlyMap<string, number>): void {
  for (const [name, amount] of source) {
    const current = target.get(name);
    if (current === undefined || amount > current) {
      target.set(name, amount);
    }
  }
}
