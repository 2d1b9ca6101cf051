/**
 * What-if scenarios: timed steps applied to the simulated cluster. They come from a `kind: Scenario` document of
 * the cluster file (schemas/cluster.schema.json) or from CLI flags; both produce the same steps.
 *
 *   apiVersion: foresight/v1
 *   kind: Scenario
 *   spec:
 *     until: 1800                       # stop the simulation at this time (seconds)
 *     timing: { imagePullSeconds: 20 }  # sim/timing-settings.ts
 *     # timing: { jobPodRunSeconds: 60, jobPodFailures: { default/migrate: { count: 2, exitCode: 1 } } }
 *     steps:
 *       - { at: 60,  drain: { node: worker-1, ignoreDaemonSets: true, deleteEmptyDirData: true, force: false } }
 *       - { at: 300, failNode: { node: worker-2 } }
 *       - { at: 30,  scale: { kind: Deployment, namespace: default, name: web, replicas: 6 } }
 *       - { at: 0,   addNode: { name: worker-4, like: worker-1 } }
 *       - { at: 60,  load: { target: Deployment/web, cpuUtilization: 90 } }          # load-steps.ts
 *       - { at: 120, memoryPressure: { node: worker-1, usage: { Deployment/web: 3Gi } } }
 *     autoscaler: { scanInterval: 10s, scaleDownUnneededTime: 10m, expander: least-waste }  # with NodeGroups
 */
import type { ScenarioStepDetails } from '../../../../protocol/timeline';
import { MAX_EXPANDED_PODS } from '../workloads/types';
import type { ObjectSource } from '../model/source';
import type { DrainOptions } from '../drain/drain-filters';
import { DEFAULT_DRAIN_OPTIONS } from '../drain/drain-filters';
import type { JobPodFailure, NumericTimingKey, TimingSettings } from '../sim/timing-settings';
import { NUMERIC_TIMING_KEYS } from '../sim/timing-settings';
import { parseRfc3339 } from '../model/rfc3339-time';
import type { JsonObject } from '../model/json';
import type { AutoscalerSettings } from '../autoscaler/autoscaler-settings';
import { readAutoscalerSettings } from '../autoscaler/autoscaler-settings';
import { asArray, asObject, isJsonObject, readString } from '../model/json';
import type { LoadAction, MemoryPressureAction } from './load-steps';
import { readLoadAction, readMemoryPressureAction } from './load-steps';
import type { Finding } from '../../../../protocol/finding';
import { engineFinding } from '../model/findings';

/** The apiVersion and kind of a scenario document. */
export const SCENARIO_API_VERSION = 'foresight/v1';
const SCENARIO_KIND = 'Scenario';

/** One what-if step. */
export type ScenarioAction =
  | { readonly type: 'drain'; readonly node: string; readonly options: DrainOptions }
  | { readonly type: 'failNode'; readonly node: string }
  | {
      readonly type: 'scale';
      readonly kind: 'Deployment' | 'StatefulSet' | 'ReplicaSet';
      readonly namespace: string;
      readonly name: string;
      readonly replicas: number;
    }
  | { readonly type: 'addNode'; readonly name: string; readonly like: string | null }
  | LoadAction
  | MemoryPressureAction;

/** Where a step was written, as the timeline's ScenarioStep event names it (protocol/timeline.ts). */
export type ScenarioStepOrigin = Omit<ScenarioStepDetails, 'action'>;

/** A step at a time, with where it was written. */
export interface ScenarioStep {
  readonly at: number;
  readonly action: ScenarioAction;
  readonly source: ObjectSource;
  readonly path: readonly (string | number)[];
  readonly origin: ScenarioStepOrigin;
}

/** A scenario: steps, an optional end time, timing overrides, the cluster autoscaler's settings. */
export interface Scenario {
  readonly steps: readonly ScenarioStep[];
  readonly until: number | null;
  readonly timing: Partial<TimingSettings>;
  /** The cluster autoscaler's flags (autoscaler/autoscaler-settings.ts); it runs when the cluster has NodeGroups. */
  readonly autoscaler?: Partial<AutoscalerSettings>;
}

/** Whether an object is a scenario document. */
export function isScenarioObject(object: unknown): boolean {
  return isJsonObject(object) && object['kind'] === SCENARIO_KIND;
}

