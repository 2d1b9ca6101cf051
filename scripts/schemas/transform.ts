/**
 * Turns OpenAPI v3 schemas of Kubernetes definitions into JSON Schema draft-07 that ajv 8 compiles in strict
 * mode, and that judges a manifest as the API server does with strict field validation: unknown fields are
 * errors, null is "unset", int-or-string and quantity fields take both spellings.
 *
 * Every keyword of the input is either kept, rewritten, or dropped for a stated reason; an unknown keyword throws,
 * so that a new construct in a future OpenAPI document gets a decision instead of a silent mistranslation.
 */
import type { JsonObject, JsonValue } from './json';
import { isJsonObject } from './json';

/** resource.Quantity: "2", 2, 0.5, "500m", "1Gi". Its OpenAPI form is a oneOf of string and number. */
export const QUANTITY_DEFINITION = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

/** intstr.IntOrString: 8080 or "http", 1 or "25%". A oneOf (1.24+) or a string with a format (1.23). */
export const INT_OR_STRING_DEFINITION = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

/** The ajv format the language server registers to check quantity syntax; the generator only names it. */
export const QUANTITY_FORMAT = 'quantity';

/** The only `$ref` form the documents use, and what it becomes in the generated file. */
const OPENAPI_REF_PREFIX = '#/components/schemas/';
const JSON_SCHEMA_REF_PREFIX = '#/definitions/';

/** Keywords copied as they are: all mean the same in OpenAPI v3 schemas and draft-07. */
const COPIED_KEYWORDS = new Set(['description', 'required', 'minimum', 'maximum']);

/**
 * Keywords dropped on purpose:
 * - default: the API server fills defaults in; a default never makes a manifest invalid, and ajv strict mode
 *   would check it against the schema (Kubernetes defaults like `{}` on a $ref do not always pass).
 * - format: int32, int64, double, byte, date-time… are facts about Go types, not text rules the API server
 *   enforces on input the way ajv would; ajv strict mode also rejects formats it does not know.
 * - example: documentation only.
 */
const DROPPED_KEYWORDS = new Set(['default', 'format', 'example']);

/** Extensions of Kubernetes (`x-kubernetes-list-type`, patch strategies, unions…): not validation keywords. */
const EXTENSION_PREFIX = 'x-kubernetes-';

/**
 * The extensions kept on a list of `x-kubernetes-list-type: map`: the list type and its keys, which the language
 * server reads to find items with the same keys (rules/list-map-duplicate.ts). Other list types are dropped.
 */
export const LIST_TYPE_EXTENSION = 'x-kubernetes-list-type';
export const LIST_MAP_KEYS_EXTENSION = 'x-kubernetes-list-map-keys';

/** With this extension an object keeps fields its schema does not list (so it must get no additionalProperties). */
const PRESERVE_UNKNOWN_FIELDS = 'x-kubernetes-preserve-unknown-fields';

/** The extension CRD-style schemas use for int-or-string (the built-in documents use the format instead). */
const INT_OR_STRING_EXTENSION = 'x-kubernetes-int-or-string';

/** How one schema node is translated. */
export interface TransformContext {
  /** Where the node is, for error messages: "io.k8s.api.apps.v1.DeploymentSpec.properties.replicas". */
  readonly where: string;
  /**
   * Whether the node accepts null. True everywhere but at the top of an object users apply: the API server
   * treats a null field as unset (kubectl output has `creationTimestamp: null`), but a document must be an object.
   */
  readonly nullable: boolean;
}

/**
 * Translates one definition. Quantity and IntOrString get their fixed forms; every other definition is
 * translated keyword by keyword (see transformSchema).
 */
export function transformDefinition(name: string, schema: JsonObject, isKindRoot: boolean): JsonObject {
  const context: TransformContext = { where: name, nullable: !isKindRoot };
  if (name === QUANTITY_DEFINITION) {
    // A union type, not oneOf: oneOf makes ajv report one error per branch for a single mistake.
    return withDescription(schema, { type: withNull(['string', 'number'], true), format: QUANTITY_FORMAT });
  }
  if (name === INT_OR_STRING_DEFINITION) {
    return intOrString(schema, context);
  }
  return transformSchema(schema, context);
}

