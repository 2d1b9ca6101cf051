/**
 * The kinds a user can write in a manifest, read from the `x-kubernetes-group-version-kind` extension of each
 * definition, keyed "<apiVersion>/<Kind>" ("apps/v1/Deployment"; the core group has no group part: "v1/Pod").
 */
import type { JsonObject } from './json';
import { compareCodeUnits, isJsonObject } from './json';

/** The extension that names the group, version and kind a definition is the body of. */
export const GVK_EXTENSION = 'x-kubernetes-group-version-kind';

/**
 * Definitions of the API machinery (package meta/v1) carry GVKs too, but they are envelopes of the API protocol,
 * not objects anyone applies: DeleteOptions and WatchEvent (listed under every group/version), Status,
 * APIResourceList, APIGroup, APIGroupList, APIVersions. The whole package is left out, so a future envelope
 * is too. (`kind: List` has no definition at all; the language server handles it itself.)
 */
export const META_DEFINITION_PREFIX = 'io.k8s.apimachinery.pkg.apis.meta.';

/** One group/version/kind, as the extension writes it ("" is the core group). */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** The apiVersion of a group/version: "apps/v1", or "v1" for the core group. */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** The key of a kind in the generated files: "<apiVersion>/<Kind>". */
export function kindKey(apiVersion: string, kind: string): string {
  return `${apiVersion}/${kind}`;
}

/** Splits "<apiVersion>/<Kind>" back into its apiVersion ("apps/v1", "v1") and kind. */
export function splitKindKey(key: string): { apiVersion: string; kind: string } {
  const slash = key.lastIndexOf('/');
  return { apiVersion: key.slice(0, slash), kind: key.slice(slash + 1) };
}

/** The GVKs a definition declares (none for the many definitions that are only parts of objects). */
export function groupVersionKindsOf(name: string, schema: JsonObject): GroupVersionKind[] {
  const declared = schema[GVK_EXTENSION];
  if (declared === undefined) {
    return [];
  }
  if (!Array.isArray(declared)) {
    throw new Error(`${name}: ${GVK_EXTENSION} is not a list`);
  }
  return declared.map((entry) => {
    if (!isJsonObject(entry)) {
      throw new Error(`${name}: ${GVK_EXTENSION} has an entry that is not an object`);
    }
    const { group, version, kind } = entry;
    if (typeof group !== 'string' || typeof version !== 'string' || typeof kind !== 'string') {
      throw new Error(`${name}: ${GVK_EXTENSION} entry lacks group, version or kind`);
    }
    return { group, version, kind };
  });
}

/**
 * Every user-applicable kind of a version: "<apiVersion>/<Kind>" → definition name, keys in code-unit order.
 * Throws if two definitions claim one kind, which would make the map ambiguous.
 */
export function extractKinds(definitions: Readonly<Record<string, JsonObject>>): Record<string, string> {
  const found = new Map<string, string>();
  for (const name of Object.keys(definitions).sort(compareCodeUnits)) {
    if (name.startsWith(META_DEFINITION_PREFIX)) {
      continue;
    }
    for (const gvk of groupVersionKindsOf(name, definitions[name] as JsonObject)) {
      const key = kindKey(apiVersionOf(gvk.group, gvk.version), gvk.kind);
      const previous = found.get(key);
      if (previous !== undefined && previous !== name) {
        throw new Error(`kind ${key} is claimed by both ${previous} and ${name}`);
      }
      found.set(key, name);
    }
  }
  const kinds: Record<string, string> = {};
  for (const key of [...found.keys()].sort(compareCodeUnits)) {
    kinds[key] = found.get(key) as string;
  }
  return kinds;
}
