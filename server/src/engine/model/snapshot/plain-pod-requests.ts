/**
 * The requests of the pod shape almost every pod has, computed without the general walk of pod-requests.ts: only
 * containers (no init containers, no overhead, no pod-level resources), whose requests and limits name cpu and
 * memory only, each a well-formed quantity that is not negative. The general walk builds about ten maps per pod
 * (each container's lists, the sum, the defaulted sum, the init containers' maxima); for a capture of 150,000 pods
 * that was 4 KB of garbage per pod, a fifth of all the simulation allocated. Same sums in the same order, so the
 * same numbers; any other pod gets null and goes the general way (pod-requests.test.ts compares both).
 */
import type { ContainerObject, PodSpecObject } from '../objects';
import { parseQuantity } from '../quantity';
import {
  DEFAULT_MEMORY_REQUEST,
  DEFAULT_MILLI_CPU_REQUEST,
  RESOURCE_CPU,
  RESOURCE_MEMORY,
} from '../resources';
import type { PodRequests } from './pod-requests';

/** The requests of a pod of plain containers, or null when the pod is not of that shape. */
export function plainPodRequests(spec: PodSpecObject, podLevelResources: boolean): PodRequests | null {
  const initContainers: unknown = spec.initContainers;
  if (
    spec.overhead !== undefined ||
    (podLevelResources && spec.resources !== undefined) ||
    (Array.isArray(initContainers) && initContainers.length > 0)
  ) {
    return null;
  }
  const containers: unknown = spec.containers;
  const requests = new Map<string, number>();
  let nonZeroMilliCpu = 0;
  let nonZeroMemory = 0;
  if (!Array.isArray(containers)) {
    return { requests, nonZeroMilliCpu, nonZeroMemory };
  }
  for (const container of containers as unknown[]) {
    if (typeof container !== 'object' || container === null) {
      return null;
    }
    const resources = (container as ContainerObject).resources;
    const own = listOf(resources?.requests);
    const limits = listOf(resources?.limits);
    if (own === null || limits === null) {
      return null;
    }
    // API defaulting: a limit without a request makes the request equal to the limit; the requests' names come
    // first, then the limits' (the order the general walk adds them in).
    let cpu: number | undefined;
    let memory: number | undefined;
    for (const [list, isLimits] of [
      [own, false],
      [limits, true],
    ] as const) {
      for (const name of Object.keys(list)) {
        // Every limit is read, as the general walk reads it (a malformed one is its finding), used or not.
        const amount = amountOf(name, list[name]);
        if (amount === null) {
          return null;
        }
        if (isLimits && Object.prototype.hasOwnProperty.call(own, name)) {
          continue;
        }
        requests.set(name, (requests.get(name) ?? 0) + amount);
        if (name === RESOURCE_CPU) {
          cpu = amount;
        } else {
          memory = amount;
        }
      }
    }
    nonZeroMilliCpu += cpu ?? DEFAULT_MILLI_CPU_REQUEST;
    nonZeroMemory += memory ?? DEFAULT_MEMORY_REQUEST;
  }
  return { requests, nonZeroMilliCpu, nonZeroMemory };
}

/** A resource list as an object to read (absent: empty), or null when it is not a plain object. */
function listOf(list: unknown): Readonly<Record<string, unknown>> | null {
  if (list === undefined || list === null) {
    return {};
  }
  return typeof list === 'object' && !Array.isArray(list) ? (list as Record<string, unknown>) : null;
}

/** cpu in millicores, memory in bytes; null for another resource, a malformed or a negative quantity. */
function amountOf(name: string, raw: unknown): number | null {
  if (
    (name !== RESOURCE_CPU && name !== RESOURCE_MEMORY) ||
    (typeof raw !== 'string' && typeof raw !== 'number')
  ) {
    return null;
  }
  const parsed = parseQuantity(raw);
  if (!parsed.ok || parsed.quantity.isNegative) {
    return null;
  }
  return name === RESOURCE_CPU ? parsed.quantity.milli : parsed.quantity.value;
}
