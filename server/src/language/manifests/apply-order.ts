/**
 * The order a unit's objects are applied in when its texts do not hold them in that order: a kustomization's render
 * is read as one text per source file (language/kustomize/rendered-texts.ts), and `kubectl apply -k` applies
 * kustomize's output as it comes. By default kustomize sorts its output by kind (the legacy order,
 * kyaml/resid/gvk.go orderFirst: Namespaces, ServiceAccounts, ConfigMaps and Services before the workloads that
 * use them), so the order decides what admission finds and which node a pod lands on when nodes tie.
 */

/** An object read, with its unit and its place in that unit's apply (none: it stays where it was read). */
export interface OrderedEntry {
  readonly unit: string | undefined;
  readonly order: number | undefined;
}

/**
 * The entries, with those of each unit that have a place put in that order, in the slots they filled; every other
 * entry stays where it is. The sort is stable: the objects of one document (a List's items) keep their order.
 */
export function inApplyOrder<T extends OrderedEntry>(entries: readonly T[]): readonly T[] {
  const placedByUnit = new Map<
    string | undefined,
    { readonly slot: number; readonly entry: T; readonly order: number }[]
  >();
  entries.forEach((entry, slot) => {
    if (entry.order === undefined) {
      return;
    }
    const placed = { slot, entry, order: entry.order };
    const list = placedByUnit.get(entry.unit);
    if (list === undefined) {
      placedByUnit.set(entry.unit, [placed]);
    } else {
      list.push(placed);
    }
  });
  if (placedByUnit.size === 0) {
    return entries;
  }
  const ordered = [...entries];
  for (const list of placedByUnit.values()) {
    const slots = list.map(({ slot }) => slot);
    const sorted = [...list].sort((left, right) => left.order - right.order);
    sorted.forEach(({ entry }, index) => {
      const slot = slots[index];
      if (slot !== undefined) {
        ordered[slot] = entry;
      }
    });
  }
  return ordered;
}
