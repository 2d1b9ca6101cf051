/**
 * PodTopologySpreadArgs, InterPodAffinityArgs and DefaultPreemptionArgs: types, defaults and validation as
 * kube-scheduler applies them, in the kubescheduler.config.k8s.io/v1 JSON shape.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/apis/config/v1/defaults.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/apis/config/validation/validation_pluginargs.go
 */
import type { ParsedArgs } from './args-reader';
import { ArgsReader, asArgsObject } from './args-reader';
import type { ConfigPath } from './field-errors';
import {
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldRequired,
  fieldNotSupported,
} from './field-errors';

/** A default topology spread constraint (no labelSelector: it is derived from each pod's owner). */
export interface DefaultSpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
}

/** PodTopologySpreadArgs, defaulted. */
export interface PodTopologySpreadArgs {
  readonly defaultConstraints: readonly DefaultSpreadConstraint[];
  /** System: the built-in SYSTEM_DEFAULT_CONSTRAINTS apply; List: defaultConstraints apply. */
  readonly defaultingType: 'System' | 'List';
}

/** InterPodAffinityArgs, defaulted. */
export interface InterPodAffinityArgs {
  readonly hardPodAffinityWeight: number;
  readonly ignorePreferredTermsOfExistingPods: boolean;
}

/** DefaultPreemptionArgs, defaulted. */
export interface DefaultPreemptionArgs {
  readonly minCandidateNodesPercentage: number;
  readonly minCandidateNodesAbsolute: number;
}

/**
 * The constraints PodTopologySpread applies to pods that set none when defaultingType is System
 * (systemDefaultConstraints in pkg/scheduler/framework/plugins/podtopologyspread/plugin.go).
 */
