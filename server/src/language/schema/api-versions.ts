/**
 * Which apiVersion/kind pairs a Kubernetes version serves, from schemas/kubernetes/api-versions.json (generated
 * by `npm run schemas` from the OpenAPI documents of 1.23 on, plus the removals of the deprecation guide before
 * that). Pure: the caller loads and parses the file and hands the object over.
 *
 * Answers, for an apiVersion, a kind and the selected Kubernetes version: served (perhaps deprecated), removed
 * (since when, and what to use instead), not yet served, or not a built-in kind at all. `kind: List` is not a
 * kind of the OpenAPI documents; callers handle it before asking.
 */

/** A migration from an apiVersion of a kind to another apiVersion, as api-versions.json records it. */
export interface MigrationEntry {
  /** Whether rewriting apiVersion alone turns a valid old manifest into a valid new one. */
  isMechanical: boolean;
  /** What a rewrite alone would get wrong (empty when mechanical). */
  changes: string[];
  /** Behaviour differences that need no edit. */
  notes?: string[];
}

/** The content of schemas/kubernetes/api-versions.json. Keys of kinds are "<apiVersion>/<Kind>". */
export interface ApiVersionsFile {
  /** Every Kubernetes minor version the OpenAPI documents cover, oldest first. */
  versions: string[];
  /** "<apiVersion>/<Kind>" → the versions serving it, oldest first. */
  kinds: Record<string, string[]>;
  /** Kinds removed before the first version above, with the release that removed them. */
  removedBefore: Record<string, { removedIn: string }>;
  /** "<apiVersion>/<Kind>" → version → the deprecation notice of that version and the kind it points to. */
  deprecated: Record<string, Record<string, { message: string; replacement?: string }>>;
  /** Old "<apiVersion>/<Kind>" → new apiVersion → how to migrate. */
  migrations: Record<string, Record<string, MigrationEntry>>;
}

/** What to write instead. */
export interface Replacement {
  apiVersion: string;
  kind: string;
  /** True when changing apiVersion (and nothing else) is enough; false when unknown. */
  isMechanical: boolean;
  changes: readonly string[];
  notes: readonly string[];
}

/** The answer for one apiVersion, kind and Kubernetes version. */
export type ApiVersionStatus =
  | { status: 'served'; deprecation?: { message: string; replacement?: Replacement } }
  | { status: 'removed'; removedIn: string; replacement?: Replacement }
  | { status: 'notYetServed'; introducedIn: string; replacement?: Replacement }
  /** The apiVersion is built in but has no such kind in any version; `servedAs` lists where the kind is served. */
  | { status: 'unknownKind'; servedAs: string[] }
  /** The group is built in but not this version of it. */
  | { status: 'unknownApiVersion'; replacement?: Replacement }
  /** Not a built-in group: a custom resource, or a typo we cannot place. */
  | { status: 'unknown' };

/** Lookups over one api-versions.json. */
interface ApiVersionIndex {
  /** The status of apiVersion + kind in a Kubernetes version ("1.35"). */
  check(apiVersion: string, kind: string, kubernetesVersion: string): ApiVersionStatus;
}

/** A stable apiVersion has a version with no alpha or beta part: "v1", "apps/v1", "autoscaling/v2". */
const STABLE_VERSION = /^v(\d+)$/;

