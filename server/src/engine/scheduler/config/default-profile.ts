/**
 * The default scheduler profile of each modelled Kubernetes version: kube-scheduler's default MultiPoint plugins
 * (scheduler/profile.ts) as the version enables them, with every plugin's default args spelled out.
 * DynamicResources is a default from 1.34, when DynamicResourceAllocation went GA and on by default.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/apis/config/v1/default_plugins.go
 */
import type { KubernetesMinor } from '../../version';
import { isAtLeast } from '../../version';
import { DEFAULT_MULTI_POINT_PLUGINS, DEFAULT_SCHEDULER_NAME } from '../profile';
import type { PluginRef, SchedulerProfile } from '../profile';
import { PLUGINS_WITH_ARGS, defaultPluginArgs } from './plugin-args';
import { PLUGIN_NAMES } from '../plugins/names';

/** The default MultiPoint plugins and weights of a version. */
export function defaultMultiPointPlugins(version: KubernetesMinor): readonly PluginRef[] {
  return DEFAULT_MULTI_POINT_PLUGINS.filter(
    (ref) => ref.name !== PLUGIN_NAMES.DynamicResources || isAtLeast(version, '1.34'),
  );
}

/** The default args of every plugin that has an args type. */
export function defaultPluginConfig(): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const name of PLUGINS_WITH_ARGS) {
    config[name] = defaultPluginArgs(name);
  }
  return config;
}

/** The profile kube-scheduler runs when it is given no configuration (schedulerName default-scheduler). */
export function defaultSchedulerProfile(version: KubernetesMinor): SchedulerProfile {
  return {
    schedulerName: DEFAULT_SCHEDULER_NAME,
    plugins: { multiPoint: { enabled: defaultMultiPointPlugins(version), disabled: [] } },
    pluginConfig: defaultPluginConfig(),
  };
}
