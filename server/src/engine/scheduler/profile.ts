/**
 * A scheduler profile: which plugins run at which extension point, score weights, plugin arguments and
 * percentageOfNodesToScore, in the shape of KubeSchedulerConfiguration's profiles[] after defaulting
 * (kubescheduler.config.k8s.io/v1). The default profile mirrors kube-scheduler's defaults:
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/apis/config/v1/default_plugins.go
 *
 * Contract with the KubeSchedulerConfiguration parser (scheduler/config/): it produces SchedulerProfile values
 * whose plugin sets are already merged with the defaults as upstream's mergePlugins does (start from
 * DEFAULT_MULTI_POINT_PLUGINS; "disabled" removes defaults, "*" all of them; re-enabled defaults keep their place).
 * The framework then expands multiPoint over the extension points each plugin implements (framework.ts).
 */
import type { ObjectSource } from '../model/source';
import { PLUGIN_NAMES } from './plugins/names';

/** The extension points the engine runs (queue sort, reserve, permit and binding are not modelled). */
export const EXTENSION_POINTS = ['preFilter', 'filter', 'postFilter', 'preScore', 'score'] as const;

/** One extension point. */
export type ExtensionPoint = (typeof EXTENSION_POINTS)[number];

/** A plugin named in a plugin set, with its score weight when it scores (0 or absent means 1). */
export interface PluginRef {
  readonly name: string;
  readonly weight?: number;
}

/** Plugins enabled and disabled at one extension point (or at multiPoint). */
export interface PluginSet {
  readonly enabled: readonly PluginRef[];
  /** Names disabled here; "*" disables every default plugin at this point. */
  readonly disabled: readonly string[];
}

/** A scheduler profile. */
export interface SchedulerProfile {
  /** Pods whose spec.schedulerName equals this are scheduled with this profile. */
  readonly schedulerName: string;
  /**
   * Percentage of nodes to score; undefined or 0 means adaptive (50 - nodes/125, at least 5%), as the
   * scheduler's global default. Capped at 100.
   */
  readonly percentageOfNodesToScore?: number;
  /** Plugin sets: multiPoint plus per-extension-point overrides. */
  readonly plugins: { readonly multiPoint: PluginSet } & Partial<Record<ExtensionPoint, PluginSet>>;
  /** Plugin arguments by plugin name (pluginConfig[].args), e.g. NodeResourcesFit's scoringStrategy. */
  readonly pluginConfig: Readonly<Record<string, unknown>>;
  /** Where the profile was written (a KubeSchedulerConfiguration), for findings; absent for the default. */
  readonly source?: ObjectSource;
}

/** The name pods get when they name no scheduler. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/**
 * kube-scheduler's default MultiPoint plugins, in order, with their default score weights (1.33–1.35). The
 * engine lacks some of them (gates, queue sort, binding: see NOT_MODELLED_PLUGINS; DynamicResources only
 * answers its PostFilter, resource claims are not modelled); the framework lists those it cannot build instead of
 * failing.
 */
export const DEFAULT_MULTI_POINT_PLUGINS: readonly PluginRef[] = [
  { name: PLUGIN_NAMES.SchedulingGates },
  { name: PLUGIN_NAMES.PrioritySort },
  { name: PLUGIN_NAMES.NodeUnschedulable },
  { name: PLUGIN_NAMES.NodeName },
  { name: PLUGIN_NAMES.TaintToleration, weight: 3 },
  { name: PLUGIN_NAMES.NodeAffinity, weight: 2 },
  { name: PLUGIN_NAMES.NodePorts },
  { name: PLUGIN_NAMES.NodeResourcesFit, weight: 1 },
  { name: PLUGIN_NAMES.VolumeRestrictions },
  { name: PLUGIN_NAMES.NodeVolumeLimits },
  { name: PLUGIN_NAMES.VolumeBinding },
  { name: PLUGIN_NAMES.VolumeZone },
  { name: PLUGIN_NAMES.PodTopologySpread, weight: 2 },
  { name: PLUGIN_NAMES.InterPodAffinity, weight: 2 },
  { name: PLUGIN_NAMES.DynamicResources },
  { name: PLUGIN_NAMES.DefaultPreemption },
  { name: PLUGIN_NAMES.NodeResourcesBalancedAllocation, weight: 1 },
  { name: PLUGIN_NAMES.ImageLocality, weight: 1 },
  { name: PLUGIN_NAMES.DefaultBinder },
];

/**
 * Default plugins the engine deliberately does not model, with why; a profile naming them is not an error.
 * Queueing and binding are the engine's own loop (VolumeBinding's PreBind runs in it).
 */
export const NOT_MODELLED_PLUGINS: Readonly<Record<string, string>> = {
  [PLUGIN_NAMES.SchedulingGates]:
    'pods with spec.schedulingGates are reported as gated by the simulation, not by a plugin',
  [PLUGIN_NAMES.PrioritySort]: 'the engine queues pods by priority, then input order',
  [PLUGIN_NAMES.DefaultBinder]: 'binding is immediate in the simulation',
};

/** The default profile: the default plugins, no overrides, adaptive percentageOfNodesToScore. */
export const DEFAULT_PROFILE: SchedulerProfile = {
  schedulerName: DEFAULT_SCHEDULER_NAME,
  plugins: { multiPoint: { enabled: DEFAULT_MULTI_POINT_PLUGINS, disabled: [] } },
  pluginConfig: {},
};
