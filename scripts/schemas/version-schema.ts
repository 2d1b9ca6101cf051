/**
 * Assembles schemas/kubernetes/<minor>.json: one self-contained draft-07 schema per Kubernetes version, with
 * the kinds map beside the translated definitions.
 */
import type { JsonObject, JsonValue } from './json';
import { compareCodeUnits, isJsonObject } from './json';
import { extractKinds } from './kinds';
import { keepListMapKeyDefaults } from './list-map-keys';
import { transformDefinition } from './transform';

/** The JSON Schema dialect of the generated files (ajv 8's default). */
export const JSON_SCHEMA_DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** The generated schema of one Kubernetes version. */
export interface VersionSchema {
  $schema: string;
  /** "1.35". */
  kubernetesVersion: string;
  /** "<apiVersion>/<Kind>" → definition name, for every kind users apply. */
  kinds: Record<string, string>;
  /** Definition name → translated schema; `$ref`s point at "#/definitions/<name>". */
  definitions: Record<string, JsonObject>;
}

/**
 * Builds the schema of a version from its merged OpenAPI definitions. The top of each kind is not nullable (a
 * document must be an object); everything else is. Every definition is kept, including the protocol envelopes
 * no kind reaches (WatchEvent, DeleteOptions, Status…): they weigh a few kilobytes of a file of about 1.3 MB.
 * Throws if a `$ref` points at a missing definition.
 */
export function buildVersionSchema(version: string, openApi: Readonly<Record<string, JsonObject>>): VersionSchema {
  const kinds = extractKinds(openApi);
  const roots = new Set(Object.values(kinds));
  const definitions: Record<string, JsonObject> = {};
  for (const name of Object.keys(openApi).sort(compareCodeUnits)) {
    definitions[name] = transformDefinition(name, openApi[name] as JsonObject, roots.has(name));
  }
  reachableDefinitions(Object.keys(definitions), definitions);
  keepListMapKeyDefaults(openApi, definitions);
  return { $schema: JSON_SCHEMA_DRAFT_07, kubernetesVersion: version, kinds, definitions };
}

/** The names of the definitions reachable by `$ref` from the given roots (roots included). */
export function reachableDefinitions(roots: readonly string[], definitions: Readonly<Record<string, JsonObject>>): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (seen.has(name)) {
      continue;
    }
    const schema = definitions[name];
    if (schema === undefined) {
      throw new Error(`$ref to a missing definition: ${name}`);
    }
    seen.add(name);
    collectRefs(schema, pending);
  }
  return seen;
}

/** The definition names of every `$ref` inside a translated schema. */
export function collectRefs(value: JsonValue, into: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((item) => collectRefs(item, into));
  } else if (isJsonObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') {
        into.push(child.slice(child.lastIndexOf('/') + 1));
      } else {
        collectRefs(child, into);
      }
    }
  }
}
