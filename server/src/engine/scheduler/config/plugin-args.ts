/**
 * The plugins whose args the engine reads, with their readers and defaults. Every profile this folder produces
 * carries complete, defaulted args for these plugins in `pluginConfig` (as kube-scheduler's defaulting appends an
 * args object for every enabled plugin that has an args type), in the v1 JSON shape plugins read.
 */
import type { ParsedArgs } from './args-reader';
import type { ConfigPath } from './field-errors';
import {
  DEFAULT_BALANCED_ALLOCATION_ARGS,
  DEFAULT_NODE_RESOURCES_FIT_ARGS,
  readBalancedAllocationArgs,
  readNodeResourcesFitArgs,
} from './node-resources-args';
import {
  DEFAULT_INTER_POD_AFFINITY_ARGS,
  DEFAULT_POD_TOPOLOGY_SPREAD_ARGS,
  DEFAULT_PREEMPTION_ARGS,
  readDefaultPreemptionArgs,
  readInterPodAffinityArgs,
  readPodTopologySpreadArgs,
} from './spread-affinity-args';
import { PLUGIN_NAMES } from '../plugins/names';

interface ArgsType {
  readonly read: (raw: unknown, base: ConfigPath) => ParsedArgs<unknown>;
  readonly defaults: unknown;
}

const ARGS_TYPES: Readonly<Record<string, ArgsType>> = {
  [PLUGIN_NAMES.NodeResourcesFit]: {
    read: readNodeResourcesFitArgs,
    defaults: DEFAULT_NODE_RESOURCES_FIT_ARGS,
  },
  [PLUGIN_NAMES.NodeResourcesBalancedAllocation]: {
    read: readBalancedAllocationArgs,
    defaults: DEFAULT_BALANCED_ALLOCATION_ARGS,
  },
  [PLUGIN_NAMES.PodTopologySpread]: {
    read: readPodTopologySpreadArgs,
    defaults: DEFAULT_POD_TOPOLOGY_SPREAD_ARGS,
  },
  [PLUGIN_NAMES.InterPodAffinity]: {
    read: readInterPodAffinityArgs,
    defaults: DEFAULT_INTER_POD_AFFINITY_ARGS,
  },
  [PLUGIN_NAMES.DefaultPreemption]: { read: readDefaultPreemptionArgs, defaults: DEFAULT_PREEMPTION_ARGS },
};

/** The names of the plugins whose args are read and defaulted here. */
export const PLUGINS_WITH_ARGS: readonly string[] = Object.keys(ARGS_TYPES);

/** Reads one plugin's args, or undefined when the engine has no reader for that plugin (args pass through). */
export function readPluginArgs(
  name: string,
  raw: unknown,
  base: ConfigPath,
): ParsedArgs<unknown> | undefined {
  return ARGS_TYPES[name]?.read(raw, base);
}

/** A plugin's default args, or undefined when it has none the engine knows. */
export function defaultPluginArgs(name: string): unknown {
  return ARGS_TYPES[name]?.defaults;
}
