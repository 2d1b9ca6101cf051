/**
 * Compares the shape of a kind under two apiVersions, to tell whether moving a manifest from the old one to the
 * new one is a plain apiVersion rewrite ("mechanical") or needs edits. Used for removals the OpenAPI documents
 * show but the deprecation guide does not describe (alpha and beta versions of newer APIs).
 *
 * The shape is the set of field paths ("spec.metrics[].resource.target") with the JSON types each admits and
 * whether it is required. At the top of every object (the kind itself, or each item of a List) `status` is left
 * out, as it is not part of what users apply; ObjectMeta and ListMeta are not looked into, being the same type
 * under every apiVersion of one release (older releases differ only by the never-used clusterName).
 */
import type { JsonObject } from './json';
import { compareCodeUnits, isJsonObject } from './json';

/** What one field path admits. */
export interface FieldShape {
  /** JSON types, sorted, without "null" (every field admits null); empty when any value is allowed. */
  readonly types: readonly string[];
  readonly required: boolean;
}

/** At most this many differences are listed; a longer list says how many more there are. */
const MAX_LISTED_CHANGES = 5;

/** Fields of the top of an object that users do not apply. */
const IGNORED_TOP_FIELDS = new Set(['status']);

/** Definitions compared by name only (see above). */
const OPAQUE_DEFINITIONS = new Set([
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
]);

/**
 * The field paths of a kind (its translated definition and the definitions it references). `kindRoots` are the
 * definitions that are the top of an object (the values of a version's kinds map).
 */
export function fieldShapes(
  definitions: Readonly<Record<string, JsonObject>>,
  root: string,
  kindRoots: ReadonlySet<string>,
): Map<string, FieldShape> {
  const shapes = new Map<string, FieldShape>();
  const visit = (schema: JsonObject, path: string, required: boolean, stack: readonly string[]): void => {
    const { resolved, chain } = resolve(definitions, schema, stack);
    if (path !== '') {
      shapes.set(path, { types: typesOf(resolved), required });
    }
    const target = path === '' ? root : chain[chain.length - 1];
    if (target !== undefined && (OPAQUE_DEFINITIONS.has(target) || (chain.length > 0 && stack.includes(target)))) {
      return; // shared metadata, or a recursive type (JSONSchemaProps) whose fields were listed a level up
    }
    const isObjectTop = target !== undefined && kindRoots.has(target);
    const inner = [...stack, ...chain];
    const properties = isJsonObject(resolved['properties']) ? resolved['properties'] : {};
    const requiredNames = Array.isArray(resolved['required']) ? resolved['required'] : [];
    for (const [name, child] of Object.entries(properties)) {
      if ((isObjectTop && IGNORED_TOP_FIELDS.has(name)) || !isJsonObject(child)) {
        continue;
      }
      visit(child, path === '' ? name : `${path}.${name}`, requiredNames.includes(name), inner);
    }
    if (isJsonObject(resolved['items'])) {
      visit(resolved['items'], `${path}[]`, false, inner);
    }
    if (isJsonObject(resolved['additionalProperties'])) {
      visit(resolved['additionalProperties'], `${path}{}`, false, inner);
    }
  };
  const top = definitions[root];
  if (top === undefined) {
    throw new Error(`no definition ${root}`);
  }
  visit(top, '', false, [root]);
  return shapes;
}

/**
 * What a manifest written for the old shape would need to change to be valid under the new one, in words:
 * fields the new apiVersion does not have, fields whose type no longer matches, fields it newly requires.
 * Empty when the old manifest stays valid as it is. Only the outermost missing field of a subtree is named.
 */
export function shapeChanges(
  before: ReadonlyMap<string, FieldShape>,
  after: ReadonlyMap<string, FieldShape>,
  newApiVersion: string,
): string[] {
  const changes: string[] = [];
  const missing: string[] = [];
  for (const path of [...before.keys()].sort(compareCodeUnits)) {
    const old = before.get(path) as FieldShape;
    const now = after.get(path);
    if (now === undefined) {
      if (!missing.some((parent) => isInside(path, parent))) {
        missing.push(path);
        changes.push(`${path} does not exist in ${newApiVersion}`);
      }
    } else if (!admitsAll(now.types, old.types)) {
      changes.push(`${path} is ${describeTypes(now.types)} in ${newApiVersion}, was ${describeTypes(old.types)}`);
    }
  }
  for (const path of [...after.keys()].sort(compareCodeUnits)) {
    const now = after.get(path) as FieldShape;
    const parent = parentOf(path);
    if (now.required && !before.get(path)?.required && (parent === '' || before.has(parent))) {
      changes.push(`${path} is required in ${newApiVersion}`);
    }
  }
  if (changes.length <= MAX_LISTED_CHANGES) {
    return changes;
  }
  return [...changes.slice(0, MAX_LISTED_CHANGES), `and ${changes.length - MAX_LISTED_CHANGES} more differences`];
}

/** Follows $refs to a schema with content; `chain` lists the definitions passed through. */
function resolve(
  definitions: Readonly<Record<string, JsonObject>>,
  schema: JsonObject,
  stack: readonly string[],
): { resolved: JsonObject; chain: string[] } {
  const chain: string[] = [];
  let current = schema;
  for (let ref = current['$ref']; typeof ref === 'string'; ref = current['$ref']) {
    const name = ref.slice(ref.lastIndexOf('/') + 1);
    const target = definitions[name];
    if (target === undefined || chain.includes(name)) {
      throw new Error(`cannot resolve ${ref} (from ${stack.join(' > ')})`);
    }
    chain.push(name);
    current = target;
  }
  return { resolved: current, chain };
}

function typesOf(schema: JsonObject): string[] {
  const type = schema['type'];
  const list = typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t) => typeof t === 'string') : [];
  return list.filter((t) => t !== 'null').sort(compareCodeUnits);
}

/** Whether every value of the old types is still accepted (no types: anything; integer is a number). */
function admitsAll(now: readonly string[], old: readonly string[]): boolean {
  if (now.length === 0) {
    return true;
  }
  if (old.length === 0) {
    return false;
  }
  return old.every((type) => now.includes(type) || (type === 'integer' && now.includes('number')));
}

function describeTypes(types: readonly string[]): string {
  return types.length === 0 ? 'any value' : types.join(' or ');
}

function parentOf(path: string): string {
  const cut = Math.max(path.lastIndexOf('.'), path.endsWith('[]') ? path.length - 2 : -1, path.endsWith('{}') ? path.length - 2 : -1);
  return cut <= 0 ? '' : path.slice(0, cut);
}

function isInside(path: string, parent: string): boolean {
  return path.startsWith(parent) && (path[parent.length] === '.' || path[parent.length] === '[' || path[parent.length] === '{');
}