/** Builds the lookups over a parsed api-versions.json. */
export function createApiVersionIndex(file: ApiVersionsFile): ApiVersionIndex {
  const servedSets = new Map<string, Set<string>>();
  const kindsByName = new Map<string, string[]>();
  const apiVersions = new Set<string>();
  const groups = new Set<string>();
  const remember = (key: string): void => {
    const { apiVersion, kind } = splitKey(key);
    apiVersions.add(apiVersion);
    groups.add(groupOf(apiVersion));
    kindsByName.set(kind, [...(kindsByName.get(kind) ?? []), apiVersion]);
  };
  for (const [key, versions] of Object.entries(file.kinds)) {
    servedSets.set(key, new Set(versions));
    remember(key);
  }
  Object.keys(file.removedBefore).forEach(remember);

  const replacementFor = (apiVersion: string, kind: string, version: string): Replacement | undefined => {
    const candidates = (kindsByName.get(kind) ?? []).filter(
      (candidate) =>
        candidate !== apiVersion &&
        STABLE_VERSION.test(versionOf(candidate)) &&
        servedSets.get(`${candidate}/${kind}`)?.has(version) === true,
    );
    const best = candidates.sort(preferReplacement(groupOf(apiVersion)))[0];
    if (best === undefined) {
      return undefined;
    }
    const migration = file.migrations[`${apiVersion}/${kind}`]?.[best];
    return {
      apiVersion: best,
      kind,
      isMechanical: migration?.isMechanical ?? false,
      changes: migration?.changes ?? [],
      notes: migration?.notes ?? [],
    };
  };

  return {
    check(apiVersion, kind, kubernetesVersion) {
      const version = nearestKnownVersion(file.versions, kubernetesVersion);
      const key = `${apiVersion}/${kind}`;
      const served = file.kinds[key];
      if (served !== undefined) {
        if (served.includes(version)) {
          return servedStatus(file, key, version);
        }
        const earlier = served.filter((v) => compareVersions(v, version) < 0);
        const lastServed = earlier[earlier.length - 1];
        if (lastServed === undefined) {
          const introducedIn = served[0] as string;
          return withReplacement(
            { status: 'notYetServed', introducedIn },
            replacementFor(apiVersion, kind, version),
          );
        }
        const removedIn = file.versions[file.versions.indexOf(lastServed) + 1] ?? version;
        return withReplacement({ status: 'removed', removedIn }, replacementFor(apiVersion, kind, version));
      }
      const removed = file.removedBefore[key];
      if (removed !== undefined) {
        return withReplacement(
          { status: 'removed', removedIn: removed.removedIn },
          replacementFor(apiVersion, kind, version),
        );
      }
      if (apiVersions.has(apiVersion)) {
        const servedAs = (kindsByName.get(kind) ?? []).filter((candidate) =>
          servedSets.get(`${candidate}/${kind}`)?.has(version),
        );
        return { status: 'unknownKind', servedAs: servedAs.sort() };
      }
      if (groups.has(groupOf(apiVersion))) {
        return withReplacement({ status: 'unknownApiVersion' }, replacementFor(apiVersion, kind, version));
      }
      return { status: 'unknown' };
    },
  };
}

function servedStatus(file: ApiVersionsFile, key: string, version: string): ApiVersionStatus {
  const notice = file.deprecated[key]?.[version];
  if (notice === undefined) {
    return { status: 'served' };
  }
  const target = notice.replacement === undefined ? undefined : splitKey(notice.replacement);
  const replacement: Replacement | undefined =
    target === undefined
      ? undefined
      : {
          ...target,
          // Another kind (Endpoints → EndpointSlice) is never a rewrite of apiVersion alone.
          isMechanical: false,
          changes: [],
          notes: [],
        };
  return {
    status: 'served',
    deprecation:
      replacement === undefined ? { message: notice.message } : { message: notice.message, replacement },
  };
}

function withReplacement<T extends ApiVersionStatus>(status: T, replacement: Replacement | undefined): T {
  return replacement === undefined ? status : { ...status, replacement };
}

/**
 * Orders candidate replacements: the same group first (events.k8s.io/v1beta1 Event → events.k8s.io/v1, not the
 * core v1 Event), then the newest version (autoscaling/v2 before autoscaling/v1), then by name.
 */
function preferReplacement(group: string): (a: string, b: string) => number {
  return (a, b) => {
    const sameGroup = Number(groupOf(b) === group) - Number(groupOf(a) === group);
    const newer = stableNumber(b) - stableNumber(a);
    return sameGroup !== 0 ? sameGroup : newer !== 0 ? newer : a < b ? -1 : a > b ? 1 : 0;
  };
}

/**
 * The selected version if the file covers it; otherwise the closest covered one (a version newer than the file
 * is judged like the newest, an older one like the oldest).
 */
function nearestKnownVersion(versions: readonly string[], selected: string): string {
  if (versions.includes(selected) || versions.length === 0) {
    return selected;
  }
  const older = versions.filter((v) => compareVersions(v, selected) < 0);
  return older[older.length - 1] ?? (versions[0] as string);
}

/** Compares "1.9" and "1.10" by minor number. */
function compareVersions(a: string, b: string): number {
  return minorOf(a) - minorOf(b);
}

function minorOf(version: string): number {
  const minor = Number(version.split('.')[1]);
  return Number.isFinite(minor) ? minor : 0;
}

function splitKey(key: string): { apiVersion: string; kind: string } {
  const slash = key.lastIndexOf('/');
  return { apiVersion: key.slice(0, slash), kind: key.slice(slash + 1) };
}

/** The API group of an apiVersion: "apps" for "apps/v1", "" (core) for "v1". */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.indexOf('/') + 1);
}

function stableNumber(apiVersion: string): number {
  return Number(STABLE_VERSION.exec(versionOf(apiVersion))?.[1] ?? 0);
}