/** Reads a scenario document; problems become findings and the faulty parts are left out. */
export function readScenario(object: JsonObject, source: ObjectSource, findings: Finding[]): Scenario {
  const spec = asObject(object['spec']);
  const problem = (path: readonly (string | number)[], message: string): void => {
    findings.push(engineFinding('scenario-invalid', source, path, `Scenario: ${message}`));
  };
  const until = spec['until'];
  if (until !== undefined && !isTime(until)) {
    problem(['spec', 'until'], 'spec.until must be a non-negative number of seconds');
  }
  const timing = readTiming(asObject(spec['timing']), (path, message) =>
    problem(['spec', 'timing', ...path], message),
  );
  const steps: ScenarioStep[] = [];
  const name = readString(asObject(object['metadata'])['name']);
  const origin: ScenarioStepOrigin = {
    from: 'clusterFile',
    source: source.file,
    ...(name === undefined ? {} : { scenario: name }),
  };
  asArray(spec['steps']).forEach((raw, index) => {
    const path = ['spec', 'steps', index];
    const step = asObject(raw);
    const at = step['at'] ?? 0;
    if (!isTime(at)) {
      problem([...path, 'at'], `steps[${index}].at must be a non-negative number of seconds`);
      return;
    }
    const action = readAction(step, (message) => problem(path, `steps[${index}]: ${message}`));
    if (action !== null) {
      steps.push({ at, action, source, path, origin });
    }
  });
  const autoscaler = readAutoscalerSettings(asObject(spec['autoscaler']), (path, message) =>
    problem(['spec', 'autoscaler', ...path], message),
  );
  return { steps, until: isTime(until) ? until : null, timing, autoscaler };
}

/** The keys that name a step's action. */
const STEP_KINDS = ['drain', 'failNode', 'scale', 'addNode', 'load', 'memoryPressure'] as const;

function readAction(step: JsonObject, problem: (message: string) => void): ScenarioAction | null {
  const kinds = STEP_KINDS.filter((key) => step[key] !== undefined);
  if (kinds.length !== 1) {
    problem(`a step needs exactly one of ${STEP_KINDS.join(', ')}`);
    return null;
  }
  const body = asObject(step[kinds[0] ?? '']);
  switch (kinds[0]) {
    case 'drain': {
      const node = readString(body['node']);
      if (node === undefined) {
        problem('drain.node is required');
        return null;
      }
      const flag = (key: keyof DrainOptions): boolean =>
        typeof body[key] === 'boolean' ? body[key] : DEFAULT_DRAIN_OPTIONS[key];
      const options = {
        ignoreDaemonSets: flag('ignoreDaemonSets'),
        deleteEmptyDirData: flag('deleteEmptyDirData'),
        force: flag('force'),
      };
      return { type: 'drain', node, options };
    }
    case 'failNode': {
      const node = readString(body['node']);
      if (node === undefined) {
        problem('failNode.node is required');
        return null;
      }
      return { type: 'failNode', node };
    }
    case 'scale': {
      const kind = body['kind'] ?? 'Deployment';
      const name = readString(body['name']);
      const replicas = body['replicas'];
      if (kind !== 'Deployment' && kind !== 'StatefulSet' && kind !== 'ReplicaSet') {
        problem('scale.kind must be Deployment, StatefulSet or ReplicaSet');
        return null;
      }
      if (name === undefined || typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
        problem('scale needs a name and a non-negative integer replicas');
        return null;
      }
      if (replicas > MAX_EXPANDED_PODS) {
        problem(
          `scale.replicas ${replicas} is more than the ${MAX_EXPANDED_PODS} pods one simulation creates`,
        );
        return null;
      }
      return { type: 'scale', kind, namespace: readString(body['namespace']) ?? 'default', name, replicas };
    }
    case 'load':
    case 'memoryPressure': {
      const action = kinds[0] === 'load' ? readLoadAction(body) : readMemoryPressureAction(body);
      if (typeof action === 'string') {
        problem(action);
        return null;
      }
      return action;
    }
    default: {
      const name = readString(body['name']);
      if (name === undefined) {
        problem('addNode.name is required');
        return null;
      }
      return { type: 'addNode', name, like: readString(body['like']) ?? null };
    }
  }
}

