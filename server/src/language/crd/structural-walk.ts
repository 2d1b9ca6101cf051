/**
 * The walk the API server's structural-schema passes share (apiextensions-apiserver pkg/apiserver/schema/
 * defaulting: prunenulls.go and algorithm.go walk a value beside its schema the same way): list items with
 * `items`, object fields with `properties`, else `additionalProperties`. Each pass says only what it does to one
 * object's fields; the walk does the rest and returns a new value, leaving the input unchanged.
 */

import { isRecord } from '../../engine/model/objects';

/** A schema or an object value as a record. */
export type SchemaRecord = Record<string, unknown>;

/** How deep a walk goes (deeper values are left as they are; the analysis limits depth anyway). */
const MAX_DEPTH = 200;

/** One object's fields as a pass sees them: the schemas of its fields, and the walk for going deeper. */
export interface ObjectStep {
  readonly value: SchemaRecord;
  readonly properties: SchemaRecord | undefined;
  readonly additional: SchemaRecord | undefined;
  /** The walk of a field's value with its schema, one level down. */
  readonly recurse: (schema: unknown, value: unknown) => unknown;
}

/** Walks `value` beside `schema`; `transformObject` gives each object with field schemas its new fields. */
export function walkStructural(
  schema: unknown,
  value: unknown,
  transformObject: (step: ObjectStep) => SchemaRecord,
): unknown {
  const walk = (nodeSchema: unknown, node: unknown, depth: number): unknown => {
    if (!isRecord(nodeSchema) || depth > MAX_DEPTH) {
      return node;
    }
    if (Array.isArray(node)) {
      // An item is never removed or added here; what is inside items is walked.
      const items = nodeSchema['items'];
      return isRecord(items) ? node.map((item) => walk(items, item, depth + 1)) : node;
    }
    if (!isRecord(node)) {
      return node;
    }
    const properties = isRecord(nodeSchema['properties']) ? nodeSchema['properties'] : undefined;
    const additional = isRecord(nodeSchema['additionalProperties'])
      ? nodeSchema['additionalProperties']
      : undefined;
    if (properties === undefined && additional === undefined) {
      return node;
    }
    return transformObject({
      value: node,
      properties,
      additional,
      recurse: (childSchema, child) => walk(childSchema, child, depth + 1),
    });
  };
  return walk(schema, value, 0);
}
