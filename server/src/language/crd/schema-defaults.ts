/**
 * Structural schema defaulting, as the API server does it before validating a custom resource
 * (staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting/algorithm.go): a property that is
 * missing, or null where the schema does not say nullable (null is pruned first), takes a copy of its `default`;
 * then defaulting goes on inside objects, list items and additionalProperties values. The result is a new value;
 * the input is not changed. Left out: defaults inside allOf/anyOf/oneOf (a structural schema forbids them) and
 * metadata defaults.
 */

type SchemaRecord = Record<string, unknown>;

/** How deep defaulting goes (deeper values are left as they are; the analysis limits depth anyway). */
const MAX_DEPTH = 200;

function isRecord(value: unknown): value is SchemaRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value with the schema's defaults applied. */
export function applySchemaDefaults(schema: unknown, value: unknown): unknown {
  return defaultValue(schema, value, 0);
}

function defaultValue(schema: unknown, value: unknown, depth: number): unknown {
  if (!isRecord(schema) || depth > MAX_DEPTH) {
    return value;
  }
  if (Array.isArray(value)) {
    const items = schema['items'];
    return isRecord(items) ? value.map((item) => defaultValue(items, item, depth + 1)) : value;
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
    out[key] = defaultValue(properties?.[key] ?? additional, child, depth + 1);
  }
  for (const [key, childSchema] of Object.entries(properties ?? {})) {
    if (!isRecord(childSchema) || childSchema['default'] === undefined) {
      continue;
    }
    const current = out[key];
    if (current === undefined || (current === null && childSchema['nullable'] !== true)) {
      out[key] = defaultValue(childSchema, structuredClone(childSchema['default']), depth + 1);
    }
  }
  return out;
}
