/**
 * NodeResourcesFitArgs and NodeResourcesBalancedAllocationArgs: types, defaults (SetDefaults_NodeResourcesFitArgs,
 * SetDefaults_NodeResourcesBalancedAllocationArgs) and validation (ValidateNodeResourcesFitArgs,
 * ValidateNodeResourcesBalancedAllocationArgs), in the kubescheduler.config.k8s.io/v1 JSON shape.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/apis/config/v1/defaults.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/apis/config/validation/validation_pluginargs.go
 */
import type { ArgsReader, ParsedArgs } from './args-reader';
import { ArgsReader as Reader, asArgsObject } from './args-reader';
import type { ConfigPath } from './field-errors';
import {
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldRequired,
  fieldNotSupported,
} from './field-errors';

/** A resource and its weight in a scoring strategy. */
export interface ResourceSpec {
  readonly name: string;
  readonly weight: number;
}

/** A point of a RequestedToCapacityRatio shape: utilization 0..100 → score 0..10. */
export interface UtilizationShapePoint {
  readonly utilization: number;
  readonly score: number;
}

/** The scoring strategies of NodeResourcesFit. */
const SCORING_STRATEGY_TYPES = ['LeastAllocated', 'MostAllocated', 'RequestedToCapacityRatio'] as const;

/** One scoring strategy type. */
export type ScoringStrategyType = (typeof SCORING_STRATEGY_TYPES)[number];

/** NodeResourcesFitArgs, defaulted. */
export interface NodeResourcesFitArgs {
  readonly ignoredResources: readonly string[];
  readonly ignoredResourceGroups: readonly string[];
  readonly scoringStrategy: {
    readonly type: ScoringStrategyType;
    readonly resources: readonly ResourceSpec[];
    readonly requestedToCapacityRatio?: { readonly shape: readonly UtilizationShapePoint[] };
  };
}

/** NodeResourcesBalancedAllocationArgs, defaulted. */
export interface NodeResourcesBalancedAllocationArgs {
  readonly resources: readonly ResourceSpec[];
}

/** cpu and memory, weight 1 each: the default resources of both plugins. */
const DEFAULT_RESOURCE_SPEC: readonly ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

/** NodeResourcesFit's defaults: LeastAllocated over cpu and memory. */
export const DEFAULT_NODE_RESOURCES_FIT_ARGS: NodeResourcesFitArgs = {
  ignoredResources: [],
  ignoredResourceGroups: [],
  scoringStrategy: { type: 'LeastAllocated', resources: DEFAULT_RESOURCE_SPEC },
};

/** NodeResourcesBalancedAllocation's defaults: cpu and memory. */
export const DEFAULT_BALANCED_ALLOCATION_ARGS: NodeResourcesBalancedAllocationArgs = {
  resources: DEFAULT_RESOURCE_SPEC,
};

/** The highest score of a shape point (config.MaxCustomPriorityScore). */
const MAX_CUSTOM_PRIORITY_SCORE = 10;
const QUALIFIED_NAME =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** Reads NodeResourcesFitArgs; `base` is the path of the args object. */
export function readNodeResourcesFitArgs(
  raw: unknown,
  base: ConfigPath = [],
): ParsedArgs<NodeResourcesFitArgs> {
  const reader = new Reader(base);
  const args = asArgsObject(raw);
  const ignoredResources = readNames(reader, args['ignoredResources'], 'ignoredResources', false);
  const ignoredResourceGroups = readNames(
    reader,
    args['ignoredResourceGroups'],
    'ignoredResourceGroups',
    true,
  );
  const rawStrategy = args['scoringStrategy'];
  let scoringStrategy = DEFAULT_NODE_RESOURCES_FIT_ARGS.scoringStrategy;
  if (rawStrategy !== undefined && rawStrategy !== null) {
    const strategy = asArgsObject(rawStrategy);
    // Defaulting fills a missing strategy, not a missing type inside a given one (which validation refuses).
    const typeValue = strategy['type'] ?? '';
    const type = SCORING_STRATEGY_TYPES.find((candidate) => candidate === typeValue);
    if (type === undefined) {
      reader.report(
        ['scoringStrategy', 'type'],
        fieldNotSupported(reader.at('scoringStrategy', 'type'), typeValue, SCORING_STRATEGY_TYPES),
      );
    }
    const resources = readResources(reader, strategy['resources'], ['scoringStrategy', 'resources'], 'range');
    const ratio = strategy['requestedToCapacityRatio'];
    let requestedToCapacityRatio: { shape: UtilizationShapePoint[] } | undefined;
    if (type === 'RequestedToCapacityRatio') {
      if (ratio === undefined || ratio === null) {
        const path = ['scoringStrategy', 'requestedToCapacityRatio'];
        reader.report(
          path,
          fieldRequired(reader.at(...path), 'must be specified when type is RequestedToCapacityRatio'),
        );
      } else {
        const shape = readShape(reader, asArgsObject(ratio)['shape'], [
          'scoringStrategy',
          'requestedToCapacityRatio',
          'shape',
        ]);
        requestedToCapacityRatio = { shape };
      }
    } else if (ratio !== undefined && ratio !== null) {
      const path = ['scoringStrategy', 'requestedToCapacityRatio'];
      reader.report(
        path,
        fieldForbidden(reader.at(...path), 'must be nil when type is not RequestedToCapacityRatio'),
      );
    }
    scoringStrategy = {
      type: type ?? 'LeastAllocated',
      resources,
      ...(requestedToCapacityRatio === undefined ? {} : { requestedToCapacityRatio }),
    };
  }
  return reader.result(
    { ignoredResources, ignoredResourceGroups, scoringStrategy },
    DEFAULT_NODE_RESOURCES_FIT_ARGS,
  );
}

