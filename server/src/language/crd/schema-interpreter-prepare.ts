/**
 * The prepared form of a schema for schema-interpreter.ts: per node, its types, which of ajv's rule groups it
 * uses, its subschemas prepared in turn, and the checks ajv makes while compiling (a keyword whose value has the
 * wrong type, an unknown type name, an empty enum, an unreadable pattern) made the same way, so a schema ajv
 * refuses is refused here too. Subschemas ajv skips as always valid (no keyword but metadata) are skipped.
 * https://github.com/ajv-validator/ajv/blob/v8.17.1/lib/compile/validate/keyword.ts (validSchemaType)
 */
import type { JsonSchema } from '../schema/schema-store';
import { escapePointer } from './schema-interpreter-values';

/** One schema node, ready to validate with. */
export interface PreparedNode {
  /** The schema itself: ajv's errors name it as parentSchema. */
  readonly schema: JsonSchema;
  readonly types: readonly string[];
  /** The type is checked before the keywords (several types, or one whose rule group the node does not use). */
  readonly typeFirst: boolean;
  readonly untyped?: {
    readonly enum?: readonly unknown[];
    /** From 200 values ajv compares every value with deep equality (loopEnum). */
    readonly enumByLoop: boolean;
    readonly not?: PreparedNode | 'always';
    /** Undefined also when a branch is always valid (ajv then generates nothing). */
    readonly anyOf?: readonly PreparedNode[];
    readonly oneOf?: readonly (PreparedNode | 'always')[];
    readonly allOf?: readonly { readonly index: number; readonly node: PreparedNode }[];
  };
  readonly number?: true;
  readonly string?: { readonly pattern?: RegExp };
  readonly array?: { readonly items?: PreparedNode; readonly uniqueItemTypes?: readonly string[] };
  readonly object?: {
    readonly required: readonly unknown[];
    /** 'refused' for additionalProperties: false; undefined when any other field is accepted as it is. */
    readonly additional?: PreparedNode | 'refused';
    readonly isDeclared: (key: string) => boolean;
    readonly properties: readonly PreparedProperty[];
  };
}

/** A declared property with a schema that checks something. */
export interface PreparedProperty {
  readonly name: string;
  /** The name as a JSON pointer segment (instance paths). */
  readonly pointer: string;
  /** The name as a URI fragment segment (schema paths). */
  readonly fragment: string;
  readonly node: PreparedNode;
}

type SchemaRecord = Record<string, unknown>;

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

/** The value type each keyword accepts in a schema (ajv's schemaType), checked as ajv's compile does. */
const SCHEMA_TYPES: Readonly<Record<string, readonly string[]>> = {
  type: ['string', 'array'],
  enum: ['array'],
  not: ['object', 'boolean'],
  anyOf: ['array'],
  oneOf: ['array'],
  allOf: ['array'],
  maximum: ['number'],
  minimum: ['number'],
  exclusiveMaximum: ['number'],
  exclusiveMinimum: ['number'],
  multipleOf: ['number'],
  maxLength: ['number'],
  minLength: ['number'],
  pattern: ['string'],
  maxItems: ['number'],
  minItems: ['number'],
  items: ['object', 'array', 'boolean'],
  uniqueItems: ['boolean'],
  maxProperties: ['number'],
  minProperties: ['number'],
  required: ['array'],
  additionalProperties: ['object', 'boolean'],
  properties: ['object'],
};

const NUMBER_KEYWORDS = ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf'];
const STRING_KEYWORDS = ['maxLength', 'minLength', 'pattern'];
const ARRAY_KEYWORDS = ['maxItems', 'minItems', 'items', 'uniqueItems'];
const OBJECT_KEYWORDS = ['maxProperties', 'minProperties', 'required', 'additionalProperties', 'properties'];
/** ajv's loopEnum default (MAX_EXPRESSION). */
const ENUM_LOOP_FROM = 200;
/** ajv looks a declared name up with === below this many properties, with hasOwnProperty from it. */
const PROPERTY_LOOKUP_FROM = 9;

/** Prepares a schema; throws where ajv's compile throws. */
export function prepareSchema(schema: JsonSchema): PreparedNode {
  return prepare(schema);
}

function isRecord(value: unknown): value is SchemaRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** ajv's alwaysValidSchema: a schema with no keyword but annotations (here: description) checks nothing. */
function isAlwaysValid(schema: unknown): boolean {
  if (typeof schema === 'boolean') {
    return schema;
  }
  return Object.keys(schema as object).every((key) => key === 'description' || !(key in SCHEMA_TYPES));
}

function hasAny(schema: SchemaRecord, keywords: readonly string[]): boolean {
  return keywords.some((keyword) => schema[keyword] !== undefined);
}

