/**
 * Resource arithmetic as kube-scheduler does it: cpu in millicores, memory and ephemeral-storage in bytes, the
 * pod count, and "scalar" resources (extended resources such as nvidia.com/gpu, hugepages-*) as integers.
 * Mirrors framework.Resource in pkg/scheduler/framework/types.go:
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/types.go
 */
import { parseQuantity } from './quantity';
import type { ResourceListObject } from './objects';

/** The well-known resource names. */
export const RESOURCE_CPU = 'cpu';
/** Memory, in bytes. */
export const RESOURCE_MEMORY = 'memory';
/** Local ephemeral storage, in bytes. */
export const RESOURCE_EPHEMERAL_STORAGE = 'ephemeral-storage';
/** The number of pods a node accepts (allocatable only). */
export const RESOURCE_PODS = 'pods';
/** The default cpu request (millicores) scoring assumes for a container that sets none (schedutil). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
/** The default memory request (bytes) scoring assumes for a container that sets none: 200Mi. */
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

/**
 * Whether a resource is tracked as a scalar: an extended resource (a name with a domain, "nvidia.com/gpu"), a
 * "kubernetes.io/" prefixed one, hugepages-* or attachable-volumes-* (schedutil.IsScalarResourceName).
 */
export function isScalarResourceName(name: string): boolean {
  return name.includes('/') || name.startsWith('hugepages-') || name.startsWith('attachable-volumes-');
}

/** A resource amount vector; mutable on purpose so that node sums update in place. */
export class Resources {
  /** Millicores. */
  milliCpu = 0;
  /** Bytes. */
  memory = 0;
  /** Bytes. */
  ephemeralStorage = 0;
  /** Pods (only meaningful for allocatable). */
  allowedPodNumber = 0;
  /** Scalar resources by name; null until one is set, so plain pods allocate nothing. */
  scalar: Map<string, number> | null = null;

  /** The amount of a resource by its name, in scheduler units (millicores for cpu). */
  get(name: string): number {
    switch (name) {
      case RESOURCE_CPU:
        return this.milliCpu;
      case RESOURCE_MEMORY:
        return this.memory;
      case RESOURCE_EPHEMERAL_STORAGE:
        return this.ephemeralStorage;
      case RESOURCE_PODS:
        return this.allowedPodNumber;
      default:
        return this.scalar?.get(name) ?? 0;
    }
  }

  /** Sets a resource by name (scheduler units); names that are neither native nor scalar are ignored. */
  set(name: string, amount: number): void {
    switch (name) {
      case RESOURCE_CPU:
        this.milliCpu = amount;
        return;
      case RESOURCE_MEMORY:
        this.memory = amount;
        return;
      case RESOURCE_EPHEMERAL_STORAGE:
        this.ephemeralStorage = amount;
        return;
      case RESOURCE_PODS:
        this.allowedPodNumber = amount;
        return;
      default:
        if (isScalarResourceName(name)) {
          (this.scalar ??= new Map()).set(name, amount);
        }
    }
  }

  /** Adds another vector times a sign (+1 to add a pod, -1 to remove it). */
  addScaled(other: Resources, sign: number): void {
    this.milliCpu += sign * other.milliCpu;
    this.memory += sign * other.memory;
    this.ephemeralStorage += sign * other.ephemeralStorage;
    this.allowedPodNumber += sign * other.allowedPodNumber;
    if (other.scalar !== null) {
      const scalar = (this.scalar ??= new Map());
      for (const [name, amount] of other.scalar) {
        scalar.set(name, (scalar.get(name) ?? 0) + sign * amount);
      }
    }
  }

  /** The names of the scalar resources present, sorted. */
  scalarNames(): string[] {
    return this.scalar === null ? [] : [...this.scalar.keys()].sort();
  }

  /** A copy. */
  clone(): Resources {
    const copy = new Resources();
    copy.addScaled(this, 1);
    return copy;
  }
}

/** A problem met while reading a resource list: the resource name and what is wrong. */
export interface ResourceListProblem {
  readonly resource: string;
  readonly kind: 'invalid' | 'negative';
  readonly message: string;
}

/**
 * Reads a resource list (requests, allocatable…) into a map of name to amount in scheduler units: cpu in
 * millicores (MilliValue), everything else rounded up to an integer (Value). Malformed quantities are reported
 * and left out; negative ones are reported and kept as written.
 */
export function readResourceList(
  list: ResourceListObject | undefined,
  problems: ResourceListProblem[],
): Map<string, number> {
  const amounts = new Map<string, number>();
  if (list === undefined || list === null || typeof list !== 'object') {
    return amounts;
  }
  for (const [name, raw] of Object.entries(list)) {
    if (typeof raw !== 'string' && typeof raw !== 'number') {
      problems.push({ resource: name, kind: 'invalid', message: `${JSON.stringify(raw)} is not a quantity` });
      continue;
    }
    const parsed = parseQuantity(raw);
    if (!parsed.ok) {
      problems.push({ resource: name, kind: 'invalid', message: parsed.message });
      continue;
    }
    if (parsed.quantity.isNegative) {
      problems.push({ resource: name, kind: 'negative', message: `"${parsed.quantity.text}" is negative` });
    }
    amounts.set(name, name === RESOURCE_CPU ? parsed.quantity.milli : parsed.quantity.value);
  }
  return amounts;
}

/** Builds a Resources vector from a map of amounts (as read by readResourceList). */
export function toResources(amounts: ReadonlyMap<string, number>): Resources {
  const resources = new Resources();
  for (const [name, amount] of amounts) {
    resources.set(name, amount);
  }
  return resources;
}