/** Translates one schema node and, recursively, the schemas it contains. */
export function transformSchema(schema: JsonObject, context: TransformContext): JsonObject {
  const ref = referenceOf(schema, context.where);
  if (ref !== undefined) {
    return reference(schema, ref, context.where);
  }
  if (schema['format'] === 'int-or-string' || schema[INT_OR_STRING_EXTENSION] === true) {
    return intOrString(schema, context);
  }
  const result: JsonObject = {};
  const types = typesOf(schema, context.where);
  for (const [keyword, value] of Object.entries(schema)) {
    const where = `${context.where}.${keyword}`;
    if (COPIED_KEYWORDS.has(keyword)) {
      result[keyword] = value;
    } else if (keyword === 'properties') {
      result[keyword] = transformProperties(value, where);
    } else if (keyword === 'items') {
      result[keyword] = transformSchema(asObject(value, where), { where, nullable: true });
    } else if (keyword === 'additionalProperties') {
      result[keyword] = typeof value === 'boolean' ? value : transformSchema(asObject(value, where), { where, nullable: true });
    } else if (keyword === 'enum') {
      // null must stay a possible value wherever the type admits it, or ajv would reject it by enum.
      const values = Array.isArray(value) ? value : [];
      result[keyword] = context.nullable && !values.includes(null) ? [...values, null] : values;
    } else if (!isHandledElsewhere(keyword)) {
      throw new Error(`${where}: unsupported keyword "${keyword}"; decide how to translate it`);
    }
  }
  if (types !== undefined) {
    result['type'] = withNull(types, context.nullable);
  }
  keepListMapKeys(schema, result);
  applyUnknownFieldPolicy(schema, result);
  return result;
}

/** Copies `x-kubernetes-list-type: map` and its keys (see LIST_TYPE_EXTENSION). */
function keepListMapKeys(source: JsonObject, result: JsonObject): void {
  const keys = source[LIST_MAP_KEYS_EXTENSION];
  if (source[LIST_TYPE_EXTENSION] === 'map' && Array.isArray(keys) && keys.length > 0) {
    result[LIST_TYPE_EXTENSION] = 'map';
    result[LIST_MAP_KEYS_EXTENSION] = keys;
  }
}

/**
 * Strict field validation: an object that lists its properties rejects any other field (the API server's
 * "unknown field" error), unless it declares x-kubernetes-preserve-unknown-fields. Maps (additionalProperties
 * with a schema) and open objects (no properties: RawExtension, FieldsV1) stay as they are.
 */
function applyUnknownFieldPolicy(source: JsonObject, result: JsonObject): void {
  if (source[PRESERVE_UNKNOWN_FIELDS] === true) {
    if (result['additionalProperties'] === false) {
      delete result['additionalProperties'];
    }
    return;
  }
  if (result['properties'] !== undefined && result['additionalProperties'] === undefined) {
    result['additionalProperties'] = false;
  }
}

function transformProperties(value: JsonValue, where: string): JsonObject {
  const properties: JsonObject = {};
  for (const [name, schema] of Object.entries(asObject(value, where))) {
    const path = `${where}.${name}`;
    properties[name] = transformSchema(asObject(schema, path), { where: path, nullable: true });
  }
  return properties;
}

/** Keywords read by typesOf, referenceOf or the unknown-field policy, or dropped on purpose. */
function isHandledElsewhere(keyword: string): boolean {
  return (
    keyword === 'type' ||
    keyword === 'oneOf' ||
    keyword === 'anyOf' ||
    DROPPED_KEYWORDS.has(keyword) ||
    keyword.startsWith(EXTENSION_PREFIX)
  );
}

