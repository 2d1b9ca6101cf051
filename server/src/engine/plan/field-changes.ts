/**
 * The fields `kubectl apply` of a manifest changes on a live object, as `kubectl diff` shows them once the API
 * server has merged and defaulted the result: the live object is already defaulted, and the apply's three-way
 * merge keeps every field the manifest leaves out (so a default never shows as a change), sets every field it
 * writes, and removes a field the last applied configuration had and the manifest dropped. A list is merged as the
 * apply's patch merges it (merge-keys.ts): by its items' merge key (containers and env by name, volumeMounts by
 * mountPath, a container's ports by containerPort, a Service's by port), as a set (finalizers), or replaced whole. Quantities compare by value ("0.5" is "500m"), as applied-template.ts compares them for rollouts.
 * https://kubernetes.io/docs/tasks/manage-kubernetes-objects/declarative-config/#merge-patch-calculation
 *
 * A removed field the API server defaults (removed-defaults.ts) changes to its default, or not at all when it had
 * the default; another removed field says "removed". `status` and the last-applied annotation are not compared
 * (kubectl diff shows the annotation; it is noise here).
 */
import type { JsonObject } from '../model/json';
import { isJsonObject } from '../model/json';
import { sameScalar } from '../scenario/state/applied-template';
import { removedFieldDefault } from './removed-defaults';
import type { ListMerge } from './merge-keys';
import { SCALAR_SET, isStrategicMerge, listMergeOf } from './merge-keys';
import type { FieldChange } from '../../../../protocol/plan';

/** The longest value shown; longer ones are cut with "…" (a reviewer reads the path, then the start). */
export const MAX_VALUE_LENGTH = 80;

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Fields the API server owns: never the apply's change. */
const SERVER_FIELDS = new Set(['status']);

/** The changes of applying `manifest` over `live`, in the manifest's order, then the removals. */
export function fieldChanges(live: JsonObject, manifest: JsonObject, lastApplied: unknown): FieldChange[] {
  const changes: FieldChange[] = [];
  const kind = manifest['kind'];
  const strategic = isStrategicMerge(manifest['apiVersion']);
  const rules: Rules = { mergeOf: (path) => listMergeOf(path, kind, strategic) };
  for (const [key, value] of Object.entries(manifest)) {
    if (!SERVER_FIELDS.has(key)) {
      compare(live[key], value, [key], changes, rules);
    }
  }
  if (isJsonObject(lastApplied)) {
    collectRemovals(live, manifest, lastApplied, [], changes, manifest, rules);
  }
  return changes.filter((change) => !change.path.includes(LAST_APPLIED));
}

