/**
 * The API server drops a null it would not store before it defaults and validates a custom resource:
 * unstructuredSchemaCoercer.apply (apiextensions-apiserver pkg/apiserver/customresource_handler.go) prunes unknown
 * fields, then calls defaulting.PruneNonNullableNullsWithoutDefaults
 * (pkg/apiserver/schema/defaulting/prunenulls.go): a property whose value is null, whose schema is not nullable
 * and has no default, is removed; one with a default keeps its null for defaulting to replace. So a kubebuilder
 * sample's `spec:` with nothing under it is a custom resource without spec, not a spec of the wrong type. The
 * result is a new value; the input is not changed.
 */

type SchemaRecord = Record<string, unknown>;

/** How deep pruning goes (the analysis limits depth anyway). */
const MAX_DEPTH = 200;

function isRecord(value: unknown): value is SchemaRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value without the nulls the API server prunes (properties and additionalProperties; list items kept). */
export function pruneNonNullableNulls(schema: unknown, value: unknown): unknown {
  return prune(schema, value, 0);
}

function prune(schema: unknown, value: unknown, depth: number): unknown {
  if (!isRecord(schema) || depth > MAX_DEPTH) {
    return value;
  }
  if (Array.isArray(value)) {
    // An item is never removed (a null item is kept, as upstream keeps it); objects inside items are pruned.
    const items = schema['items'];
    return isRecord(items) ? value.map((item) => prune(items, item, depth + 1)) : value;
  }
  if (!isRecord(value)) {
    return value;
  }
  const properties = isRecord(schema['properties']) ? schema['properties'] : undefined;
  const additional = isRecord(schema['additionalProperties']) ? schema['additionalProperties'] : undefined;
  if (properties === undefined && additional === undefined) {
    return value;
  }
  const out: SchemaRecord = {};
  for (const [key, child] of Object.entries(value)) {
    const childSchema = properties?.[key] ?? additional;
    if (!isRecord(childSchema)) {
      out[key] = child;
    } else if (child === null) {
      if (childSchema['nullable'] === true || childSchema['default'] !== undefined) {
        out[key] = child;
      }
    } else {
      out[key] = prune(childSchema, child, depth + 1);
    }
  }
  return out;
}