function checkSchemaTypes(schema: SchemaRecord): void {
  for (const [keyword, accepted] of Object.entries(SCHEMA_TYPES)) {
    const value = schema[keyword];
    if (value === undefined) {
      continue;
    }
    const ok = accepted.some((type) =>
      type === 'array' ? Array.isArray(value) : type === 'object' ? isRecord(value) : typeof value === type,
    );
    if (!ok) {
      throw new Error(
        `${keyword} value must be ${JSON.stringify(accepted.length === 1 ? accepted[0] : accepted)}`,
      );
    }
  }
}

/** ajv's getJSONTypes. */
function typesOf(schema: SchemaRecord): string[] {
  const declared = schema['type'];
  const types: unknown[] = Array.isArray(declared) ? declared : declared ? [declared] : [];
  if (!types.every((type) => typeof type === 'string' && JSON_TYPES.has(type))) {
    throw new Error(`type must be JSONType or JSONType[]: ${types.join(',')}`);
  }
  return types as string[];
}

function prepare(input: unknown): PreparedNode {
  // Subschemas from structural-schema.ts are objects; anything else checks nothing, as ajv's empty schema.
  const schema: SchemaRecord = isRecord(input) ? input : {};
  const types = typesOf(schema);
  checkSchemaTypes(schema);
  const usesGroup: Record<string, boolean> = {
    number: hasAny(schema, NUMBER_KEYWORDS),
    string: hasAny(schema, STRING_KEYWORDS),
    array: hasAny(schema, ARRAY_KEYWORDS),
    object: hasAny(schema, OBJECT_KEYWORDS),
  };
  const single = types.length === 1 ? types[0] : undefined;
  const typeFirst = types.length > 0 && !(single !== undefined && usesGroup[single] === true);
  return {
    schema: schema,
    types,
    typeFirst,
    untyped: prepareUntyped(schema),
    number: usesGroup['number'] === true ? true : undefined,
    string: usesGroup['string'] === true ? prepareString(schema) : undefined,
    array: usesGroup['array'] === true ? prepareArray(schema) : undefined,
    object: usesGroup['object'] === true ? prepareObject(schema) : undefined,
  };
}

function prepareUntyped(schema: SchemaRecord): PreparedNode['untyped'] {
  if (!hasAny(schema, ['enum', 'not', 'anyOf', 'oneOf', 'allOf'])) {
    return undefined;
  }
  const values = schema['enum'] as unknown[] | undefined;
  if (values !== undefined && values.length === 0) {
    throw new Error('enum must have non-empty array');
  }
  const not = schema['not'];
  const anyOf = schema['anyOf'] as unknown[] | undefined;
  const oneOf = schema['oneOf'] as unknown[] | undefined;
  const allOf = schema['allOf'] as unknown[] | undefined;
  return {
    enum: values,
    enumByLoop: values !== undefined && values.length >= ENUM_LOOP_FROM,
    not: not === undefined ? undefined : isAlwaysValid(not) ? 'always' : prepare(not),
    anyOf:
      anyOf === undefined || anyOf.some((branch) => isAlwaysValid(branch))
        ? undefined
        : anyOf.map((branch) => prepare(branch)),
    oneOf: oneOf?.map((branch) => (isAlwaysValid(branch) ? 'always' : prepare(branch))),
    allOf: allOf
      ?.map((branch, index) => ({ index, branch }))
      .filter(({ branch }) => !isAlwaysValid(branch))
      .map(({ index, branch }) => ({ index, node: prepare(branch) })),
  };
}

function prepareString(schema: SchemaRecord): NonNullable<PreparedNode['string']> {
  const pattern = schema['pattern'];
  // unicodeRegExp is off: no "u" flag, as structural-schema.ts checked the pattern.
  return { pattern: typeof pattern === 'string' ? new RegExp(pattern) : undefined };
}

function prepareArray(schema: SchemaRecord): NonNullable<PreparedNode['array']> {
  const items = schema['items'];
  return {
    items: items === undefined || isAlwaysValid(items) ? undefined : prepare(items),
    uniqueItemTypes: schema['uniqueItems'] === true ? (isRecord(items) ? typesOf(items) : []) : undefined,
  };
}

function prepareObject(schema: SchemaRecord): NonNullable<PreparedNode['object']> {
  const declared = isRecord(schema['properties']) ? schema['properties'] : {};
  const names = Object.keys(declared).filter((name) => name !== '__proto__');
  const additional = schema['additionalProperties'];
  return {
    required: (schema['required'] as unknown[] | undefined) ?? [],
    additional:
      additional === false
        ? 'refused'
        : additional === undefined || isAlwaysValid(additional)
          ? undefined
          : prepare(additional),
    isDeclared:
      names.length >= PROPERTY_LOOKUP_FROM
        ? (key) => Object.prototype.hasOwnProperty.call(declared, key)
        : (key) => names.includes(key),
    properties: names
      .filter((name) => !isAlwaysValid(declared[name]))
      .map((name) => ({
        name,
        pointer: escapePointer(name),
        fragment: encodeURIComponent(escapePointer(name)),
        node: prepare(declared[name]),
      })),
  };
}