/** The last applied configuration a live object records, or undefined. */
export function lastAppliedOf(live: JsonObject): unknown {
  const metadata = live['metadata'];
  const annotations = isJsonObject(metadata) ? metadata['annotations'] : undefined;
  const text = isJsonObject(annotations) ? annotations[LAST_APPLIED] : undefined;
  if (typeof text !== 'string') {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

type Path = readonly (string | number)[];

/** How the apply merges each list of the object (merge-keys.ts). */
interface Rules {
  readonly mergeOf: (path: Path) => ListMerge;
}

function compare(live: unknown, manifest: unknown, path: Path, changes: FieldChange[], rules: Rules): void {
  if (manifest === undefined) {
    return;
  }
  if (manifest === null) {
    if (live !== undefined && live !== null) {
      changes.push({ path: formatChangePath(path), old: show(live), new: null });
    }
    return;
  }
  if (isJsonObject(manifest)) {
    if (!isJsonObject(live)) {
      if (Object.keys(manifest).length > 0 || (live !== undefined && live !== null)) {
        changes.push({ path: formatChangePath(path), old: showOrNull(live), new: show(manifest) });
      }
      return;
    }
    for (const [key, value] of Object.entries(manifest)) {
      compare(live[key], value, [...path, key], changes, rules);
    }
    return;
  }
  if (Array.isArray(manifest)) {
    compareList(live, manifest, path, changes, rules);
    return;
  }
  if (!sameScalar(live, manifest)) {
    changes.push({ path: formatChangePath(path), old: showOrNull(live), new: show(manifest) });
  }
}

/**
 * A list: a list merged by key matches its items by that key (an item the manifest adds is shown whole; a live item
 * the manifest leaves out is kept, as the three-way merge keeps it); a set of scalars gains the manifest's new
 * items; any other list is replaced when it is not the manifest's, item by item (the live items' defaults aside).
 */
function compareList(
  live: unknown,
  manifest: readonly unknown[],
  path: Path,
  changes: FieldChange[],
  rules: Rules,
): void {
  const liveItems = Array.isArray(live) ? (live as unknown[]) : undefined;
  const merge = rules.mergeOf(path);
  if (merge === SCALAR_SET && liveItems !== undefined) {
    manifest.forEach((item, index) => {
      if (!liveItems.some((candidate) => sameScalar(candidate, item))) {
        changes.push({ path: formatChangePath([...path, index]), old: null, new: show(item) });
      }
    });
    return;
  }
  if (
    typeof merge === 'string' &&
    liveItems !== undefined &&
    manifest.length > 0 &&
    manifest.every(keyed(merge))
  ) {
    manifest.forEach((item, index) => {
      const match = liveItems.find(
        (candidate) => keyed(merge)(candidate) && candidate[merge] === item[merge],
      );
      if (match === undefined) {
        changes.push({ path: formatChangePath([...path, index]), old: null, new: show(item) });
      } else {
        compare(match, item, [...path, index], changes, rules);
      }
    });
    return;
  }
  if (!isSameList(live, manifest, rules)) {
    changes.push({ path: formatChangePath(path), old: showOrNull(live), new: show(manifest) });
  }
}

/**
 * Whether a list replaced whole leaves the live list as it is, item by item: each of the manifest's items written
 * in the live item at its place (the live items' other fields are the API server's defaults, or fields the
 * replace removes: collectListRemovals looks for those).
 */
function isSameList(live: unknown, manifest: readonly unknown[], rules: Rules): boolean {
  const liveItems = Array.isArray(live) ? (live as unknown[]) : undefined;
  const probe: FieldChange[] = [];
  return (
    liveItems !== undefined &&
    liveItems.length === manifest.length &&
    manifest.every((item, index) => {
      compare(liveItems[index], item, [], probe, rules);
      return probe.length === 0;
    })
  );
}

/** Fields the last applied configuration set that the manifest no longer sets: the apply removes them. */
function collectRemovals(
  live: unknown,
  manifest: unknown,
  lastApplied: JsonObject,
  path: Path,
  changes: FieldChange[],
  applied: JsonObject,
  rules: Rules,
): void {
  for (const [key, previous] of Object.entries(lastApplied)) {
    const here = [...path, key];
    const written = isJsonObject(manifest) ? manifest[key] : undefined;
    const liveValue = isJsonObject(live) ? live[key] : undefined;
    if (written === undefined) {
      if (liveValue !== undefined && !SERVER_FIELDS.has(key)) {
        // The API server defaults the merged object: a removed field it defaults takes its default.
        const defaulted = removedFieldDefault(applied, here);
        if (defaulted === undefined) {
          changes.push({ path: formatChangePath(here), old: show(liveValue), new: null });
        } else if (canonical(defaulted) !== canonical(liveValue)) {
          changes.push({ path: formatChangePath(here), old: show(liveValue), new: show(defaulted) });
        }
      }
    } else if (isJsonObject(previous)) {
      collectRemovals(liveValue, written, previous, here, changes, applied, rules);
    } else if (Array.isArray(previous) && Array.isArray(written)) {
      collectListRemovals(
        liveValue,
        written as unknown[],
        previous as unknown[],
        here,
        changes,
        applied,
        rules,
      );
    }
  }
}

/**
 * Removals in a list merged by key (containers, env, volumes, volumeMounts…): an item the last applied
 * configuration had and the manifest dropped is deleted (path at its live index); in an item both have, a dropped
 * field is removed as in an object. In a set of scalars (metadata.finalizers), a dropped item is deleted. A list
 * replaced whole that compareList does not show as changed loses the fields its items' last applied configuration
 * had and the manifest's items dropped.
 */
function collectListRemovals(
  live: unknown,
  written: readonly unknown[],
  previous: readonly unknown[],
  path: Path,
  changes: FieldChange[],
  applied: JsonObject,
  rules: Rules,
): void {
  const liveItems = Array.isArray(live) ? (live as unknown[]) : [];
  const merge = rules.mergeOf(path);
  if (merge === SCALAR_SET) {
    for (const item of previous) {
      const liveIndex = liveItems.findIndex((candidate) => sameScalar(candidate, item));
      if (liveIndex !== -1 && !written.some((candidate) => sameScalar(candidate, item))) {
        changes.push({ path: formatChangePath([...path, liveIndex]), old: show(item), new: null });
      }
    }
    return;
  }
  if (merge === undefined) {
    // Replaced whole, and unchanged item by item (else compareList shows the list): a field the last applied
    // configuration set in an item and the manifest's item at that place dropped goes with the replace, or takes
    // its default.
    if (previous.length === written.length && isSameList(live, written, rules)) {
      written.forEach((item, index) => {
        const before = previous[index];
        if (isJsonObject(before)) {
          collectRemovals(liveItems[index], item, before, [...path, index], changes, applied, rules);
        }
      });
    }
    return;
  }
  const hasKey = keyed(merge);
  if (
    typeof merge !== 'string' ||
    hasKey === undefined ||
    !written.every(hasKey) ||
    !previous.every(hasKey)
  ) {
    return;
  }
  for (const item of previous) {
    const liveIndex = liveItems.findIndex(
      (candidate) => hasKey(candidate) && candidate[merge] === item[merge],
    );
    if (liveIndex === -1) {
      continue;
    }
    const index = written.findIndex((candidate) => candidate[merge] === item[merge]);
    if (index === -1) {
      changes.push({
        path: formatChangePath([...path, liveIndex]),
        old: show(liveItems[liveIndex]),
        new: null,
      });
    } else {
      collectRemovals(liveItems[liveIndex], written[index], item, [...path, index], changes, applied, rules);
    }
  }
}

/** JSON with sorted keys, to compare a live value with a default whatever the order of its keys. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    isJsonObject(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** A test for list items that carry the merge key (a string or a number: containerPort, port). */
function keyed(key: string): (item: unknown) => item is JsonObject {
  return (item: unknown): item is JsonObject =>
    isJsonObject(item) && (typeof item[key] === 'string' || typeof item[key] === 'number');
}

/** `spec.containers[0].image`; a key that is not a plain word is quoted: `annotations["example.com/team"]`. */
export function formatChangePath(path: Path): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') {
      text += `[${part}]`;
    } else if (/^[A-Za-z_$][\w$-]*$/.test(part)) {
      text += text === '' ? part : `.${part}`;
    } else {
      text += `[${JSON.stringify(part)}]`;
    }
  }
  return text;
}

function showOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : show(value);
}

/** A value as short text: a string as written, anything else as compact JSON, cut at MAX_VALUE_LENGTH. */
function show(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}
