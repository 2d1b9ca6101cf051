/**
 * The names of kube-scheduler's plugins, in one place: every other file that names a plugin (the registry, the
 * default profile, the configuration's checks, each plugin's statuses) imports it from here, as upstream's plugins
 * import pkg/scheduler/framework/plugins/names. test/architecture/ fails on a plugin name spelled anywhere else in
 * server/src. The removed and replaced plugins are kept, as upstream kept theirs, so a configuration that still
 * names one can be told what happened to it.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/names/names.go
 */

/** Every plugin name the engine knows, each its own upstream spelling. */
export const PLUGIN_NAMES = {
  // The plugins kube-scheduler 1.33–1.35 is built with (config/in-tree-plugins.ts).
  PrioritySort: 'PrioritySort',
  DefaultBinder: 'DefaultBinder',
  DefaultPreemption: 'DefaultPreemption',
  DynamicResources: 'DynamicResources',
  ImageLocality: 'ImageLocality',
  InterPodAffinity: 'InterPodAffinity',
  NodeAffinity: 'NodeAffinity',
  NodeName: 'NodeName',
  NodePorts: 'NodePorts',
  NodeResourcesBalancedAllocation: 'NodeResourcesBalancedAllocation',
  NodeResourcesFit: 'NodeResourcesFit',
  NodeUnschedulable: 'NodeUnschedulable',
  NodeVolumeLimits: 'NodeVolumeLimits',
  PodTopologySpread: 'PodTopologySpread',
  SchedulingGates: 'SchedulingGates',
  TaintToleration: 'TaintToleration',
  VolumeBinding: 'VolumeBinding',
  VolumeRestrictions: 'VolumeRestrictions',
  VolumeZone: 'VolumeZone',
  // Removed from kube-scheduler; validation still refuses them (invalidPluginsByVersion).
  AzureDiskLimits: 'AzureDiskLimits',
  CinderLimits: 'CinderLimits',
  EBSLimits: 'EBSLimits',
  GCEPDLimits: 'GCEPDLimits',
  // Plugins of older configuration versions, replaced by others.
  NodeResourcesLeastAllocated: 'NodeResourcesLeastAllocated',
  NodeResourcesMostAllocated: 'NodeResourcesMostAllocated',
  RequestedToCapacityRatio: 'RequestedToCapacityRatio',
  SelectorSpread: 'SelectorSpread',
  NodePreferAvoidPods: 'NodePreferAvoidPods',
  ServiceAffinity: 'ServiceAffinity',
  NodeLabel: 'NodeLabel',
} as const;

/** One plugin name of PLUGIN_NAMES. */
export type PluginName = (typeof PLUGIN_NAMES)[keyof typeof PLUGIN_NAMES];