/** Reads NodeResourcesBalancedAllocationArgs; `base` is the path of the args object. */
export function readBalancedAllocationArgs(
  raw: unknown,
  base: ConfigPath = [],
): ParsedArgs<NodeResourcesBalancedAllocationArgs> {
  const reader = new Reader(base);
  const resources = readResources(reader, asArgsObject(raw)['resources'], ['resources'], 'one');
  return reader.result({ resources }, DEFAULT_BALANCED_ALLOCATION_ARGS);
}

/**
 * Resources with weights: the default cpu/memory pair when none; a missing or 0 weight becomes 1. NodeResourcesFit
 * accepts weights in (0, 100]; BalancedAllocation only 1, and no resource twice.
 */
function readResources(
  reader: ArgsReader,
  value: unknown,
  path: ConfigPath,
  rule: 'range' | 'one',
): ResourceSpec[] {
  const list = reader.list(value, path);
  if (list.length === 0) {
    return [...DEFAULT_RESOURCE_SPEC];
  }
  const seen = new Set<string>();
  return list.map((item, index) => {
    const entry = asArgsObject(item);
    const name = reader.string(entry['name'], [...path, index, 'name']) ?? '';
    const weight = reader.integer(entry['weight'], [...path, index, 'weight'], 0) || 1;
    const weightPath = [...path, index, 'weight'];
    if (rule === 'range' && (weight <= 0 || weight > 100)) {
      reader.report(
        weightPath,
        fieldInvalid(
          reader.at(...weightPath),
          weight,
          `resource weight of ${name} not in valid range (0, 100]`,
        ),
      );
    }
    if (rule === 'one') {
      if (seen.has(name)) {
        reader.report([...path, index, 'name'], fieldDuplicate(reader.at(...path, index, 'name'), name));
      }
      if (weight !== 1) {
        reader.report(weightPath, fieldInvalid(reader.at(...weightPath), weight, 'must be 1'));
      }
    }
    seen.add(name);
    return { name, weight };
  });
}

/** validateFunctionShape: at least one point, utilization increasing within [0, 100], score within [0, 10]. */
function readShape(reader: ArgsReader, value: unknown, path: ConfigPath): UtilizationShapePoint[] {
  const points = reader.list(value, path).map((item, index) => {
    const entry = asArgsObject(item);
    return {
      utilization: reader.integer(entry['utilization'], [...path, index, 'utilization'], 0),
      score: reader.integer(entry['score'], [...path, index, 'score'], 0),
    };
  });
  if (points.length === 0) {
    reader.report(path, fieldRequired(reader.at(...path), 'at least one point must be specified'));
    return points;
  }
  const unsorted = points.findIndex(
    (point, index) => index > 0 && (points[index - 1]?.utilization ?? 0) >= point.utilization,
  );
  if (unsorted > 0) {
    const at = [...path, unsorted, 'utilization'];
    reader.report(
      at,
      fieldInvalid(
        reader.at(...at),
        points[unsorted]?.utilization,
        'values must be sorted in increasing order',
      ),
    );
  }
  points.forEach((point, index) => {
    if (point.utilization < 0 || point.utilization > 100) {
      const at = [...path, index, 'utilization'];
      reader.report(at, fieldInvalid(reader.at(...at), point.utilization, 'not in valid range [0, 100]'));
    }
    if (point.score < 0 || point.score > MAX_CUSTOM_PRIORITY_SCORE) {
      const at = [...path, index, 'score'];
      reader.report(
        at,
        fieldInvalid(reader.at(...at), point.score, `not in valid range [0, ${MAX_CUSTOM_PRIORITY_SCORE}]`),
      );
    }
  });
  return points;
}

/** ignoredResources (label names) and ignoredResourceGroups (label names without "/"). */
function readNames(reader: ArgsReader, value: unknown, field: string, isGroup: boolean): string[] {
  return reader.list(value, [field]).flatMap((item, index) => {
    const name = reader.string(item, [field, index]);
    if (name === undefined) {
      return [];
    }
    if (isGroup && name.includes('/')) {
      reader.report(
        [field, index],
        fieldInvalid(reader.at(field, index), name, "resource group name can't contain '/'"),
      );
    } else if (!QUALIFIED_NAME.test(name) || name.length > 316) {
      reader.report(
        [field, index],
        fieldInvalid(reader.at(field, index), name, 'must be a valid label name'),
      );
    }
    return [name];
  });
}
