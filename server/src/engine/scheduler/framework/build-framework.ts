/**
 * Builds a framework from a profile: instantiates each named plugin once from the registry and places it at the
 * extension points it implements, as NewFramework and expandMultiPointPlugins do upstream:
 *   1. plugins enabled explicitly at an extension point that are also in multiPoint (overrides), in the order
 *      they are listed at that point;
 *   2. the other multiPoint plugins that implement the point and are not disabled there;
 *   3. the remaining explicitly enabled plugins.
 * A plugin the registry lacks is reported (not thrown): quietly when it is a default the engine does not model
 * (NOT_MODELLED_PLUGINS), as an 'plugin-not-modelled' finding otherwise.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/runtime/framework.go
 */
import type { Cluster } from '../../model/snapshot/cluster';
import { engineFinding } from '../../model/findings';
import type { ObjectSource } from '../../model/source';
import type { KubernetesMinor } from '../../version';
import { EXTENSION_POINTS, NOT_MODELLED_PLUGINS } from '../profile';
import type { ExtensionPoint, PluginRef, SchedulerProfile } from '../profile';
import type { PluginRegistry } from '../registry';
import { SchedulerFramework } from './framework';
import type { SchedulerPlugin } from './plugin';
import type { Finding } from '../../../../../protocol/finding';

/** A plugin named by the profile that could not be built, and why. */
interface MissingPlugin {
  readonly name: string;
  readonly reason: string;
}

/** The built framework, with what could not be honoured. */
interface BuiltFramework {
  readonly framework: SchedulerFramework;
  /** Plugins named by the profile but not available in the engine. */
  readonly missingPlugins: readonly MissingPlugin[];
  readonly findings: readonly Finding[];
}

const PROFILE_SOURCE: ObjectSource = { file: '<default scheduler profile>', documentIndex: 0, path: [] };

const PHASE_METHOD: Record<ExtensionPoint, keyof SchedulerPlugin> = {
  preFilter: 'preFilter',
  filter: 'filter',
  postFilter: 'postFilter',
  preScore: 'preScore',
  score: 'score',
};

/** Builds the framework of a profile over a cluster. */
export function buildFramework(
  profile: SchedulerProfile,
  registry: PluginRegistry,
  cluster: Cluster,
  version: KubernetesMinor,
): BuiltFramework {
  const framework = new SchedulerFramework(cluster, profile.percentageOfNodesToScore);
  const source = profile.source ?? PROFILE_SOURCE;
  const findings: Finding[] = [];
  const missing: MissingPlugin[] = [];
  const instances = new Map<string, SchedulerPlugin>();

  const instantiate = (name: string): SchedulerPlugin | undefined => {
    if (instances.has(name) || missing.some((m) => m.name === name)) {
      return instances.get(name);
    }
    const factory = registry.get(name);
    if (factory === undefined) {
      const known = NOT_MODELLED_PLUGINS[name];
      missing.push({ name, reason: known ?? 'the engine does not implement this plugin' });
      if (known === undefined) {
        const message = `Scheduler profile "${profile.schedulerName}": plugin ${name} is not modelled by the engine; it is left out`;
        findings.push(engineFinding('plugin-not-modelled', source, ['plugins'], message));
      }
      return undefined;
    }
    const plugin = factory({
      args: profile.pluginConfig[name],
      version,
      handle: framework,
      reportArgsProblem: (problem) => {
        const message = `Scheduler profile "${profile.schedulerName}": ${name} arguments: ${problem}`;
        findings.push(engineFinding('invalid-plugin-args', source, ['pluginConfig', name], message));
      },
    });
    instances.set(name, plugin);
    return plugin;
  };

  const lists = {} as Record<ExtensionPoint, SchedulerPlugin[]>;
  const scoreWeights = new Map<string, number>();
  for (const point of EXTENSION_POINTS) {
    const ordered = orderPlugins(profile, point, (name) => {
      const plugin = instantiate(name);
      return plugin !== undefined && plugin[PHASE_METHOD[point]] !== undefined;
    });
    lists[point] = [];
    for (const ref of ordered) {
      const plugin = instances.get(ref.name);
      if (plugin === undefined) {
        continue;
      }
      if (plugin[PHASE_METHOD[point]] === undefined) {
        const message = `Scheduler profile "${profile.schedulerName}": plugin ${ref.name} does not extend ${point}`;
        findings.push(engineFinding('invalid-plugin-args', source, ['plugins', point], message));
        continue;
      }
      lists[point].push(plugin);
      if (point === 'score') {
        scoreWeights.set(ref.name, ref.weight !== undefined && ref.weight > 0 ? ref.weight : 1);
      }
    }
  }
  framework.setPlugins({ ...lists, scoreWeights });
  return { framework, missingPlugins: missing, findings };
}

/**
 * The plugins of one extension point in upstream order. `implementsPoint` says whether a multiPoint plugin
 * takes part at this point (explicitly listed plugins are kept so that a wrong listing can be reported).
 */
function orderPlugins(
  profile: SchedulerProfile,
  point: ExtensionPoint,
  implementsPoint: (name: string) => boolean,
): PluginRef[] {
  const explicit = profile.plugins[point]?.enabled ?? [];
  const disabled = new Set(profile.plugins[point]?.disabled ?? []);
  const explicitNames = new Set(explicit.map((ref) => ref.name));
  const overrides = new Set<string>();
  const fromMultiPoint: PluginRef[] = [];
  if (!disabled.has('*')) {
    for (const ref of profile.plugins.multiPoint.enabled) {
      if (disabled.has(ref.name) || fromMultiPoint.some((r) => r.name === ref.name)) {
        continue;
      }
      if (!implementsPoint(ref.name)) {
        continue;
      }
      if (explicitNames.has(ref.name)) {
        overrides.add(ref.name);
        continue;
      }
      fromMultiPoint.push(ref);
    }
  }
  const first = explicit.filter((ref) => overrides.has(ref.name));
  const last = explicit.filter((ref) => !overrides.has(ref.name));
  for (const ref of explicit) {
    implementsPoint(ref.name);
  }
  return [...first, ...fromMultiPoint, ...last];
}
