/**
 * Parses a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1, plain JSON) into the profiles the engine
 * runs, applying kube-scheduler's defaulting and validation:
 *   - no profiles: one default profile; a single unnamed profile is "default-scheduler"
 *     (SetDefaults_KubeSchedulerConfiguration);
 *   - each profile's plugin sets merged over the defaults (merge-plugins.ts), its plugins checked
 *     (plugin-sets.ts);
 *   - percentageOfNodesToScore within [0, 100], the profile's value overriding the global one;
 *   - pluginConfig args read, defaulted and validated (plugin-args.ts); every enabled plugin with an args type
 *     gets its defaults when not configured.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/apis/config/v1/defaults.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/apis/config/validation/validation.go
 *
 * Never throws: problems are findings, and what is wrong is left out or replaced by its default. Left out:
 * strict decoding of unknown fields, extenders, leader election and client settings (no effect on placement),
 * and the extension points the engine does not run (read and checked, not returned).
 */
import type { ObjectSource } from '../../model/source';
import type { KubernetesMinor } from '../../version';
import { DEFAULT_KUBERNETES_VERSION } from '../../version';
import { DEFAULT_SCHEDULER_NAME, EXTENSION_POINTS } from '../profile';
import type { PluginSet, SchedulerProfile } from '../profile';
import { asArgsObject } from './args-reader';
import { defaultMultiPointPlugins } from './default-profile';
import type { ConfigPath } from './field-errors';
import { fieldDuplicate, fieldInvalid, fieldRequired } from './field-errors';
import { ConfigFindings } from './findings';
import { EMPTY_PLUGIN_SET, mergePluginSet } from './merge-plugins';
import { PLUGINS_WITH_ARGS, defaultPluginArgs, readPluginArgs } from './plugin-args';
import { readProfilePlugins } from './plugin-sets';
import { REMOVED_PLUGINS } from './in-tree-plugins';
import type { Finding } from '../../../../../protocol/finding';

/** The configuration's profiles, ready for the framework, and what was wrong with it. */
export interface ParsedSchedulerConfiguration {
  readonly profiles: readonly SchedulerProfile[];
  readonly findings: readonly Finding[];
}

/** Options: the Kubernetes version whose defaults apply. */
export interface ParseSchedulerConfigurationOptions {
  readonly version?: KubernetesMinor;
}

const API_VERSION = 'kubescheduler.config.k8s.io/v1';
const REMOVED_API_VERSIONS: Readonly<Record<string, string>> = {
  'kubescheduler.config.k8s.io/v1beta2': '1.28',
  'kubescheduler.config.k8s.io/v1beta3': '1.29',
};

/** Parses a KubeSchedulerConfiguration object. */
export function parseSchedulerConfiguration(
  object: unknown,
  source: ObjectSource,
  options: ParseSchedulerConfigurationOptions = {},
): ParsedSchedulerConfiguration {
  const version = options.version ?? DEFAULT_KUBERNETES_VERSION;
  const findings = new ConfigFindings(source);
  const config = asArgsObject(object);
  checkApiVersion(config['apiVersion'], findings);
  const globalPercentage = readPercentage(
    config['percentageOfNodesToScore'],
    ['percentageOfNodesToScore'],
    findings,
  );
  const rawProfiles =
    Array.isArray(config['profiles']) && config['profiles'].length > 0 ? config['profiles'] : [{}];
  const profiles: SchedulerProfile[] = [];
  const namesSeen = new Map<string, number>();
  rawProfiles.forEach((item: unknown, index) => {
    const base = ['profiles', index];
    const raw = asArgsObject(item);
    const named = raw['schedulerName'];
    const schedulerName =
      typeof named === 'string' && named !== ''
        ? named
        : rawProfiles.length === 1
          ? DEFAULT_SCHEDULER_NAME
          : undefined;
    if (schedulerName === undefined) {
      findings.add(
        'scheduler-config-invalid-profile',
        [...base, 'schedulerName'],
        fieldRequired([...base, 'schedulerName']),
      );
      return;
    }
    const previous = namesSeen.get(schedulerName);
    if (previous !== undefined) {
      const path = [...base, 'schedulerName'];
      findings.add(
        'scheduler-config-invalid-profile',
        path,
        fieldDuplicate(path, `profiles[${previous}].schedulerName`),
      );
      return;
    }
    namesSeen.set(schedulerName, index);
    const percentage = readPercentage(
      raw['percentageOfNodesToScore'],
      [...base, 'percentageOfNodesToScore'],
      findings,
    );
    profiles.push(
      readProfile(raw, base, schedulerName, percentage ?? globalPercentage, version, source, findings),
    );
  });
  checkCommonQueueSort(rawProfiles, findings);
  return { profiles, findings: findings.list };
}

