/**
 * The order a unit's objects are applied in when its texts do not hold them in that order.
 *
 * - A kustomization's render is read as one text per source file (language/kustomize/rendered-texts.ts), and
 *   `kubectl apply -k` applies kustomize's output as it comes. By default kustomize sorts its output by kind (the
 *   legacy order, kyaml/resid/gvk.go orderFirst: Namespaces, ServiceAccounts, ConfigMaps and Services before the
 *   workloads that use them), then name.
 * - A GitOps controller sorts what it applies in its own order (gitops-apply-order.ts).
 *
 * The order decides what admission finds and which node a pod lands on when nodes tie.
 */
import type { ManifestObject } from '../kubernetes/manifest-object';
import type { GitopsController } from './gitops-apply-order';
import { inGitopsOrder } from './gitops-apply-order';

/** An object read, with its unit, how it is applied, and its place in its unit's render (if it is one). */
export interface OrderedEntry {
  readonly object: ManifestObject;
  readonly unit: string | undefined;
  /** Its document's place in the unit's render (read-manifests.ts ManifestFile.applyOrder). */
  readonly order: number | undefined;
  /** The GitOps controller that applies its unit. */
  readonly appliedBy: GitopsController | undefined;
}

/**
 * The entries with each unit's objects in the order its apply takes them, in the slots they filled; every other
 * entry stays where it is. A GitOps unit's objects are in its controller's order; a render's in the render's.
 */
export function inApplyOrder<T extends OrderedEntry>(entries: readonly T[]): readonly T[] {
  const byUnit = new Map<string | undefined, { readonly slot: number; readonly entry: T }[]>();
  entries.forEach((entry, slot) => {
    if (entry.order === undefined && entry.appliedBy === undefined) {
      return;
    }
    const list = byUnit.get(entry.unit);
    if (list === undefined) {
      byUnit.set(entry.unit, [{ slot, entry }]);
    } else {
      list.push({ slot, entry });
    }
  });
  if (byUnit.size === 0) {
    return entries;
  }
  const ordered = [...entries];
  for (const list of byUnit.values()) {
    const slots = list.map(({ slot }) => slot);
    const unitEntries = list.map(({ entry }) => entry);
    const controller = unitEntries[0]?.appliedBy;
    // The render's order first: a GitOps controller's sort leaves ties (a duplicate) in the order it was given.
    const rendered = unitEntries.some((entry) => entry.order !== undefined)
      ? [...unitEntries].sort((left, right) => (left.order ?? 0) - (right.order ?? 0))
      : unitEntries;
    const sorted = controller === undefined ? rendered : inGitopsOrder(controller, rendered);
    sorted.forEach((entry, index) => {
      const slot = slots[index];
      if (slot !== undefined) {
        ordered[slot] = entry;
      }
    });
  }
  return ordered;
}
