/**
 * PodInfo: a pod as the scheduler sees it, with everything the plugins read pre-computed once (requests, host
 * ports, images, priority), like framework.PodInfo upstream. Built from plain pod JSON plus an ObjectSource.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/types.go
 */
import { listOf } from '../objects';
import type { ContainerObject, PodObject } from '../objects';
import { computePodRequests } from './pod-requests';
import type { PodResourceProblem } from './pod-requests';
import { toResources } from '../resources';
import type { Resources } from '../resources';
import type { ObjectSource } from '../source';

/** A host port a pod uses (schedutil.GetHostPorts), with the API defaults applied (TCP, 0.0.0.0). */
export interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

/** The workload a pod was made from. */
export interface PodOwner {
  readonly kind: string;
  readonly name: string;
}

/** A pod ready for scheduling. Immutable after creation, except nodeName which the scheduler sets when binding. */
export interface PodInfo {
  /** "namespace/name", unique in a simulation. */
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  /** The pod object as given (after defaulting by the caller, if any). */
  readonly pod: PodObject;
  /** Where the pod (or its workload's template) was written. */
  readonly source: ObjectSource;
  /** The owning workload, or null for a bare pod. */
  readonly owner: PodOwner | null;
  /** The resolved priority (spec.priority, else its PriorityClass, else the global default, else 0). */
  readonly priority: number;
  /** Effective requests (what NodeResourcesFit checks). */
  readonly requests: Resources;
  /** cpu with 100m per container that requests none: what scoring counts. */
  readonly nonZeroMilliCpu: number;
  /** memory with 200Mi per container that requests none. */
  readonly nonZeroMemory: number;
  /** Host ports of containers and sidecars. */
  readonly hostPorts: readonly HostPort[];
  /** Images of containers and init containers, normalised (ImageLocality). */
  readonly images: readonly string[];
  /** Number of init containers plus containers (ImageLocality's threshold scales with it). */
  readonly containerCount: number;
  /** Names of the scalar resources (extended, hugepages) the pod requests, sorted. */
  readonly scalarResourceNames: readonly string[];
  /** Labels (for selectors of other pods). */
  readonly labels: Readonly<Record<string, string>>;
  /** Whether the pod has pod affinity or anti-affinity terms. */
  readonly hasPodAffinity: boolean;
  /** Whether the pod has required pod anti-affinity terms. */
  readonly hasRequiredAntiAffinity: boolean;
  /** The node the pod is bound to, or null while pending. */
  nodeName: string | null;
  /**
   * status.startTime in seconds since the Unix epoch (GetPodStartTime; creationTimestamp when there is none), or
   * null for a pod not started. A pod the simulation binds gets the simulation's start instant plus the time.
   */
  startTime: number | null;
}

/** What a PodInfo is built from besides the pod object. */
interface PodInfoInput {
  readonly pod: PodObject;
  readonly source: ObjectSource;
  readonly owner: PodOwner | null;
  readonly priority: number;
  /** Whether spec.resources (pod-level resources) is honoured in the selected version. */
  readonly podLevelResources: boolean;
}

/** Builds a PodInfo; resource problems (malformed quantities) are appended to `problems`, paths under spec. */
export function createPodInfo(input: PodInfoInput, problems: PodResourceProblem[]): PodInfo {
  const { pod } = input;
  const spec = pod.spec ?? {};
  const namespace = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? pod.metadata?.generateName ?? '';
  const requestProblems: PodResourceProblem[] = [];
  const computed = computePodRequests(spec, { podLevelResources: input.podLevelResources }, requestProblems);
  const requests = toResources(computed.requests);
  for (const problem of requestProblems) {
    problems.push({ ...problem, path: ['spec', ...problem.path] });
  }
  const affinity = spec.affinity;
  const podAffinity = affinity?.podAffinity;
  const podAntiAffinity = affinity?.podAntiAffinity;
  const hasRequiredAntiAffinity =
    (podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
  return {
    key: `${namespace}/${name}`,
    namespace,
    name,
    pod,
    source: input.source,
    owner: input.owner,
    priority: input.priority,
    requests,
    nonZeroMilliCpu: computed.nonZeroMilliCpu,
    nonZeroMemory: computed.nonZeroMemory,
    hostPorts: collectHostPorts(spec.containers, spec.initContainers, spec.hostNetwork === true),
    images: collectImages(spec.containers, spec.initContainers),
    containerCount: listOf(spec.initContainers).length + listOf(spec.containers).length,
    scalarResourceNames: requests.scalarNames(),
    labels: pod.metadata?.labels ?? {},
    hasPodAffinity: podAffinity !== undefined || podAntiAffinity !== undefined,
    hasRequiredAntiAffinity,
    nodeName: typeof spec.nodeName === 'string' && spec.nodeName !== '' ? spec.nodeName : null,
    startTime: startTimeOf(pod),
  };
}

/** status.startTime, else metadata.creationTimestamp, in epoch seconds; null when neither is a time. */
function startTimeOf(pod: PodObject): number | null {
  const status = (pod as { status?: { startTime?: unknown } }).status;
  const creation = (pod.metadata as { creationTimestamp?: unknown } | undefined)?.creationTimestamp;
  for (const value of [status?.startTime, creation]) {
    if (typeof value === 'string') {
      const millis = Date.parse(value);
      if (Number.isFinite(millis)) {
        return millis / 1000;
      }
    }
  }
  return null;
}

/**
 * Host ports of regular containers and of sidecars (init containers with restartPolicy Always), as
 * schedutil.GetHostPorts. With hostNetwork the API server defaults each hostPort to its containerPort.
 */
function collectHostPorts(
  containers: readonly ContainerObject[] | undefined,
  initContainers: readonly ContainerObject[] | undefined,
  hostNetwork: boolean,
): HostPort[] {
  const ports: HostPort[] = [];
  const sidecars = listOf(initContainers).filter((c) => c.restartPolicy === 'Always');
  for (const container of [...sidecars, ...listOf(containers)]) {
    for (const port of listOf(container.ports)) {
      const hostPort = hostNetwork && !port.hostPort ? port.containerPort : port.hostPort;
      if (typeof hostPort === 'number' && hostPort > 0) {
        ports.push({ ip: port.hostIP || '0.0.0.0', protocol: port.protocol || 'TCP', port: hostPort });
      }
    }
  }
  return ports;
}

function collectImages(
  containers: readonly ContainerObject[] | undefined,
  initContainers: readonly ContainerObject[] | undefined,
): string[] {
  const images: string[] = [];
  for (const list of [initContainers, containers]) {
    for (const container of listOf(list)) {
      if (typeof container.image === 'string' && container.image !== '') {
        images.push(normalizeImageName(container.image));
      }
    }
  }
  return images;
}

/**
 * Normalises an image name as ImageLocality does: a name with no ":" after its last "/" gets ":latest".
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/imagelocality/image_locality.go
 */
export function normalizeImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}