function readProfile(
  raw: Record<string, unknown>,
  base: ConfigPath,
  schedulerName: string,
  percentageOfNodesToScore: number | undefined,
  version: KubernetesMinor,
  source: ObjectSource,
  findings: ConfigFindings,
): SchedulerProfile {
  const sets = readProfilePlugins(raw['plugins'], [...base, 'plugins'], version, findings);
  const multiPoint = mergePluginSet(
    { enabled: defaultMultiPointPlugins(version), disabled: [] },
    sets.multiPoint,
  );
  const plugins: { multiPoint: PluginSet } & Partial<Record<(typeof EXTENSION_POINTS)[number], PluginSet>> = {
    multiPoint,
  };
  const enabledNames = new Set(multiPoint.enabled.map((ref) => ref.name));
  for (const point of EXTENSION_POINTS) {
    const set = sets.points[point];
    if (set !== undefined) {
      plugins[point] = mergePluginSet(EMPTY_PLUGIN_SET, set);
      set.enabled.forEach((ref) => enabledNames.add(ref.name));
    }
  }
  const pluginConfig = readPluginConfig(raw['pluginConfig'], [...base, 'pluginConfig'], findings);
  for (const name of PLUGINS_WITH_ARGS) {
    if (enabledNames.has(name) && !(name in pluginConfig)) {
      pluginConfig[name] = defaultPluginArgs(name);
    }
  }
  return {
    schedulerName,
    ...(percentageOfNodesToScore === undefined ? {} : { percentageOfNodesToScore }),
    plugins,
    pluginConfig,
    source: { ...source, path: [...source.path, ...base] },
  };
}

/** pluginConfig: one args object per plugin name; known args are defaulted and validated. */
function readPluginConfig(
  value: unknown,
  base: ConfigPath,
  findings: ConfigFindings,
): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (!Array.isArray(value)) {
    if (value !== undefined && value !== null) {
      findings.add('scheduler-config-invalid-field', base, fieldInvalid(base, value, 'must be a list'));
    }
    return config;
  }
  value.forEach((item: unknown, index) => {
    const path = [...base, index];
    const entry = asArgsObject(item);
    const name = entry['name'];
    if (typeof name !== 'string' || name === '') {
      findings.add('scheduler-config-invalid-field', [...path, 'name'], fieldRequired([...path, 'name']));
      return;
    }
    if (name in config) {
      findings.add('scheduler-config-invalid-field', path, fieldDuplicate(path, name));
      return;
    }
    if (REMOVED_PLUGINS.includes(name)) {
      const detail = `was invalid in version "${API_VERSION}" (KubeSchedulerConfiguration is version "${API_VERSION}")`;
      findings.add('scheduler-config-removed-plugin', path, fieldInvalid(path, name, detail));
      return;
    }
    const parsed = readPluginArgs(name, entry['args'], [...path, 'args']);
    if (parsed === undefined) {
      config[name] = entry['args'];
      return;
    }
    for (const problem of parsed.problems) {
      findings.add(
        'scheduler-config-invalid-plugin-args',
        problem.path,
        `${problem.message} (the ${name} defaults are used)`,
      );
    }
    config[name] = parsed.args;
  });
  return config;
}

/** percentageOfNodesToScore: an integer in [0, 100] (0: adaptive); anything else is reported and ignored. */
function readPercentage(value: unknown, path: ConfigPath, findings: ConfigFindings): number | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 100) {
    findings.add(
      'scheduler-config-invalid-field',
      path,
      fieldInvalid(path, value, 'not in valid range [0-100]'),
    );
    return undefined;
  }
  return value;
}

function checkApiVersion(apiVersion: unknown, findings: ConfigFindings): void {
  if (apiVersion === API_VERSION) {
    return;
  }
  const removedIn = typeof apiVersion === 'string' ? REMOVED_API_VERSIONS[apiVersion] : undefined;
  const detail =
    removedIn === undefined
      ? `kube-scheduler reads ${API_VERSION}`
      : `this version was removed in Kubernetes ${removedIn}; use ${API_VERSION}`;
  findings.add(
    'scheduler-config-unsupported-version',
    ['apiVersion'],
    fieldInvalid(['apiVersion'], apiVersion ?? null, detail),
  );
}

/** validateCommonQueueSort: every profile must use the same queueSort plugins, since there is one queue. */
function checkCommonQueueSort(profiles: readonly unknown[], findings: ConfigFindings): void {
  const queueSortOf = (profile: unknown) =>
    JSON.stringify(asArgsObject(asArgsObject(profile)['plugins'])['queueSort'] ?? null);
  const first = queueSortOf(profiles[0]);
  profiles.forEach((profile, index) => {
    if (index > 0 && queueSortOf(profile) !== first) {
      const path = ['profiles', index, 'plugins', 'queueSort'];
      const value = asArgsObject(asArgsObject(profile)['plugins'])['queueSort'] ?? null;
      findings.add(
        'scheduler-config-invalid-profile',
        path,
        fieldInvalid(path, value, 'must be the same for all profiles'),
      );
    }
  });
}
