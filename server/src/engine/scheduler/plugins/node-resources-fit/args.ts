/**
 * NodeResourcesFitArgs and NodeResourcesBalancedAllocationArgs (kubescheduler.config.k8s.io/v1), read from plain
 * JSON with the v1 defaults (SetDefaults_NodeResourcesFitArgs, SetDefaults_NodeResourcesBalancedAllocationArgs):
 * scoringStrategy LeastAllocated over cpu and memory, weight 1; a resource weight of 0 means 1.
 * https://kubernetes.io/docs/reference/config-api/kube-scheduler-config.v1/#kubescheduler-config-k8s-io-v1-NodeResourcesFitArgs
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/apis/config/v1/defaults.go
 */
import { isRecord } from '../../../model/objects';

/** The three scoring strategies of NodeResourcesFit. */
export type ScoringStrategyType = 'LeastAllocated' | 'MostAllocated' | 'RequestedToCapacityRatio';

/** A resource and its weight in a score. */
export interface ResourceSpec {
  readonly name: string;
  readonly weight: number;
}

/** A point of the RequestedToCapacityRatio shape: utilization 0..100 → score 0..10. */
export interface UtilizationShapePoint {
  readonly utilization: number;
  readonly score: number;
}

/** NodeResourcesFit arguments after defaulting. */
export interface NodeResourcesFitArgs {
  readonly ignoredResources: ReadonlySet<string>;
  readonly ignoredResourceGroups: ReadonlySet<string>;
  readonly scoringStrategy: {
    readonly type: ScoringStrategyType;
    readonly resources: readonly ResourceSpec[];
    readonly shape: readonly UtilizationShapePoint[];
  };
}

/** cpu and memory, weight 1 each: the default resources of both plugins. */
const DEFAULT_RESOURCES: readonly ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

const STRATEGIES: readonly ScoringStrategyType[] = [
  'LeastAllocated',
  'MostAllocated',
  'RequestedToCapacityRatio',
];

/** Reads NodeResourcesFitArgs; problems are reported and the defaults used for the faulty part. */
export function readNodeResourcesFitArgs(
  raw: unknown,
  report: (message: string) => void,
): NodeResourcesFitArgs {
  const args = isRecord(raw) ? raw : {};
  if (raw !== undefined && raw !== null && !isRecord(raw)) {
    report('args must be an object');
  }
  const strategy = isRecord(args['scoringStrategy']) ? args['scoringStrategy'] : {};
  let type: ScoringStrategyType = 'LeastAllocated';
  const rawType = strategy['type'];
  if (rawType !== undefined) {
    if (STRATEGIES.includes(rawType as ScoringStrategyType)) {
      type = rawType as ScoringStrategyType;
    } else {
      report(
        `scoringStrategy.type ${JSON.stringify(rawType)} is not one of ${STRATEGIES.join(', ')}; using LeastAllocated`,
      );
    }
  }
  let shape: UtilizationShapePoint[] = [];
  if (type === 'RequestedToCapacityRatio') {
    shape = readShape(strategy['requestedToCapacityRatio'], report);
    if (shape.length === 0) {
      report('scoringStrategy.requestedToCapacityRatio.shape needs at least one point; using LeastAllocated');
      type = 'LeastAllocated';
    }
  }
  return {
    ignoredResources: new Set(readStrings(args['ignoredResources'], 'ignoredResources', report)),
    ignoredResourceGroups: new Set(
      readStrings(args['ignoredResourceGroups'], 'ignoredResourceGroups', report),
    ),
    scoringStrategy: { type, resources: readResources(strategy['resources'], report), shape },
  };
}

/** Reads NodeResourcesBalancedAllocationArgs: its resources (default cpu and memory). */
export function readBalancedAllocationResources(
  raw: unknown,
  report: (message: string) => void,
): ResourceSpec[] {
  return readResources(isRecord(raw) ? raw['resources'] : undefined, report);
}

function readResources(raw: unknown, report: (message: string) => void): ResourceSpec[] {
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) {
    return [...DEFAULT_RESOURCES];
  }
  if (!Array.isArray(raw)) {
    report('resources must be a list of {name, weight}; using cpu and memory');
    return [...DEFAULT_RESOURCES];
  }
  const resources: ResourceSpec[] = [];
  for (const entry of raw as unknown[]) {
    const name = isRecord(entry) ? entry['name'] : undefined;
    const weight = isRecord(entry) ? (entry['weight'] ?? 0) : 0;
    if (typeof name !== 'string' || name === '' || typeof weight !== 'number' || weight < 0 || weight > 100) {
      report(
        `resources entry ${JSON.stringify(entry)} needs a name and a weight from 0 to 100; it is left out`,
      );
      continue;
    }
    resources.push({ name, weight: weight === 0 ? 1 : weight });
  }
  return resources.length > 0 ? resources : [...DEFAULT_RESOURCES];
}

function readShape(raw: unknown, report: (message: string) => void): UtilizationShapePoint[] {
  const points = isRecord(raw) ? raw['shape'] : undefined;
  if (!Array.isArray(points)) {
    return [];
  }
  const shape: UtilizationShapePoint[] = [];
  for (const point of points as unknown[]) {
    const utilization = isRecord(point) ? (point['utilization'] ?? 0) : undefined;
    const score = isRecord(point) ? (point['score'] ?? 0) : undefined;
    const last = shape[shape.length - 1];
    if (
      typeof utilization !== 'number' ||
      typeof score !== 'number' ||
      utilization < 0 ||
      utilization > 100 ||
      score < 0 ||
      score > 10 ||
      (last !== undefined && utilization <= last.utilization)
    ) {
      report(
        `shape point ${JSON.stringify(point)} must have utilization 0..100 (increasing) and score 0..10`,
      );
      return [];
    }
    shape.push({ utilization, score });
  }
  return shape;
}

function readStrings(raw: unknown, field: string, report: (message: string) => void): string[] {
  if (raw === undefined || raw === null) {
    return [];
  }
  if (!Array.isArray(raw) || !(raw as unknown[]).every((item) => typeof item === 'string')) {
    report(`${field} must be a list of strings`);
    return [];
  }
  return raw as string[];
}
