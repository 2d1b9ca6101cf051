/**
 * mergePluginSet: a profile's plugin set laid over the default one, as kube-scheduler's defaulting does.
 *   - "disabled" names drop those defaults; "*" drops all of them;
 *   - a default re-listed under "enabled" is replaced in place (keeping its position, taking the new weight);
 *   - the other enabled plugins follow the defaults, in the order given.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/apis/config/v1/default_plugins.go
 */
import type { PluginRef, PluginSet } from '../profile';

/** The empty plugin set (every extension point but multiPoint has no defaults). */
export const EMPTY_PLUGIN_SET: PluginSet = { enabled: [], disabled: [] };

/** Lays a custom plugin set over a default one. */
export function mergePluginSet(defaults: PluginSet, custom: PluginSet): PluginSet {
  const disabled = [...custom.disabled, ...defaults.disabled];
  const disabledNames = new Set(disabled);
  const customByName = new Map<string, { index: number; ref: PluginRef }>();
  custom.enabled.forEach((ref, index) => customByName.set(ref.name, { index, ref }));
  const replaced = new Set<number>();
  const enabled: PluginRef[] = [];
  if (!disabledNames.has('*')) {
    for (const ref of defaults.enabled) {
      if (disabledNames.has(ref.name)) {
        continue;
      }
      const override = customByName.get(ref.name);
      if (override !== undefined) {
        replaced.add(override.index);
        enabled.push(override.ref);
      } else {
        enabled.push(ref);
      }
    }
  }
  custom.enabled.forEach((ref, index) => {
    if (!replaced.has(index)) {
      enabled.push(ref);
    }
  });
  return { enabled, disabled };
}
