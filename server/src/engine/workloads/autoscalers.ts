/**
 * HorizontalPodAutoscalers (autoscaling/v2 and v1) as the API server holds them, read once for every use: the
 * replicas a workload starts with (before any metric is read, the HPA controller moves the scale target's replicas
 * into [minReplicas, maxReplicas]; a target at 0 replicas is left alone: scaling is disabled while minReplicas is
 * not 0), and what the controller reads over time (controllers/podautoscaler/hpa-controller.ts): the cpu utilization target and
 * spec.behavior with the API defaults.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/podautoscaler/horizontal.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/autoscaling/v2/defaults.go
 * Left out: metrics other than cpu Utilization (memory, Pods, Object, External, AverageValue targets).
 */
import type { JsonObject } from '../model/json';
import { asArray, asObject, readString } from '../model/json';

/** One scaling policy: at most `value` pods or percent per `periodSeconds`. */
export interface HpaScalingPolicy {
  readonly type: 'Pods' | 'Percent';
  readonly value: number;
  readonly periodSeconds: number;
}

/** HPAScalingRules with the API defaults filled in. */
export interface HpaScalingRules {
  readonly stabilizationWindowSeconds: number;
  readonly selectPolicy: 'Max' | 'Min' | 'Disabled';
  readonly policies: readonly HpaScalingPolicy[];
}

/** spec.behavior with defaults, or null when the HPA has none (the legacy normalisation). */
export interface HpaBehavior {
  readonly scaleUp: HpaScalingRules;
  readonly scaleDown: HpaScalingRules;
}

/** --horizontal-pod-autoscaler-downscale-stabilization (5m0s). */
export const DOWNSCALE_STABILIZATION_SECONDS = 300;

/** The scale-up rules the API server defaults (GenerateHPAScaleUpRules). */
export const DEFAULT_SCALE_UP: HpaScalingRules = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};

/** The scale-down rules (GenerateHPAScaleDownRules; the window comes from the controller's flag). */
export const DEFAULT_SCALE_DOWN: HpaScalingRules = {
  stabilizationWindowSeconds: DOWNSCALE_STABILIZATION_SECONDS,
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
};

/** An HPA as the simulation reads it. */
export interface AutoscalerSpec {
  readonly name: string;
  readonly namespace: string;
  readonly targetKind: string;
  readonly targetName: string;
  readonly minReplicas: number;
  readonly maxReplicas: number;
  /**
   * The cpu utilization target (percent of request): v1 targetCPUUtilizationPercentage, or a v2 Resource metric
   * for cpu with a Utilization target; 80 when no metric is given (the API default); null when only metrics the
   * simulation does not model are given.
   */
  readonly cpuUtilization: number | null;
  /** spec.behavior with defaults, or null without one (the controller's legacy normalisation). */
  readonly behavior: HpaBehavior | null;
}

/** HPAs by the workload they target: "namespace/Kind/name". */
export type AutoscalerIndex = ReadonlyMap<string, AutoscalerSpec>;

/** The cpu target when an HPA gives no metric (v2 defaults, v1 conversion). */
const DEFAULT_CPU_UTILIZATION = 80;

/** Whether an object is a HorizontalPodAutoscaler. */
export function isAutoscaler(object: JsonObject): boolean {
  return object['kind'] === 'HorizontalPodAutoscaler';
}

/** Reads one HPA, or null when it lacks what the controller needs (a target, maxReplicas). */
export function readAutoscaler(object: JsonObject): AutoscalerSpec | null {
  const metadata = asObject(object['metadata']);
  const spec = asObject(object['spec']);
  const target = asObject(spec['scaleTargetRef']);
  const targetKind = readString(target['kind']);
  const targetName = readString(target['name']);
  const maxReplicas = spec['maxReplicas'];
  const minReplicas = spec['minReplicas'] ?? 1;
  if (targetKind === undefined || targetName === undefined || typeof maxReplicas !== 'number') {
    return null;
  }
  if (typeof minReplicas !== 'number') {
    return null;
  }
  const isV1 = object['apiVersion'] === 'autoscaling/v1';
  return {
    name: readString(metadata['name']) ?? '',
    namespace: readString(metadata['namespace']) ?? 'default',
    targetKind,
    targetName,
    minReplicas,
    maxReplicas,
    cpuUtilization: isV1 ? readV1Target(spec) : readV2Target(spec),
    behavior: isV1 || spec['behavior'] === undefined ? null : readBehavior(asObject(spec['behavior'])),
  };
}

