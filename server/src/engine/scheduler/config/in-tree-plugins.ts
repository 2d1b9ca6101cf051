/**
 * The plugins kube-scheduler 1.33–1.35 is built with, and the extension points each implements (the framework
 * interfaces its type satisfies). Used to validate a configuration as NewFramework would: a name it does not
 * know ("FilterPlugin \"Foo\" does not exist"), a plugin listed at a point it does not implement ("plugin
 * \"ImageLocality\" does not extend FilterPlugin plugin"), and to expand multiPoint.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/registry.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/runtime/framework.go
 * Left out: alpha plugins behind feature gates that are off by default (NodeDeclaredFeatures, GangScheduling).
 */
import type { KubernetesMinor } from '../../version';
import { isAtLeast } from '../../version';
import { PLUGIN_NAMES } from '../plugins/names';

/** Every extension point a KubeSchedulerConfiguration can name (besides multiPoint). */
export const CONFIG_EXTENSION_POINTS = [
  'preEnqueue',
  'queueSort',
  'preFilter',
  'filter',
  'postFilter',
  'preScore',
  'score',
  'reserve',
  'permit',
  'preBind',
  'bind',
  'postBind',
] as const;

/** One configurable extension point. */
export type ConfigExtensionPoint = (typeof CONFIG_EXTENSION_POINTS)[number];

/** The Go interface name of each point, as NewFramework's errors name it. */
export const PLUGIN_INTERFACE_NAMES: Readonly<Record<ConfigExtensionPoint, string>> = {
  preEnqueue: 'PreEnqueuePlugin',
  queueSort: 'QueueSortPlugin',
  preFilter: 'PreFilterPlugin',
  filter: 'FilterPlugin',
  postFilter: 'PostFilterPlugin',
  preScore: 'PreScorePlugin',
  score: 'ScorePlugin',
  reserve: 'ReservePlugin',
  permit: 'PermitPlugin',
  preBind: 'PreBindPlugin',
  bind: 'BindPlugin',
  postBind: 'PostBindPlugin',
};

const FILTERING = ['preFilter', 'filter'] as const;
const SCORING = ['preScore', 'score'] as const;

const PLUGIN_POINTS: Readonly<Record<string, readonly ConfigExtensionPoint[]>> = {
  [PLUGIN_NAMES.SchedulingGates]: ['preEnqueue'],
  [PLUGIN_NAMES.PrioritySort]: ['queueSort'],
  [PLUGIN_NAMES.NodeUnschedulable]: ['filter'],
  [PLUGIN_NAMES.NodeName]: ['filter'],
  [PLUGIN_NAMES.TaintToleration]: ['filter', ...SCORING],
  [PLUGIN_NAMES.NodeAffinity]: [...FILTERING, ...SCORING],
  [PLUGIN_NAMES.NodePorts]: FILTERING,
  [PLUGIN_NAMES.NodeResourcesFit]: [...FILTERING, ...SCORING],
  [PLUGIN_NAMES.VolumeRestrictions]: FILTERING,
  [PLUGIN_NAMES.NodeVolumeLimits]: FILTERING,
  [PLUGIN_NAMES.VolumeBinding]: [...FILTERING, 'reserve', 'preBind', ...SCORING],
  [PLUGIN_NAMES.VolumeZone]: FILTERING,
  [PLUGIN_NAMES.PodTopologySpread]: [...FILTERING, ...SCORING],
  [PLUGIN_NAMES.InterPodAffinity]: [...FILTERING, ...SCORING],
  [PLUGIN_NAMES.DynamicResources]: ['preEnqueue', ...FILTERING, 'postFilter', 'reserve', 'preBind'],
  [PLUGIN_NAMES.DefaultPreemption]: ['preEnqueue', 'postFilter'],
  [PLUGIN_NAMES.NodeResourcesBalancedAllocation]: SCORING,
  [PLUGIN_NAMES.ImageLocality]: ['score'],
  [PLUGIN_NAMES.DefaultBinder]: ['bind'],
};

/**
 * Plugins removed from kube-scheduler that validation still names (invalidPluginsByVersion): kube-scheduler
 * refuses a configuration that enables them.
 */
export const REMOVED_PLUGINS: readonly string[] = [
  PLUGIN_NAMES.AzureDiskLimits,
  PLUGIN_NAMES.CinderLimits,
  PLUGIN_NAMES.EBSLimits,
  PLUGIN_NAMES.GCEPDLimits,
];

/** Plugins of older configuration versions and what replaced them, for a helpful "does not exist". */
export const REPLACED_PLUGINS: Readonly<Record<string, string>> = {
  [PLUGIN_NAMES.NodeResourcesLeastAllocated]: 'NodeResourcesFit with scoringStrategy.type LeastAllocated',
  [PLUGIN_NAMES.NodeResourcesMostAllocated]: 'NodeResourcesFit with scoringStrategy.type MostAllocated',
  [PLUGIN_NAMES.RequestedToCapacityRatio]:
    'NodeResourcesFit with scoringStrategy.type RequestedToCapacityRatio',
  [PLUGIN_NAMES.SelectorSpread]: 'PodTopologySpread with its system default constraints',
  [PLUGIN_NAMES.NodePreferAvoidPods]: 'nothing (the annotation is no longer honoured)',
  [PLUGIN_NAMES.ServiceAffinity]: PLUGIN_NAMES.InterPodAffinity,
  [PLUGIN_NAMES.NodeLabel]: PLUGIN_NAMES.NodeAffinity,
};

/** The extension points an in-tree plugin implements in a version, or undefined for an unknown name. */
export function pluginExtensionPoints(
  name: string,
  version: KubernetesMinor,
): readonly ConfigExtensionPoint[] | undefined {
  const points = PLUGIN_POINTS[name];
  if (points === undefined) {
    return undefined;
  }
  // DynamicResources gained a Score extension (prioritized-list scoring) in 1.35.
  if (name === PLUGIN_NAMES.DynamicResources && isAtLeast(version, '1.35')) {
    return [...points, 'score'];
  }
  return points;
}