export const SYSTEM_DEFAULT_CONSTRAINTS: readonly DefaultSpreadConstraint[] = [
  { topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
];

/** PodTopologySpread's defaults. */
export const DEFAULT_POD_TOPOLOGY_SPREAD_ARGS: PodTopologySpreadArgs = {
  defaultConstraints: [],
  defaultingType: 'System',
};
/** InterPodAffinity's defaults. */
export const DEFAULT_INTER_POD_AFFINITY_ARGS: InterPodAffinityArgs = {
  hardPodAffinityWeight: 1,
  ignorePreferredTermsOfExistingPods: false,
};
/** DefaultPreemption's defaults. */
export const DEFAULT_PREEMPTION_ARGS: DefaultPreemptionArgs = {
  minCandidateNodesPercentage: 10,
  minCandidateNodesAbsolute: 100,
};

const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'] as const;
const LABEL_NAME =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** Reads PodTopologySpreadArgs; `base` is the path of the args object. */
export function readPodTopologySpreadArgs(
  raw: unknown,
  base: ConfigPath = [],
): ParsedArgs<PodTopologySpreadArgs> {
  const reader = new ArgsReader(base);
  const args = asArgsObject(raw);
  const rawType = args['defaultingType'] ?? 'System';
  const constraints = reader.list(args['defaultConstraints'], ['defaultConstraints']);
  if (rawType !== 'System' && rawType !== 'List') {
    reader.report(
      ['defaultingType'],
      fieldNotSupported(reader.at('defaultingType'), rawType, ['System', 'List']),
    );
  } else if (rawType === 'System' && constraints.length > 0) {
    reader.report(
      ['defaultingType'],
      fieldInvalid(reader.at('defaultingType'), rawType, 'when .defaultConstraints are not empty'),
    );
  }
  const seen = new Set<string>();
  const defaultConstraints = constraints.map((item, index): DefaultSpreadConstraint => {
    const entry = asArgsObject(item);
    const at = (field: string): ConfigPath => ['defaultConstraints', index, field];
    const maxSkew = reader.integer(entry['maxSkew'], at('maxSkew'), 0);
    if (maxSkew <= 0) {
      reader.report(
        at('maxSkew'),
        fieldInvalid(reader.at(...at('maxSkew')), maxSkew, 'not in valid range (0, inf)'),
      );
    }
    const topologyKey = reader.string(entry['topologyKey'], at('topologyKey')) ?? '';
    if (topologyKey === '') {
      reader.report(at('topologyKey'), fieldRequired(reader.at(...at('topologyKey')), 'can not be empty'));
    } else if (!LABEL_NAME.test(topologyKey)) {
      reader.report(
        at('topologyKey'),
        fieldInvalid(reader.at(...at('topologyKey')), topologyKey, 'must be a valid label name'),
      );
    }
    const action = entry['whenUnsatisfiable'];
    if (action === undefined || action === null || action === '') {
      reader.report(
        at('whenUnsatisfiable'),
        fieldRequired(reader.at(...at('whenUnsatisfiable')), 'can not be empty'),
      );
    } else if (action !== 'DoNotSchedule' && action !== 'ScheduleAnyway') {
      const path = reader.at(...at('whenUnsatisfiable'));
      reader.report(at('whenUnsatisfiable'), fieldNotSupported(path, action, WHEN_UNSATISFIABLE));
    }
    if (entry['labelSelector'] !== undefined && entry['labelSelector'] !== null) {
      const path = reader.at(...at('labelSelector'));
      reader.report(
        at('labelSelector'),
        fieldForbidden(path, 'constraint must not define a selector, as they deduced for each pod'),
      );
    }
    const key = `{${topologyKey}, ${String(action)}}`;
    if (seen.has(key)) {
      reader.report(
        ['defaultConstraints', index],
        fieldDuplicate(reader.at('defaultConstraints', index), key),
      );
    }
    seen.add(key);
    const whenUnsatisfiable = action === 'DoNotSchedule' ? 'DoNotSchedule' : 'ScheduleAnyway';
    return { maxSkew, topologyKey, whenUnsatisfiable };
  });
  const defaultingType = rawType === 'List' ? 'List' : 'System';
  return reader.result({ defaultConstraints, defaultingType }, DEFAULT_POD_TOPOLOGY_SPREAD_ARGS);
}

/** Reads InterPodAffinityArgs; `base` is the path of the args object. */
export function readInterPodAffinityArgs(
  raw: unknown,
  base: ConfigPath = [],
): ParsedArgs<InterPodAffinityArgs> {
  const reader = new ArgsReader(base);
  const args = asArgsObject(raw);
  const hardPodAffinityWeight = reader.integer(args['hardPodAffinityWeight'], ['hardPodAffinityWeight'], 1);
  if (hardPodAffinityWeight < 0 || hardPodAffinityWeight > 100) {
    const path = reader.at('hardPodAffinityWeight');
    reader.report(
      ['hardPodAffinityWeight'],
      fieldInvalid(path, hardPodAffinityWeight, 'not in valid range [0, 100]'),
    );
  }
  const ignore = args['ignorePreferredTermsOfExistingPods'] ?? false;
  if (typeof ignore !== 'boolean') {
    const path = reader.at('ignorePreferredTermsOfExistingPods');
    reader.report(['ignorePreferredTermsOfExistingPods'], fieldInvalid(path, ignore, 'must be a boolean'));
  }
  return reader.result(
    { hardPodAffinityWeight, ignorePreferredTermsOfExistingPods: ignore === true },
    DEFAULT_INTER_POD_AFFINITY_ARGS,
  );
}

/** Reads DefaultPreemptionArgs; `base` is the path of the args object. */
export function readDefaultPreemptionArgs(
  raw: unknown,
  base: ConfigPath = [],
): ParsedArgs<DefaultPreemptionArgs> {
  const reader = new ArgsReader(base);
  const args = asArgsObject(raw);
  const percentage = reader.integer(args['minCandidateNodesPercentage'], ['minCandidateNodesPercentage'], 10);
  const absolute = reader.integer(args['minCandidateNodesAbsolute'], ['minCandidateNodesAbsolute'], 100);
  const percentagePath = reader.at('minCandidateNodesPercentage');
  const absolutePath = reader.at('minCandidateNodesAbsolute');
  if (percentage < 0 || percentage > 100) {
    reader.report(
      ['minCandidateNodesPercentage'],
      fieldInvalid(percentagePath, percentage, 'not in valid range [0, 100]'),
    );
  }
  if (absolute < 0) {
    reader.report(
      ['minCandidateNodesAbsolute'],
      fieldInvalid(absolutePath, absolute, 'not in valid range [0, inf)'),
    );
  }
  if (percentage === 0 && absolute === 0) {
    const both = 'cannot be zero at the same time as';
    reader.report(
      ['minCandidateNodesPercentage'],
      fieldInvalid(percentagePath, 0, `${both} minCandidateNodesAbsolute`),
    );
    reader.report(
      ['minCandidateNodesAbsolute'],
      fieldInvalid(absolutePath, 0, `${both} minCandidateNodesPercentage`),
    );
  }
  return reader.result(
    { minCandidateNodesPercentage: percentage, minCandidateNodesAbsolute: absolute },
    DEFAULT_PREEMPTION_ARGS,
  );
}
