/**
 * The plugin registry: plugin factories by upstream plugin name. A profile picks plugins from it by name.
 * To add a plugin: write plugins/<kebab-name>/index.ts exporting a factory, and add one line here.
 */
import type { PluginFactory } from './framework/plugin';
import { createDefaultPreemption } from './plugins/default-preemption';
import { createDynamicResources } from './plugins/dynamic-resources';
import { createImageLocality } from './plugins/image-locality';
import { createInterPodAffinity } from './plugins/inter-pod-affinity';
import { createNodeAffinity } from './plugins/node-affinity';
import { createNodeName } from './plugins/node-name';
import { createNodePorts } from './plugins/node-ports';
import { createBalancedAllocation } from './plugins/node-resources-balanced-allocation';
import { createNodeResourcesFit } from './plugins/node-resources-fit';
import { createNodeUnschedulable } from './plugins/node-unschedulable';
import { createPodTopologySpread } from './plugins/pod-topology-spread';
import { createTaintToleration } from './plugins/taint-toleration';
import { createVolumeBinding } from './plugins/volume-binding';
import { createNodeVolumeLimits } from './plugins/node-volume-limits';
import { createVolumeRestrictions } from './plugins/volume-restrictions';
import { createVolumeZone } from './plugins/volume-zone';
import { PLUGIN_NAMES } from './plugins/names';

/** A registry: plugin name to factory. */
export type PluginRegistry = ReadonlyMap<string, PluginFactory>;

/** The plugins the engine implements, by upstream name. */
export const IN_TREE_REGISTRY: PluginRegistry = new Map<string, PluginFactory>([
  [PLUGIN_NAMES.NodeUnschedulable, createNodeUnschedulable],
  [PLUGIN_NAMES.NodeName, createNodeName],
  [PLUGIN_NAMES.TaintToleration, createTaintToleration],
  [PLUGIN_NAMES.NodeAffinity, createNodeAffinity],
  [PLUGIN_NAMES.NodePorts, createNodePorts],
  [PLUGIN_NAMES.NodeResourcesFit, createNodeResourcesFit],
  [PLUGIN_NAMES.VolumeRestrictions, createVolumeRestrictions],
  [PLUGIN_NAMES.NodeVolumeLimits, createNodeVolumeLimits],
  [PLUGIN_NAMES.VolumeBinding, createVolumeBinding],
  [PLUGIN_NAMES.VolumeZone, createVolumeZone],
  [PLUGIN_NAMES.PodTopologySpread, createPodTopologySpread],
  [PLUGIN_NAMES.InterPodAffinity, createInterPodAffinity],
  [PLUGIN_NAMES.DefaultPreemption, createDefaultPreemption],
  [PLUGIN_NAMES.NodeResourcesBalancedAllocation, createBalancedAllocation],
  [PLUGIN_NAMES.ImageLocality, createImageLocality],
  [PLUGIN_NAMES.DynamicResources, createDynamicResources],
]);
