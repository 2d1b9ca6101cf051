/**
 * Custom resource values as CEL sees them (staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/
 * values.go, UnstructuredToVal): a `type: integer` field is a CEL int (a bigint here), a `type: number` field a
 * double even when written without a fraction, and in schemaless places (int-or-string, preserved unknown fields)
 * a whole JSON number is an int, as Go's JSON decoder makes it int64. Objects stay plain objects (CEL maps with
 * string keys); lists stay arrays. Left out: list-type set/map equality semantics (CEL compares such lists in
 * order here) and the narrowing of metadata to name and generateName at resource roots.
 */

type SchemaRecord = Record<string, unknown>;

function isRecord(value: unknown): value is SchemaRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Converts a JSON value to its CEL form by its schema node. */
export function toCelValue(schema: unknown, value: unknown, depth = 0): unknown {
  const node = isRecord(schema) ? schema : {};
  if (typeof value === 'number') {
    return node['type'] === 'number' || !Number.isInteger(value) || !Number.isSafeInteger(value)
      ? value
      : BigInt(value);
  }
  if (depth > 200 || value === null || typeof value !== 'object') {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((item: unknown) => toCelValue(node['items'], item, depth + 1));
  }
  const properties = isRecord(node['properties']) ? node['properties'] : undefined;
  const additional = node['additionalProperties'];
  const out: SchemaRecord = {};
  for (const [key, child] of Object.entries(value as SchemaRecord)) {
    out[key] = toCelValue(properties?.[key] ?? additional, child, depth + 1);
  }
  return out;
}
