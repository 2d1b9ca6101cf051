/**
 * What the schema says about one field of a built-in kind, for hover and completion: its type spelled as the
 * Kubernetes API reference spells it ([]Container, map[string]string, int-or-string, quantity), whether it is
 * required, its description and its allowed values. Walks the schema bundle itself rather than through
 * SchemaStore.walk because the type name needs the definition a `$ref` points to, which resolving loses.
 */
import type { JsonSchema, SchemaStore } from '../schema/schema-store';
import { knownEnumValues } from './enum-values';

/** How a field's value is written in YAML, which decides what completion inserts after its key. */
export type FieldShape = 'scalar' | 'object' | 'map' | 'list-of-objects' | 'list' | 'any';

/** One field of a built-in kind as the schema describes it. */
export interface FieldInfo {
  /** The field's name: the last path segment (a key, or the index of a list item); '' for the object itself. */
  readonly name: string | number;
  /** The resolved schema of the field's value. */
  readonly schema: JsonSchema;
  /** The definition the value's schema comes from (io.k8s.api.core.v1.Container), when it has one. */
  readonly definition: string | undefined;
  /** The type as the API reference spells it: string, integer, []Container, map[string]string, int-or-string… */
  readonly typeName: string;
  /** The description written on the field, else the one of its type. */
  readonly description: string | undefined;
  /** Whether the parent object requires this field. */
  readonly required: boolean;
  /** The allowed values: the schema's enum, else the known enum of the Kubernetes type. */
  readonly enumValues: readonly string[] | undefined;
  /** How the value is written in YAML. */
  readonly shape: FieldShape;
  /** For a list of enum values (accessModes), the allowed values of its items. */
  readonly itemEnumValues: readonly string[] | undefined;
  /** How the field was reached from its parent: a property, a map entry (a label), a list item, or the root. */
  readonly reachedBy: 'property' | 'entry' | 'item' | 'root';
}

const MAX_REF_HOPS = 64;
const MAX_TYPE_DEPTH = 6;

interface NamedSchema {
  readonly schema: JsonSchema;
  readonly definition: string | undefined;
}

/** Follows `$ref` to the schema with content, remembering the last definition it passed through. */
function resolveNamed(store: SchemaStore, raw: JsonSchema): NamedSchema | undefined {
  let current = raw;
  let definition: string | undefined;
  for (let hops = 0; current.$ref !== undefined; hops++) {
    const name = current.$ref.slice(current.$ref.lastIndexOf('/') + 1);
    const target = store.bundle.definitions[name];
    if (target === undefined || hops >= MAX_REF_HOPS) {
      return undefined;
    }
    definition = name;
    current = target;
  }
  return { schema: current, definition };
}

/** The non-null JSON types a schema allows. */
export function typesOf(schema: JsonSchema): string[] {
  const declared = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  return declared.filter((type) => type !== 'null');
}

/** The short name of a definition: "io.k8s.api.core.v1.Container" → "Container". */
function shortDefinitionName(definition: string): string {
  return definition.slice(definition.lastIndexOf('.') + 1);
}

/** The type of a (possibly unresolved) schema, spelled as the Kubernetes API reference does. */
export function describeType(store: SchemaStore, raw: JsonSchema, depth = 0): string {
  const named = resolveNamed(store, raw);
  if (named === undefined) {
    return 'object';
  }
  const { schema, definition } = named;
  const types = typesOf(schema);
  if (schema.format === 'quantity') {
    return 'quantity';
  }
  if (types.includes('integer') && types.includes('string')) {
    return 'int-or-string';
  }
  if (types.includes('array')) {
    return `[]${schema.items === undefined || depth >= MAX_TYPE_DEPTH ? 'any' : describeType(store, schema.items, depth + 1)}`;
  }
  if (types.includes('object') || schema.properties !== undefined) {
    if (definition !== undefined && schema.properties !== undefined) {
      return shortDefinitionName(definition);
    }
    if (typeof schema.additionalProperties === 'object' && depth < MAX_TYPE_DEPTH) {
      return `map[string]${describeType(store, schema.additionalProperties, depth + 1)}`;
    }
    return 'object';
  }
  if (types.length > 0) {
    return types.join(' or ');
  }
  return definition === undefined ? 'any' : shortDefinitionName(definition);
}