function readTiming(
  timing: JsonObject,
  problem: (path: readonly (string | number)[], message: string) => void,
): Partial<TimingSettings> {
  const result: { -readonly [K in keyof TimingSettings]?: TimingSettings[K] } = {};
  for (const [key, value] of Object.entries(timing)) {
    if ((NUMERIC_TIMING_KEYS as readonly string[]).includes(key)) {
      if (isTime(value)) {
        result[key as NumericTimingKey] = value;
      } else {
        problem([key], `timing.${key} must be a non-negative number of seconds`);
      }
    } else if (key === 'serializeImagePulls' && typeof value === 'boolean') {
      result.serializeImagePulls = value;
    } else if (key === 'imagePullSecondsByImage' && isJsonObject(value)) {
      result.imagePullSecondsByImage = Object.fromEntries(
        Object.entries(value).filter((entry): entry is [string, number] => isTime(entry[1])),
      );
    } else if (key === 'presentImages' && Array.isArray(value)) {
      result.presentImages = value.filter((image): image is string => typeof image === 'string');
    } else if (key === 'jobPodRunSecondsByImage' && isJsonObject(value)) {
      result.jobPodRunSecondsByImage = readSecondsByName(value, (name, message) =>
        problem([key, name], `timing.${key}["${name}"] ${message}`),
      );
    } else if (key === 'jobPodFailures' && isJsonObject(value)) {
      result.jobPodFailures = readJobPodFailures(value, (path, message) => problem([key, ...path], message));
    } else if (key === 'applyTime' && typeof value === 'string' && parseRfc3339(value) !== null) {
      result.applyTime = value;
    } else if (key === 'applyTime') {
      problem([key], 'timing.applyTime must be an RFC 3339 time such as "2026-01-01T00:00:00Z"');
    } else {
      problem([key], `timing.${key} is not a known setting`);
    }
  }
  return result;
}

/** Seconds by image name; entries that are not a non-negative number are reported and left out. */
function readSecondsByName(
  value: JsonObject,
  problem: (name: string, message: string) => void,
): Record<string, number> {
  const result: Record<string, number> = {};
  for (const [name, seconds] of Object.entries(value)) {
    if (isTime(seconds)) {
      result[name] = seconds;
    } else {
      problem(name, 'must be a non-negative number of seconds');
    }
  }
  return result;
}

