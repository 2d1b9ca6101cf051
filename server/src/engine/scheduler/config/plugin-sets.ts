/**
 * Reads a profile's `plugins` (multiPoint and each extension point) and checks each plugin as kube-scheduler's
 * validation and NewFramework would: removed plugins, names it does not know, plugins listed at an extension
 * point they do not implement or twice at one point, negative score weights. What fails a check is reported
 * and left out, so the profile that remains is one the engine can run.
 */
import type { KubernetesMinor } from '../../version';
import type { PluginRef, PluginSet } from '../profile';
import { asArgsObject } from './args-reader';
import type { ConfigPath } from './field-errors';
import { fieldInvalid } from './field-errors';
import type { ConfigFindings } from './findings';
import {
  CONFIG_EXTENSION_POINTS,
  PLUGIN_INTERFACE_NAMES,
  REMOVED_PLUGINS,
  REPLACED_PLUGINS,
  pluginExtensionPoints,
} from './in-tree-plugins';
import type { ConfigExtensionPoint } from './in-tree-plugins';
import { formatFieldPath } from '../../../../../protocol/finding';

/** The plugin sets a profile writes, checked but not yet merged with the defaults. */
interface ProfilePluginSets {
  readonly multiPoint: PluginSet;
  readonly points: Partial<Record<ConfigExtensionPoint, PluginSet>>;
}

const CONFIG_API_VERSION = 'kubescheduler.config.k8s.io/v1';

/** Reads `profiles[i].plugins`; `base` is its path. */
export function readProfilePlugins(
  value: unknown,
  base: ConfigPath,
  version: KubernetesMinor,
  findings: ConfigFindings,
): ProfilePluginSets {
  const plugins = asArgsObject(value);
  const multiPoint = readPluginSet(
    plugins['multiPoint'],
    [...base, 'multiPoint'],
    'multiPoint',
    version,
    findings,
  );
  const points: Partial<Record<ConfigExtensionPoint, PluginSet>> = {};
  for (const point of CONFIG_EXTENSION_POINTS) {
    if (plugins[point] !== undefined && plugins[point] !== null) {
      points[point] = readPluginSet(plugins[point], [...base, point], point, version, findings);
    }
  }
  return { multiPoint, points };
}

function readPluginSet(
  value: unknown,
  base: ConfigPath,
  point: ConfigExtensionPoint | 'multiPoint',
  version: KubernetesMinor,
  findings: ConfigFindings,
): PluginSet {
  const set = asArgsObject(value);
  const enabled: PluginRef[] = [];
  const seen = new Set<string>();
  for (const [index, item] of listAt(set['enabled'], [...base, 'enabled'], findings).entries()) {
    const path = [...base, 'enabled', index];
    const name = readName(item, path, findings);
    if (name === undefined || !isUsable(name, path, point, version, findings)) {
      continue;
    }
    if (seen.has(name)) {
      const registeredAs = point === 'multiPoint' ? 'MultiPoint' : PLUGIN_INTERFACE_NAMES[point];
      const message = `${formatFieldPath(path)}: plugin ${JSON.stringify(name)} already registered as ${JSON.stringify(registeredAs)}`;
      findings.add('scheduler-config-misplaced-plugin', path, message);
      continue;
    }
    seen.add(name);
    const weight = readWeight(asArgsObject(item)['weight'], [...path, 'weight'], findings);
    enabled.push(weight === undefined ? { name } : { name, weight });
  }
  const disabled: string[] = [];
  for (const [index, item] of listAt(set['disabled'], [...base, 'disabled'], findings).entries()) {
    const name = readName(item, [...base, 'disabled', index], findings);
    if (name !== undefined) {
      disabled.push(name);
    }
  }
  return { enabled, disabled };
}

/** Whether a named plugin can be kept at this point; reports why not. */
function isUsable(
  name: string,
  path: ConfigPath,
  point: ConfigExtensionPoint | 'multiPoint',
  version: KubernetesMinor,
  findings: ConfigFindings,
): boolean {
  if (REMOVED_PLUGINS.includes(name)) {
    const detail = `was invalid in version "${CONFIG_API_VERSION}" (KubeSchedulerConfiguration is version "${CONFIG_API_VERSION}")`;
    findings.add('scheduler-config-removed-plugin', path, fieldInvalid(path, name, detail));
    return false;
  }
  const points = pluginExtensionPoints(name, version);
  if (points === undefined) {
    const kind = point === 'multiPoint' ? 'plugin' : PLUGIN_INTERFACE_NAMES[point];
    const replaced = REPLACED_PLUGINS[name];
    const hint = replaced === undefined ? '' : ` (it was replaced by ${replaced})`;
    const message =
      `${formatFieldPath(path)}: ${kind} ${JSON.stringify(name)} does not exist${hint}: kube-scheduler ${version} ` +
      'would refuse this configuration unless built with that plugin; the engine leaves it out';
    findings.add('scheduler-config-unknown-plugin', path, message);
    return false;
  }
  if (point !== 'multiPoint' && !points.includes(point)) {
    const message = `${formatFieldPath(path)}: plugin ${JSON.stringify(name)} does not extend ${PLUGIN_INTERFACE_NAMES[point]} plugin`;
    findings.add('scheduler-config-misplaced-plugin', path, message);
    return false;
  }
  return true;
}

/** A plugin's name ({ name: "X" }), reported when missing. */
function readName(item: unknown, path: ConfigPath, findings: ConfigFindings): string | undefined {
  const name = asArgsObject(item)['name'];
  if (typeof name === 'string' && name !== '') {
    return name;
  }
  findings.add(
    'scheduler-config-invalid-field',
    [...path, 'name'],
    fieldInvalid([...path, 'name'], name ?? null, 'must be a plugin name'),
  );
  return undefined;
}

/** A score weight: absent or 0 means the default (1 at scoring); negative or fractional ones are reported. */
function readWeight(value: unknown, path: ConfigPath, findings: ConfigFindings): number | undefined {
  if (value === undefined || value === null || value === 0) {
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    findings.add('scheduler-config-invalid-field', path, fieldInvalid(path, value, 'must be an integer'));
    return undefined;
  }
  if (value < 0) {
    const detail =
      'must not be negative (it would turn the plugin’s preference around); the default weight is used';
    findings.add('scheduler-config-invalid-weight', path, fieldInvalid(path, value, detail));
    return undefined;
  }
  return value;
}

function listAt(value: unknown, path: ConfigPath, findings: ConfigFindings): readonly unknown[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value)) {
    findings.add('scheduler-config-invalid-field', path, fieldInvalid(path, value, 'must be a list'));
    return [];
  }
  return value;
}
