/**
 * The fields `kubectl apply` of a manifest changes on a live object, as `kubectl diff` shows them once the API
 * server has merged and defaulted the result: the live object is already defaulted, and the apply's three-way
 * merge keeps every field the manifest leaves out (so a default never shows as a change), sets every field it
 * writes, and removes a field the last applied configuration had and the manifest dropped. Lists of named items
 * (containers, env, ports, volumes) are matched by name, as a strategic merge patch matches them; other lists are
 * replaced whole. Quantities compare by value ("0.5" is "500m"), as applied-template.ts compares them for rollouts.
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
import type { FieldChange } from '../../../../protocol/plan';

/** The longest value shown; longer ones are cut with "…" (a reviewer reads the path, then the start). */
export const MAX_VALUE_LENGTH = 80;

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Fields the API server owns: never the apply's change. */
const SERVER_FIELDS = new Set(['status']);

/** The changes of applying `manifest` over `live`, in the manifest's order, then the removals. */
export function fieldChanges(live: JsonObject, manifest: JsonObject, lastApplied: unknown): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [key, value] of Object.entries(manifest)) {
    if (!SERVER_FIELDS.has(key)) {
      compare(live[key], value, [key], changes);
    }
  }
  if (isJsonObject(lastApplied)) {
    collectRemovals(live, manifest, lastApplied, [], changes, manifest);
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

function compare(live: unknown, manifest: unknown, path: Path, changes: FieldChange[]): void {
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
      compare(live[key], value, [...path, key], changes);
    }
    return;
  }
  if (Array.isArray(manifest)) {
    compareList(live, manifest, path, changes);
    return;
  }
  if (!sameScalar(live, manifest)) {
    changes.push({ path: formatChangePath(path), old: showOrNull(live), new: show(manifest) });
  }
}

/** A list: items matched by name when every item has one, else the list replaced when any item differs. */
function compareList(live: unknown, manifest: readonly unknown[], path: Path, changes: FieldChange[]): void {
  const liveItems = Array.isArray(live) ? (live as unknown[]) : undefined;
  if (liveItems !== undefined && manifest.length > 0 && manifest.every(hasName)) {
    manifest.forEach((item, index) => {
      const match = liveItems.find((candidate) => hasName(candidate) && candidate['name'] === item['name']);
      if (match === undefined) {
        changes.push({ path: formatChangePath([...path, index]), old: null, new: show(item) });
      } else {
        compare(match, item, [...path, index], changes);
      }
    });
    return;
  }
  const probe: FieldChange[] = [];
  const isSame =
    liveItems !== undefined &&
    liveItems.length === manifest.length &&
    manifest.every((item, index) => {
      compare(liveItems[index], item, [], probe);
      return probe.length === 0;
    });
  if (!isSame) {
    changes.push({ path: formatChangePath(path), old: showOrNull(live), new: show(manifest) });
  }
}

/** Fields the last applied configuration set that the manifest no longer sets: the apply removes them. */
function collectRemovals(
  live: unknown,
  manifest: unknown,
  lastApplied: JsonObject,
  path: Path,
  changes: FieldChange[],
  applied: JsonObject,
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
      collectRemovals(liveValue, written, previous, here, changes, applied);
    } else if (Array.isArray(previous) && Array.isArray(written)) {
      collectListRemovals(liveValue, written as unknown[], previous as unknown[], here, changes, applied);
    }
  }
}

/**
 * Removals in a list merged by name (containers, env, volumes): an item the last applied configuration had and
 * the manifest dropped is deleted (path at its live index); in an item both have, a dropped field is removed as
 * in an object. Lists without names are replaced whole, and compareList already shows them.
 */
function collectListRemovals(
  live: unknown,
  written: readonly unknown[],
  previous: readonly unknown[],
  path: Path,
  changes: FieldChange[],
  applied: JsonObject,
): void {
  const liveItems = Array.isArray(live) ? (live as unknown[]) : [];
  if (!written.every(hasName) || !previous.every(hasName)) {
    return;
  }
  for (const item of previous) {
    const liveIndex = liveItems.findIndex(
      (candidate) => hasName(candidate) && candidate['name'] === item['name'],
    );
    if (liveIndex === -1) {
      continue;
    }
    const index = written.findIndex((candidate) => candidate['name'] === item['name']);
    if (index === -1) {
      changes.push({
        path: formatChangePath([...path, liveIndex]),
        old: show(liveItems[liveIndex]),
        new: null,
      });
    } else {
      collectRemovals(liveItems[liveIndex], written[index], item, [...path, index], changes, applied);
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

function hasName(item: unknown): item is JsonObject & { readonly name: string } {
  return isJsonObject(item) && typeof item['name'] === 'string';
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
