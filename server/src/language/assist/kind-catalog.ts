/**
 * The built-in kinds of a schema bundle by apiVersion, for completing `kind:` and `apiVersion:`. Versions are
 * ordered as Kubernetes orders them (GA before beta before alpha, newer first; see
 * https://github.com/kubernetes/apimachinery/blob/master/pkg/version/helpers.go, CompareKubeAwareVersionStrings).
 */
import type { SchemaStore } from '../schema/schema-store';

/** One served kind. */
export interface ServedKind {
  readonly apiVersion: string;
  readonly kind: string;
  readonly definition: string;
}

const VERSION_PATTERN = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const catalogs = new WeakMap<SchemaStore, readonly ServedKind[]>();

/** Every kind of the store's bundle (computed once per store). */
export function servedKinds(store: SchemaStore): readonly ServedKind[] {
  let catalog = catalogs.get(store);
  if (catalog === undefined) {
    catalog = Object.entries(store.bundle.kinds).map(([key, definition]) => {
      const slash = key.lastIndexOf('/');
      return { apiVersion: key.slice(0, slash), kind: key.slice(slash + 1), definition };
    });
    catalogs.set(store, catalog);
  }
  return catalog;
}

/** The kinds served under an apiVersion (every kind when it is unknown or not given), sorted; lists last. */
export function kindsFor(store: SchemaStore, apiVersion: string | undefined): ServedKind[] {
  const all = servedKinds(store);
  const served = apiVersion === undefined ? [] : all.filter((entry) => entry.apiVersion === apiVersion);
  const chosen = served.length > 0 ? served : uniqueBy(all, (entry) => entry.kind, compareServedKinds);
  return [...chosen].sort(
    (a, b) => Number(isList(a.kind)) - Number(isList(b.kind)) || a.kind.localeCompare(b.kind, 'en'),
  );
}

/** The apiVersions serving a kind (every apiVersion when the kind is unknown or not given), preferred first. */
export function apiVersionsFor(store: SchemaStore, kind: string | undefined): ServedKind[] {
  const all = servedKinds(store);
  const serving = kind === undefined ? [] : all.filter((entry) => entry.kind === kind);
  const chosen =
    serving.length > 0 ? serving : uniqueBy(all, (entry) => entry.apiVersion, compareServedKinds);
  return [...chosen].sort(compareServedKinds);
}

/** Orders by group (core first, then by name), then by version priority. */
function compareServedKinds(a: ServedKind, b: ServedKind): number {
  const [groupA, versionA] = splitApiVersion(a.apiVersion);
  const [groupB, versionB] = splitApiVersion(b.apiVersion);
  return (
    groupA.localeCompare(groupB, 'en') ||
    compareVersions(versionA, versionB) ||
    a.kind.localeCompare(b.kind, 'en')
  );
}

/** Compares Kubernetes API versions: v2 before v1 before v1beta2 before v1beta1 before v1alpha1, others last. */
export function compareVersions(a: string, b: string): number {
  const rankA = versionRank(a);
  const rankB = versionRank(b);
  for (let index = 0; index < rankA.length; index++) {
    const difference = (rankB[index] ?? 0) - (rankA[index] ?? 0);
    if (difference !== 0) {
      return difference;
    }
  }
  return a.localeCompare(b, 'en');
}

function versionRank(version: string): number[] {
  const match = VERSION_PATTERN.exec(version);
  if (match === null) {
    return [0, 0, 0, 0];
  }
  const stage = match[2] === undefined ? 3 : match[2] === 'beta' ? 2 : 1;
  return [1, stage, Number(match[1]), Number(match[3] ?? 0)];
}

function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

function isList(kind: string): boolean {
  return kind.length > 4 && kind.endsWith('List');
}

function uniqueBy(
  entries: readonly ServedKind[],
  keyOf: (entry: ServedKind) => string,
  prefer: (a: ServedKind, b: ServedKind) => number,
): ServedKind[] {
  const chosen = new Map<string, ServedKind>();
  for (const entry of entries) {
    const current = chosen.get(keyOf(entry));
    if (current === undefined || prefer(entry, current) < 0) {
      chosen.set(keyOf(entry), entry);
    }
  }
  return [...chosen.values()];
}
