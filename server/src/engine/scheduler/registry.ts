/**
 * The plugin registry: plugin factories by upstream plugin name. A profile picks plugins from it by name.
 * To add a plugin: write plugins/<kebab-name>/index.ts exporting a factory, and add one line here.
 */
import type { PluginFactory } from './framework/plugin';

/** A registry: plugin name to factory. */
export type PluginRegistry = ReadonlyMap<string, PluginFactory>;

/** The plugins the engine implements, by upstream name. */
export const IN_TREE_REGISTRY: PluginRegistry = new Map<string, PluginFactory>([]);

/** A registry with more plugins added (or replaced), e.g. plugins written outside scheduler/plugins. */
export function extendRegistry(
  base: PluginRegistry,
  extra: Readonly<Record<string, PluginFactory>>,
): PluginRegistry {
  const merged = new Map(base);
  for (const [name, factory] of Object.entries(extra)) {
    merged.set(name, factory);
  }
  return merged;
}
