/**
 * KubeSchedulerConfiguration → scheduler profiles: the public surface of this folder (see README.md).
 */
export { parseSchedulerConfiguration } from './parse-config';
export type { ParsedSchedulerConfiguration, ParseSchedulerConfigurationOptions } from './parse-config';
export { defaultMultiPointPlugins, defaultPluginConfig, defaultSchedulerProfile } from './default-profile';
export { ConfigFindings } from './findings';
export { mergePluginSet } from './merge-plugins';
export { CONFIG_EXTENSION_POINTS, pluginExtensionPoints } from './in-tree-plugins';
export type { ConfigExtensionPoint } from './in-tree-plugins';
export type { ArgsProblem, ParsedArgs } from './args-reader';
export {
  DEFAULT_BALANCED_ALLOCATION_ARGS,
  DEFAULT_NODE_RESOURCES_FIT_ARGS,
  readBalancedAllocationArgs,
  readNodeResourcesFitArgs,
} from './node-resources-args';
export type {
  NodeResourcesBalancedAllocationArgs,
  NodeResourcesFitArgs,
  ResourceSpec,
  ScoringStrategyType,
  UtilizationShapePoint,
} from './node-resources-args';
export {
  DEFAULT_INTER_POD_AFFINITY_ARGS,
  DEFAULT_POD_TOPOLOGY_SPREAD_ARGS,
  DEFAULT_PREEMPTION_ARGS,
  SYSTEM_DEFAULT_CONSTRAINTS,
  readDefaultPreemptionArgs,
  readInterPodAffinityArgs,
  readPodTopologySpreadArgs,
} from './spread-affinity-args';
export type {
  DefaultPreemptionArgs,
  DefaultSpreadConstraint,
  InterPodAffinityArgs,
  PodTopologySpreadArgs,
} from './spread-affinity-args';
