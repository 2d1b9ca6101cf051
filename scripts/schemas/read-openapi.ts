/**
 * Reads the Kubernetes OpenAPI v3 documents of one or all minor versions from disk (the only module of the
 * generator that touches the file system for input) and merges each version's components.schemas.
 *
 * Layout, as an API server publishes it under /openapi/v3: `<root>/<minor>/api/v1.json` for the core group and
 * `<root>/<minor>/apis/<group>/<version>.json` for every other group/version.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { JsonObject } from './json';
import { compareCodeUnits, isJsonObject, sortKeysDeep } from './json';

/** The environment variable that points the generator at another copy of the OpenAPI documents. */
export const OPENAPI_DIR_ENV = 'KUBE_OPENAPI_DIR';

/** Where the documents are, relative to the project root, when the environment does not say otherwise. */
export const DEFAULT_OPENAPI_DIR = '../shared/kubernetes-openapi/v3';

/** The definitions of one Kubernetes minor version, merged from all of its documents. */
export interface VersionDefinitions {
  /** The minor version, "1.35". */
  readonly version: string;
  /** Definition name → OpenAPI schema, as the documents give it. */
  readonly definitions: Record<string, JsonObject>;
  /** Definitions that two documents gave differently; the first document's one was kept (see readDefinitions). */
  readonly conflicts: string[];
}

/** The folder holding one sub-folder per minor version: $KUBE_OPENAPI_DIR, else DEFAULT_OPENAPI_DIR. */
export function resolveOpenApiRoot(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const override = env[OPENAPI_DIR_ENV];
  return override !== undefined && override !== '' ? resolve(override) : resolve(projectRoot, DEFAULT_OPENAPI_DIR);
}

/** The minor versions ("1.23", …) present under the root, oldest first. */
export function listVersions(root: string): string[] {
  return readdirSync(root)
    .filter((name) => /^1\.\d+$/.test(name) && statSync(join(root, name)).isDirectory())
    .sort(compareMinorVersions);
}

/** Orders "1.9" before "1.10" (numerically by minor, not as text). */
export function compareMinorVersions(a: string, b: string): number {
  return minorOf(a) - minorOf(b);
}

/** The minor number of "1.N"; throws on anything else, since every version string here comes from our data. */
export function minorOf(version: string): number {
  const match = /^1\.(\d+)$/.exec(version);
  if (match === null) {
    throw new Error(`not a Kubernetes minor version: "${version}"`);
  }
  return Number(match[1]);
}

/**
 * The documents of one version as paths relative to its folder: the core group (api/v1.json) first, then the
 * named groups in code-unit order, so that the merge below has one fixed order.
 */
export function listDocuments(versionDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        walk(full);
      } else if (name.endsWith('.json')) {
        found.push(relative(versionDir, full).split(sep).join('/'));
      }
    }
  };
  walk(versionDir);
  return found.sort((a, b) => documentRank(a) - documentRank(b) || compareCodeUnits(a, b));
}

function documentRank(path: string): number {
  return path.startsWith('api/') ? 0 : 1;
}

/**
 * Reads every document of a version and merges their components.schemas. Most definitions (ObjectMeta, Status…)
 * appear in every document, identically from 1.27 on; before that the kube-aggregator's document
 * (apiregistration.k8s.io) carries an older copy of the apimachinery types (ObjectMeta still with clusterName).
 * The first document wins, and the core document comes first: it is published by kube-apiserver itself, whose
 * copy of those shared types is the one that validates requests.
 */
export function readDefinitions(root: string, version: string): VersionDefinitions {
  const versionDir = join(root, version);
  const definitions: Record<string, JsonObject> = {};
  const conflicts = new Set<string>();
  for (const document of listDocuments(versionDir)) {
    const file = join(versionDir, document);
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const schemas = isJsonObject(parsed) && isJsonObject(parsed['components']) ? parsed['components']['schemas'] : {};
    if (!isJsonObject(schemas)) {
      throw new Error(`${file}: components.schemas is not an object`);
    }
    for (const [name, schema] of Object.entries(schemas)) {
      if (!isJsonObject(schema)) {
        throw new Error(`${file}: definition ${name} is not an object`);
      }
      const existing = definitions[name];
      if (existing === undefined) {
        definitions[name] = schema;
      } else if (!isSameJson(existing, schema)) {
        conflicts.add(name);
      }
    }
  }
  return { version, definitions, conflicts: [...conflicts].sort(compareCodeUnits) };
}

/** Whether two parsed JSON values are equal, whatever the order of their keys (the cheap test first). */
function isSameJson(a: JsonObject, b: JsonObject): boolean {
  return JSON.stringify(a) === JSON.stringify(b) || JSON.stringify(sortKeysDeep(a)) === JSON.stringify(sortKeysDeep(b));
}