/**
 * The target of a `$ref`, written directly or as `allOf: [{ $ref }]` (the form the documents use to give a
 * referenced schema its own description and default), or undefined when the node is not a reference.
 */
function referenceOf(schema: JsonObject, where: string): string | undefined {
  const allOf = schema['allOf'];
  if (allOf === undefined) {
    const ref = schema['$ref'];
    return typeof ref === 'string' ? ref : undefined;
  }
  const only = Array.isArray(allOf) && allOf.length === 1 ? allOf[0] : undefined;
  const ref = isJsonObject(only) && Object.keys(only).length === 1 ? only['$ref'] : undefined;
  if (typeof ref !== 'string' || schema['$ref'] !== undefined) {
    throw new Error(`${where}: allOf other than a single $ref is not supported`);
  }
  return ref;
}

/**
 * `{ $ref, description }`: the description stays because hover shows the text written on the field, which is
 * more specific than the referenced type's. `default` and extensions are dropped (see DROPPED_KEYWORDS).
 * ajv 8 applies keywords beside a $ref, so the description is kept as an annotation and nothing else is needed.
 */
function reference(schema: JsonObject, ref: string, where: string): JsonObject {
  if (!ref.startsWith(OPENAPI_REF_PREFIX)) {
    throw new Error(`${where}: unexpected $ref "${ref}"`);
  }
  for (const keyword of Object.keys(schema)) {
    const isAllowed =
      keyword === '$ref' ||
      keyword === 'allOf' ||
      keyword === 'description' ||
      DROPPED_KEYWORDS.has(keyword) ||
      keyword.startsWith(EXTENSION_PREFIX);
    if (!isAllowed) {
      throw new Error(`${where}: keyword "${keyword}" beside a $ref is not supported`);
    }
  }
  return withDescription(schema, { $ref: JSON_SCHEMA_REF_PREFIX + ref.slice(OPENAPI_REF_PREFIX.length) });
}

/** `{ type: ["integer", "string"] }` (plus null where allowed) with the node's description. */
function intOrString(schema: JsonObject, context: TransformContext): JsonObject {
  return withDescription(schema, { type: withNull(['integer', 'string'], context.nullable) });
}

/**
 * The JSON types a node admits: its `type`, or the types of a oneOf/anyOf whose branches are bare types
 * (rewritten as a union type: no oneOf or anyOf reaches the output, their errors are noisy). Undefined: any.
 */
function typesOf(schema: JsonObject, where: string): string[] | undefined {
  const type = schema['type'];
  const branches = schema['oneOf'] ?? schema['anyOf'];
  if (branches !== undefined) {
    if (type !== undefined || !Array.isArray(branches)) {
      throw new Error(`${where}: oneOf/anyOf beside a type is not supported`);
    }
    return branches.map((branch) => {
      const branchType = isJsonObject(branch) && Object.keys(branch).length === 1 ? branch['type'] : undefined;
      if (typeof branchType !== 'string') {
        throw new Error(`${where}: only oneOf/anyOf of bare types is supported`);
      }
      return branchType;
    });
  }
  if (type === undefined) {
    return undefined;
  }
  const list = Array.isArray(type) ? type : [type];
  if (!list.every((entry): entry is string => typeof entry === 'string')) {
    throw new Error(`${where}: type must be a string or a list of strings`);
  }
  return list;
}

/** A type list with "null" added when the node is nullable; a single type is written as a plain string. */
function withNull(types: readonly string[], nullable: boolean): JsonValue {
  const all = nullable && !types.includes('null') ? [...types, 'null'] : [...types];
  return all.length === 1 ? (all[0] as string) : all;
}

function withDescription(source: JsonObject, result: JsonObject): JsonObject {
  const description = source['description'];
  return typeof description === 'string' ? { ...result, description } : result;
}

function asObject(value: JsonValue | undefined, where: string): JsonObject {
  if (!isJsonObject(value)) {
    throw new Error(`${where}: expected a schema object`);
  }
  return value;
}