function readV1Target(spec: JsonObject): number {
  const value = spec['targetCPUUtilizationPercentage'];
  return typeof value === 'number' && value > 0 ? value : DEFAULT_CPU_UTILIZATION;
}

function readV2Target(spec: JsonObject): number | null {
  const metrics = asArray(spec['metrics']).map(asObject);
  if (metrics.length === 0) {
    return DEFAULT_CPU_UTILIZATION;
  }
  for (const metric of metrics) {
    const resource = asObject(metric['resource']);
    const target = asObject(resource['target']);
    const value = target['averageUtilization'];
    if (
      metric['type'] === 'Resource' &&
      resource['name'] === 'cpu' &&
      target['type'] === 'Utilization' &&
      typeof value === 'number' &&
      value > 0
    ) {
      return value;
    }
  }
  return null;
}

/** spec.behavior with the API defaults (GenerateHPAScaleUpRules, GenerateHPAScaleDownRules). */
function readBehavior(behavior: JsonObject): HpaBehavior {
  return {
    scaleUp: readRules(behavior['scaleUp'], DEFAULT_SCALE_UP),
    scaleDown: readRules(behavior['scaleDown'], DEFAULT_SCALE_DOWN),
  };
}

function readRules(value: unknown, defaults: HpaScalingRules): HpaScalingRules {
  if (value === undefined || value === null) {
    return defaults;
  }
  const rules = asObject(value);
  const window = rules['stabilizationWindowSeconds'];
  const select = rules['selectPolicy'];
  const policies = asArray(rules['policies']).flatMap((raw): HpaScalingPolicy[] => {
    const policy = asObject(raw);
    const type = policy['type'];
    const amount = policy['value'];
    const period = policy['periodSeconds'];
    if ((type !== 'Pods' && type !== 'Percent') || typeof amount !== 'number' || typeof period !== 'number') {
      return [];
    }
    return [{ type, value: amount, periodSeconds: period }];
  });
  return {
    stabilizationWindowSeconds:
      typeof window === 'number' && window >= 0 ? window : defaults.stabilizationWindowSeconds,
    selectPolicy:
      select === 'Min' || select === 'Disabled' || select === 'Max' ? select : defaults.selectPolicy,
    policies: policies.length > 0 ? policies : defaults.policies,
  };
}

/** Indexes HPAs by their scale target; the first HPA for a target wins (upstream reports the others as ambiguous). */
export function indexAutoscalers(objects: readonly JsonObject[]): AutoscalerIndex {
  const index = new Map<string, AutoscalerSpec>();
  for (const object of objects.filter(isAutoscaler)) {
    const spec = readAutoscaler(object);
    if (spec === null) {
      continue;
    }
    const key = autoscalerKey(spec.namespace, spec.targetKind, spec.targetName);
    if (!index.has(key)) {
      index.set(key, spec);
    }
  }
  return index;
}

/** The index key of a workload. */
export function autoscalerKey(namespace: string, kind: string, name: string): string {
  return `${namespace}/${kind}/${name}`;
}

/** The replicas a workload starts with once its HPA (if any) has acted. */
export function replicasUnderAutoscaler(
  replicas: number,
  bounds: Pick<AutoscalerSpec, 'minReplicas' | 'maxReplicas'> | undefined,
): number {
  if (bounds === undefined || (replicas === 0 && bounds.minReplicas !== 0)) {
    return replicas;
  }
  return Math.min(Math.max(replicas, bounds.minReplicas), bounds.maxReplicas);
}
