/**
 * HorizontalPodAutoscalers (autoscaling/v2 and v1) change how many replicas a workload starts with. Before any
 * metric is read, the HPA controller moves the scale target's replicas into [minReplicas, maxReplicas]; a target
 * at 0 replicas is left alone (scaling disabled while minReplicas is not 0).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/podautoscaler/horizontal.go
 * Left out: what metrics would do next (the simulation has no load).
 */
import type { JsonObject } from './json';
import { asObject, readString } from './json';

/** The replica bounds of the HPA that targets a workload. */
interface ReplicaBounds {
  readonly minReplicas: number;
  readonly maxReplicas: number;
  /** The HPA's name, for explanations. */
  readonly name: string;
}

/** HPAs by the workload they target: "namespace/Kind/name". */
export type AutoscalerIndex = ReadonlyMap<string, ReplicaBounds>;

/** Whether an object is a HorizontalPodAutoscaler. */
function isAutoscaler(object: JsonObject): boolean {
  return object['kind'] === 'HorizontalPodAutoscaler';
}

/** Indexes HPAs by their scale target; the first HPA for a target wins (upstream reports the others as ambiguous). */
export function indexAutoscalers(objects: readonly JsonObject[]): AutoscalerIndex {
  const index = new Map<string, ReplicaBounds>();
  for (const object of objects.filter(isAutoscaler)) {
    const metadata = asObject(object['metadata']);
    const spec = asObject(object['spec']);
    const target = asObject(spec['scaleTargetRef']);
    const kind = readString(target['kind']);
    const targetName = readString(target['name']);
    const name = readString(metadata['name']) ?? '';
    const maxReplicas = spec['maxReplicas'];
    const minReplicas = spec['minReplicas'] ?? 1;
    if (kind === undefined || targetName === undefined || typeof maxReplicas !== 'number') {
      continue;
    }
    if (typeof minReplicas !== 'number') {
      continue;
    }
    const key = autoscalerKey(readString(metadata['namespace']) ?? 'default', kind, targetName);
    if (!index.has(key)) {
      index.set(key, { minReplicas, maxReplicas, name });
    }
  }
  return index;
}

/** The index key of a workload. */
export function autoscalerKey(namespace: string, kind: string, name: string): string {
  return `${namespace}/${kind}/${name}`;
}

/** The replicas a workload starts with once its HPA (if any) has acted. */
export function replicasUnderAutoscaler(replicas: number, bounds: ReplicaBounds | undefined): number {
  if (bounds === undefined || (replicas === 0 && bounds.minReplicas !== 0)) {
    return replicas;
  }
  return Math.min(Math.max(replicas, bounds.minReplicas), bounds.maxReplicas);
}
