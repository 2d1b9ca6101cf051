/**
 * Builds schemas/kubernetes/api-versions.json: which "<apiVersion>/<Kind>" each Kubernetes version serves,
 * what was removed before the first OpenAPI document (from the deprecation guide), the deprecation notices of
 * the documents, and for each removed kind whether moving to a stable apiVersion is a plain rewrite.
 */
import type { ApiVersionsFile, MigrationEntry } from '../../server/src/language/schema/api-versions';
import type { GuideRemoval } from './deprecation-guide';
import { GUIDE_REMOVALS } from './deprecation-guide';
import type { DeprecationEntry } from './deprecations';
import { deprecationNotice, suggestedReplacement } from './deprecations';
import { fieldShapes, shapeChanges } from './field-shapes';
import type { JsonObject } from './json';
import { compareCodeUnits } from './json';
import { extractKinds, kindKey, splitKindKey } from './kinds';
import { compareMinorVersions, minorOf } from './read-openapi';
import { transformDefinition } from './transform';

/** The OpenAPI definitions of one version (as read by read-openapi.ts). */
export interface VersionInput {
  readonly version: string;
  readonly definitions: Readonly<Record<string, JsonObject>>;
}

/** A stable apiVersion: no alpha or beta in its version ("v1", "apps/v1", "autoscaling/v2"). */
const STABLE_API_VERSION = /(^|\/)v\d+$/;

/** Builds the content of api-versions.json from every version's definitions, in any order. */
export function buildApiVersions(inputs: readonly VersionInput[]): ApiVersionsFile {
  const sorted = [...inputs].sort((a, b) => compareMinorVersions(a.version, b.version));
  const versions = sorted.map((input) => input.version);
  const kindsByVersion = new Map(sorted.map((input) => [input.version, extractKinds(input.definitions)]));
  const kinds = servedVersions(versions, kindsByVersion);
  const removedBefore = guideRemovalsBefore(versions[0] ?? '1.0', kinds);
  checkGuideAgainstDocuments(versions, kinds);
  return {
    versions,
    kinds,
    removedBefore,
    deprecated: deprecations(sorted, kindsByVersion),
    migrations: migrations(sorted, kinds, removedBefore),
  };
}

function servedVersions(versions: readonly string[], kindsByVersion: ReadonlyMap<string, Record<string, string>>) {
  const served: Record<string, string[]> = {};
  for (const version of versions) {
    for (const key of Object.keys(kindsByVersion.get(version) ?? {})) {
      (served[key] ??= []).push(version);
    }
  }
  return served;
}

/**
 * The guide's removals older than the first document, one entry per kind, plus the List kind of each where the
 * apiVersion the guide migrates to has one (extensions/v1beta1 DeploymentList went with Deployment).
 */
function guideRemovalsBefore(firstVersion: string, kinds: Readonly<Record<string, string[]>>) {
  const removed: Record<string, { removedIn: string }> = {};
  for (const entry of GUIDE_REMOVALS.filter((e) => minorOf(e.removedIn) < minorOf(firstVersion))) {
    for (const apiVersion of entry.apiVersions) {
      for (const kind of entry.kinds) {
        removed[kindKey(apiVersion, kind)] = { removedIn: entry.removedIn };
        const list = `${kind}List`;
        if (entry.migrateTo !== undefined && kinds[kindKey(entry.migrateTo, list)] !== undefined) {
          removed[kindKey(apiVersion, list)] = { removedIn: entry.removedIn };
        }
      }
    }
  }
  for (const key of Object.keys(removed)) {
    if (kinds[key] !== undefined) {
      throw new Error(`the guide says ${key} was removed before ${firstVersion}, but the documents serve it`);
    }
  }
  return removed;
}

/** Every removal of the guide from the first document on must be what the documents show. */
function checkGuideAgainstDocuments(versions: readonly string[], kinds: Readonly<Record<string, string[]>>): void {
  const first = versions[0] ?? '1.0';
  for (const entry of GUIDE_REMOVALS.filter((e) => minorOf(e.removedIn) > minorOf(first))) {
    for (const key of guideKeys(entry)) {
      const served = kinds[key] ?? [];
      const last = served[served.length - 1];
      const removedIn = last === undefined ? undefined : versions[versions.indexOf(last) + 1];
      if (removedIn !== entry.removedIn) {
        const shown = last === undefined ? 'never serve it' : `serve it until ${last}`;
        throw new Error(`the guide removes ${key} in ${entry.removedIn}, but the documents ${shown}`);
      }
    }
  }
}

/** The "<apiVersion>/<Kind>" keys a guide entry covers. */
export function guideKeys(entry: GuideRemoval): string[] {
  return entry.apiVersions.flatMap((apiVersion) => entry.kinds.map((kind) => kindKey(apiVersion, kind)));
}