/** timing.jobPodFailures: {"<namespace>/<Job or CronJob>": {count?, exitCode?}}; bad entries are reported. */
function readJobPodFailures(
  value: JsonObject,
  problem: (path: readonly (string | number)[], message: string) => void,
): Record<string, JobPodFailure> {
  const result: Record<string, JobPodFailure> = {};
  for (const [key, raw] of Object.entries(value)) {
    const where = `timing.jobPodFailures["${key}"]`;
    if (!/^[^/]+\/[^/]+$/.test(key)) {
      problem([key], `${where}: the key must be "<namespace>/<Job or CronJob name>"`);
      continue;
    }
    const entry = asObject(raw);
    const unknown = Object.keys(entry).filter((field) => field !== 'count' && field !== 'exitCode');
    const count = entry['count'];
    const exitCode = entry['exitCode'] ?? 1;
    if (!isJsonObject(raw) || unknown.length > 0) {
      problem([key], `${where} must be an object with count and exitCode`);
    } else if (count !== undefined && !(Number.isInteger(count) && typeof count === 'number' && count >= 0)) {
      problem(
        [key, 'count'],
        `${where}.count must be a non-negative integer (leave it out: every run fails)`,
      );
    } else if (!(
      typeof exitCode === 'number' &&
      Number.isInteger(exitCode) &&
      exitCode >= 1 &&
      exitCode <= 255
    )) {
      problem([key, 'exitCode'], `${where}.exitCode must be an integer from 1 to 255`);
    } else {
      result[key] = { count: typeof count === 'number' ? count : null, exitCode };
    }
  }
  return result;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** The source of steps given on the command line. */
function commandLineSource(flag: string): ObjectSource {
  return { file: '<command line>', documentIndex: 0, path: [flag] };
}

/**
 * Parses a CLI step flag: `--drain NODE[@T]`, `--fail-node NODE[@T]`, `--add-node NAME[=LIKE][@T]`,
 * `--scale [NAMESPACE/]KIND/NAME=REPLICAS[@T]`, `--load [NAMESPACE/]KIND/NAME=PERCENT%|CPU[@T]`. Returns the step
 * or what is wrong.
 */
export function parseStepFlag(flag: string, value: string): ScenarioStep | string {
  const at = value.lastIndexOf('@');
  const body = at >= 0 ? value.slice(0, at) : value;
  const time = at >= 0 ? Number(value.slice(at + 1)) : 0;
  if (!Number.isFinite(time) || time < 0 || body === '') {
    return `${flag} needs VALUE[@SECONDS], not ${JSON.stringify(value)}`;
  }
  const step = (action: ScenarioAction): ScenarioStep => ({
    at: time,
    action,
    source: commandLineSource(flag),
    path: [],
    origin: { from: 'flag', source: `${flag} ${value}` },
  });
  switch (flag) {
    case '--drain':
      return step({ type: 'drain', node: body, options: DEFAULT_DRAIN_OPTIONS });
    case '--fail-node':
      return step({ type: 'failNode', node: body });
    case '--add-node': {
      const [name = '', like] = body.split('=');
      return step({ type: 'addNode', name, like: like ?? null });
    }
    case '--scale': {
      const match = /^(?:([^/=]+)\/)?(Deployment|StatefulSet|ReplicaSet)\/([^/=]+)=(\d+)$/.exec(body);
      if (match === null) {
        return `--scale needs [NAMESPACE/]KIND/NAME=REPLICAS[@SECONDS], not ${JSON.stringify(value)}`;
      }
      const kind = match[2] as 'Deployment' | 'StatefulSet' | 'ReplicaSet';
      if (Number(match[4]) > MAX_EXPANDED_PODS) {
        return `--scale ${match[4]} replicas is more than the ${MAX_EXPANDED_PODS} pods one simulation creates`;
      }
      return step({
        type: 'scale',
        kind,
        namespace: match[1] ?? 'default',
        name: match[3] ?? '',
        replicas: Number(match[4]),
      });
    }
    case '--load': {
      // [NAMESPACE/]KIND/NAME=90% (cpuUtilization) or =1500m (cpu), as a load step writes them.
      const match = /^(?:([^/=]+)\/)?([A-Za-z]+\/[^/=]+)=(?:(\d+(?:\.\d+)?)%|([^%]+))$/.exec(body);
      const action =
        match === null
          ? 'no match'
          : readLoadAction({
              target: match[2],
              ...(match[1] === undefined ? {} : { namespace: match[1] }),
              ...(match[3] === undefined ? { cpu: match[4] } : { cpuUtilization: Number(match[3]) }),
            });
      if (typeof action === 'string') {
        return `--load needs [NAMESPACE/]KIND/NAME=PERCENT% or =CPU, then @SECONDS, not ${JSON.stringify(value)}`;
      }
      return step(action);
    }
    case '--memory-pressure': {
      // NODE:SUBJECT=QUANTITY[,SUBJECT=QUANTITY…], the memory the pods on the node use, as a memoryPressure step
      // writes them (a subject is a pod, [namespace/]name, or a workload, [namespace/]Kind/name).
      const colon = body.indexOf(':');
      const usage: Record<string, string> = {};
      for (const entry of colon < 0 ? [] : body.slice(colon + 1).split(',')) {
        const equals = entry.lastIndexOf('=');
        if (equals > 0) {
          usage[entry.slice(0, equals)] = entry.slice(equals + 1);
        }
      }
      const action =
        colon <= 0 || Object.keys(usage).length === 0
          ? 'no match'
          : readMemoryPressureAction({ node: body.slice(0, colon), usage });
      if (typeof action === 'string') {
        return `--memory-pressure needs NODE:SUBJECT=MEMORY[,SUBJECT=MEMORY…][@SECONDS] (a subject is a pod or [NAMESPACE/]KIND/NAME), not ${JSON.stringify(value)}${action === 'no match' ? '' : `: ${action}`}`;
      }
      return step(action);
    }
    default:
      return `unknown scenario flag ${flag}`;
  }
}