/** How a value of this (resolved) schema is written in YAML. */
export function shapeOf(store: SchemaStore, schema: JsonSchema): FieldShape {
  const types = typesOf(schema);
  if (types.includes('array')) {
    const items = schema.items === undefined ? undefined : resolveNamed(store, schema.items);
    return items !== undefined && items.schema.properties !== undefined ? 'list-of-objects' : 'list';
  }
  if (schema.properties !== undefined) {
    return 'object';
  }
  if (types.includes('object')) {
    return typeof schema.additionalProperties === 'object' ? 'map' : 'any';
  }
  return types.length === 0 ? 'any' : 'scalar';
}

function stringEnum(schema: JsonSchema): readonly string[] | undefined {
  const values = schema.enum?.filter((value): value is string => typeof value === 'string' && value !== '');
  return values === undefined || values.length === 0 ? undefined : values;
}

/** The field described by `raw`, reached from a parent object through `name`. */
function fieldFrom(
  store: SchemaStore,
  raw: JsonSchema,
  name: string | number,
  parent: { schema: JsonSchema; definition: string | undefined } | undefined,
  reachedBy: FieldInfo['reachedBy'],
  inheritedEnum: readonly string[] | undefined,
): FieldInfo | undefined {
  const viaProperty = reachedBy === 'property';
  const named = resolveNamed(store, raw);
  if (named === undefined) {
    return undefined;
  }
  const { schema, definition } = named;
  const knownEnum =
    viaProperty && typeof name === 'string' && parent?.definition !== undefined
      ? knownEnumValues(parent.definition, name)
      : undefined;
  const isList = typesOf(schema).includes('array');
  const itemsEnum =
    schema.items === undefined ? undefined : stringEnum(resolveNamed(store, schema.items)?.schema ?? {});
  return {
    name,
    schema,
    definition,
    typeName: describeType(store, raw),
    // A map entry's type description (Quantity's grammar, for a resource limit) says little about the entry.
    description: raw.description ?? (reachedBy === 'entry' ? undefined : schema.description),
    required: viaProperty && typeof name === 'string' && (parent?.schema.required?.includes(name) ?? false),
    enumValues: stringEnum(schema) ?? (isList ? undefined : (knownEnum ?? inheritedEnum)),
    shape: shapeOf(store, schema),
    itemEnumValues: isList ? (itemsEnum ?? knownEnum) : undefined,
    reachedBy,
  };
}

/** The object of a built-in kind itself, as a field (the root of its paths). */
export function kindField(store: SchemaStore, apiVersion: string, kind: string): FieldInfo | undefined {
  const definition = store.definitionOf(apiVersion, kind);
  return definition === undefined
    ? undefined
    : fieldFrom(store, { $ref: `#/definitions/${definition}` }, '', undefined, 'root', undefined);
}

/** The field at a path inside an object of a built-in kind, or undefined when the path leaves the schema. */
export function fieldAt(
  store: SchemaStore,
  apiVersion: string,
  kind: string,
  path: readonly (string | number)[],
): FieldInfo | undefined {
  let field = kindField(store, apiVersion, kind);
  for (const segment of path) {
    if (field === undefined) {
      return undefined;
    }
    field = childField(store, field, segment);
  }
  return field;
}

/** The field one step below a field: a property, a map entry or a list item. */
export function childField(
  store: SchemaStore,
  parent: FieldInfo,
  segment: string | number,
): FieldInfo | undefined {
  const { schema } = parent;
  if (typeof segment === 'number') {
    return schema.items === undefined
      ? undefined
      : fieldFrom(store, schema.items, segment, parent, 'item', parent.itemEnumValues);
  }
  const property =
    schema.properties !== undefined && Object.hasOwn(schema.properties, segment)
      ? schema.properties[segment]
      : undefined;
  if (property !== undefined) {
    return fieldFrom(store, property, segment, parent, 'property', undefined);
  }
  if (typeof schema.additionalProperties === 'object') {
    return fieldFrom(store, schema.additionalProperties, segment, parent, 'entry', undefined);
  }
  return undefined;
}

/** The properties an object field allows, in schema order. */
export function propertiesOf(store: SchemaStore, parent: FieldInfo): FieldInfo[] {
  const fields: FieldInfo[] = [];
  for (const name of Object.keys(parent.schema.properties ?? {})) {
    const field = childField(store, parent, name);
    if (field !== undefined) {
      fields.push(field);
    }
  }
  return fields;
}