/** The deprecation notice of each kind in each version whose description has one. */
function deprecations(sorted: readonly VersionInput[], kindsByVersion: ReadonlyMap<string, Record<string, string>>) {
  const result: Record<string, Record<string, DeprecationEntry>> = {};
  for (const { version, definitions } of sorted) {
    const served = kindsByVersion.get(version) ?? {};
    const servedKeys = Object.keys(served);
    for (const [key, name] of Object.entries(served)) {
      const description = definitions[name]?.['description'];
      const message = typeof description === 'string' ? deprecationNotice(description) : undefined;
      if (message === undefined) {
        continue;
      }
      const replacement = suggestedReplacement(message, servedKeys);
      (result[key] ??= {})[version] = replacement === undefined ? { message } : { message, replacement };
    }
  }
  return result;
}

/**
 * For each kind no longer served by the newest version (or removed before the first), and each stable
 * apiVersion serving the same kind in some version: the guide's verdict when the guide covers that move, else
 * the comparison of the two shapes (see createShapeComparison).
 */
function migrations(
  sorted: readonly VersionInput[],
  kinds: Readonly<Record<string, string[]>>,
  removedBefore: Readonly<Record<string, { removedIn: string }>>,
): Record<string, Record<string, MigrationEntry>> {
  const newest = sorted[sorted.length - 1]?.version ?? '';
  const compareShapes = createShapeComparison(sorted, kinds);
  const removedKeys = Object.keys(kinds).filter((key) => !(kinds[key] ?? []).includes(newest));
  const result: Record<string, Record<string, MigrationEntry>> = {};
  for (const oldKey of [...removedKeys, ...Object.keys(removedBefore)].sort(compareCodeUnits)) {
    const { apiVersion: oldApiVersion, kind } = splitKindKey(oldKey);
    const targets = Object.keys(kinds)
      .map(splitKindKey)
      .filter((t) => t.kind === kind && t.apiVersion !== oldApiVersion && STABLE_API_VERSION.test(t.apiVersion));
    for (const { apiVersion: newApiVersion } of targets) {
      const guide = GUIDE_REMOVALS.find((e) => e.migrateTo === newApiVersion && guideKeys(e).includes(oldKey));
      let entry: MigrationEntry | undefined;
      if (guide !== undefined) {
        entry = { isMechanical: guide.changes.length === 0, changes: [...guide.changes] };
        if (guide.notes !== undefined) {
          entry.notes = [...guide.notes];
        }
      } else if (kinds[oldKey] !== undefined) {
        const changes = compareShapes(oldKey, newApiVersion);
        entry = { isMechanical: changes.length === 0, changes };
      }
      if (entry !== undefined) {
        (result[oldKey] ??= {})[newApiVersion] = entry;
      }
    }
  }
  return result;
}

/**
 * A function telling what a manifest of `oldKey` ("<apiVersion>/<Kind>", as last served) needs in order to be
 * valid under `newApiVersion` (shapeChanges: empty when a rewrite of apiVersion is enough). Both kinds must be
 * served by some version of `inputs`; each version's definitions are translated once, on first use.
 */
export function createShapeComparison(
  inputs: readonly VersionInput[],
  kinds: Readonly<Record<string, string[]>>,
): (oldKey: string, newApiVersion: string) => string[] {
  const translated = new Map<string, { definitions: Record<string, JsonObject>; kinds: Record<string, string> }>();
  const versionData = (version: string) => {
    let data = translated.get(version);
    if (data === undefined) {
      const input = inputs.find((candidate) => candidate.version === version);
      const served = extractKinds(input?.definitions ?? {});
      const roots = new Set(Object.values(served));
      const definitions: Record<string, JsonObject> = {};
      for (const [name, schema] of Object.entries(input?.definitions ?? {})) {
        definitions[name] = transformDefinition(name, schema, roots.has(name));
      }
      data = { definitions, kinds: served };
      translated.set(version, data);
    }
    return data;
  };
  const shapeOf = (key: string, version: string) => {
    const data = versionData(version);
    const name = data.kinds[key];
    if (name === undefined) {
      throw new Error(`${key} is not served in ${version}`);
    }
    return fieldShapes(data.definitions, name, new Set(Object.values(data.kinds)));
  };
  return (oldKey, newApiVersion) => {
    const newKey = kindKey(newApiVersion, splitKindKey(oldKey).kind);
    const oldServed = kinds[oldKey] ?? [];
    const lastOld = oldServed[oldServed.length - 1];
    if (lastOld === undefined) {
      throw new Error(`${oldKey} is served by no version`);
    }
    return shapeChanges(shapeOf(oldKey, lastOld), shapeOf(newKey, closestServed(kinds[newKey] ?? [], lastOld)), newApiVersion);
  };
}

/**
 * The version in which to read the new apiVersion's shape: the one that last served the old apiVersion when it
 * served both (so that changes between releases, like a field newly marked required, do not count as changes
 * between apiVersions), else the first one after it, else the last one before it.
 */
function closestServed(served: readonly string[], target: string): string {
  const later = served.filter((version) => minorOf(version) >= minorOf(target));
  return later[0] ?? (served[served.length - 1] as string);
}
