/**
 * The scenario steps that put load on the cluster: `load` (cpu use of a workload, which its
 * HorizontalPodAutoscaler reads as metrics) and `memoryPressure` (memory use of pods on a node, which the node's
 * kubelet eviction manager reads).
 *
 *   - { at: 60,  load: { target: Deployment/web, namespace: default, cpuUtilization: 90 } }   # or cpu: 1500m
 *   - { at: 120, memoryPressure: { node: worker-1, usage: { Deployment/web: 3Gi, default/cache-0: 1Gi } } }
 *
 * A load's cpuUtilization is the workload's total cpu use as a percentage of its Ready pods' cpu requests at
 * the step's time (90: the pods running then would be 90% busy); the total stays the same as pods come and go.
 * A usage key is a workload ("Kind/name" or "namespace/Kind/name": each of its pods on the node) or a pod
 * ("name" or "namespace/name"); pods not named use their memory request.
 */
import type { UsageSubject } from '../kubelet/eviction-manager';
import type { WorkloadLoad } from '../controllers/podautoscaler/hpa-controller';
import type { ScalableKind } from '../apiserver/scale-subresource';
import { isScalableKind } from '../apiserver/scale-subresource';
import { parseQuantity } from '../model/quantity';
import type { JsonObject } from '../model/json';
import { isJsonObject, readString } from '../model/json';

/** A `load` step. */
export interface LoadAction {
  readonly type: 'load';
  readonly kind: ScalableKind;
  readonly namespace: string;
  readonly name: string;
  readonly load: WorkloadLoad;
}

/** A `memoryPressure` step. */
export interface MemoryPressureAction {
  readonly type: 'memoryPressure';
  readonly node: string;
  readonly usage: readonly { readonly subject: UsageSubject; readonly bytes: number }[];
}

/** Reads a load step's body, or says what is wrong. */
export function readLoadAction(body: JsonObject): LoadAction | string {
  const target = readString(body['target']) ?? '';
  const match = /^([A-Za-z]+)\/([^/]+)$/.exec(target);
  const kind = match?.[1] ?? '';
  if (match === null || !isScalableKind(kind)) {
    return 'load.target must be Deployment/<name>, StatefulSet/<name> or ReplicaSet/<name>';
  }
  const utilization = body['cpuUtilization'];
  const cpu = body['cpu'];
  const namespace = readString(body['namespace']) ?? 'default';
  const name = match[2] ?? '';
  if ((utilization === undefined) === (cpu === undefined)) {
    return 'load needs exactly one of cpuUtilization (percent of request) and cpu (a quantity such as 1500m)';
  }
  if (utilization !== undefined) {
    if (typeof utilization !== 'number' || !Number.isFinite(utilization) || utilization < 0) {
      return "load.cpuUtilization must be a non-negative number (percent of the pods' cpu requests)";
    }
    return { type: 'load', kind, namespace, name, load: { cpuUtilization: utilization } };
  }
  const parsed = typeof cpu === 'string' || typeof cpu === 'number' ? parseQuantity(cpu) : null;
  if (parsed === null || !parsed.ok || parsed.quantity.isNegative) {
    return 'load.cpu must be a non-negative quantity such as 1500m or 2';
  }
  return { type: 'load', kind, namespace, name, load: { cpuMilli: parsed.quantity.milli } };
}

/** Reads a memoryPressure step's body, or says what is wrong. */
export function readMemoryPressureAction(body: JsonObject): MemoryPressureAction | string {
  const node = readString(body['node']);
  if (node === undefined) {
    return 'memoryPressure.node is required';
  }
  const raw = body['usage'];
  if (!isJsonObject(raw) || Object.keys(raw).length === 0) {
    return 'memoryPressure.usage must map pods or workloads to memory quantities';
  }
  const usage: { subject: UsageSubject; bytes: number }[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const subject = readSubject(key);
    const parsed = typeof value === 'string' || typeof value === 'number' ? parseQuantity(value) : null;
    if (subject === null) {
      return `memoryPressure.usage key "${key}" must be a pod ([namespace/]name) or a workload ([namespace/]Kind/name)`;
    }
    if (parsed === null || !parsed.ok || parsed.quantity.isNegative) {
      return `memoryPressure.usage["${key}"] must be a non-negative memory quantity such as 512Mi`;
    }
    usage.push({ subject, bytes: parsed.quantity.value });
  }
  return { type: 'memoryPressure', node, usage };
}

function readSubject(key: string): UsageSubject | null {
  const parts = key.split('/');
  if (parts.some((part) => part === '')) {
    return null;
  }
  if (parts.length === 3) {
    return { type: 'workload', namespace: parts[0] ?? null, kind: parts[1] ?? '', name: parts[2] ?? '' };
  }
  if (parts.length === 2 && /^[A-Z]/.test(parts[0] ?? '')) {
    return { type: 'workload', namespace: null, kind: parts[0] ?? '', name: parts[1] ?? '' };
  }
  if (parts.length === 2) {
    return { type: 'pod', namespace: parts[0] ?? null, name: parts[1] ?? '' };
  }
  return parts.length === 1 ? { type: 'pod', namespace: null, name: key } : null;
}
