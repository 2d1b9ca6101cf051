/**
 * Plain JSON values and a serialisation that sorts object keys, so that the generated schema files are
 * byte-identical from one run to the next whatever order the OpenAPI documents list things in.
 */

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** Whether a value is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A copy of a value with the keys of every object in lexicographic (code unit) order; arrays keep their order,
 * since the order of `required` or `items` can carry meaning.
 */
export function sortKeysDeep(value: JsonValue): JsonValue {
  if (Array.isArray(value)) {
    return value.map(sortKeysDeep);
  }
  if (isJsonObject(value)) {
    const sorted: JsonObject = {};
    for (const key of Object.keys(value).sort(compareCodeUnits)) {
      sorted[key] = sortKeysDeep(value[key] as JsonValue);
    }
    return sorted;
  }
  return value;
}

/**
 * The stable text of a generated file: keys sorted, one space of indentation per level (readable diffs at a
 * fraction of the size of wider indentation), and a final newline.
 */
export function stringifyStable(value: JsonValue): string {
  return `${JSON.stringify(sortKeysDeep(value), null, 1)}\n`;
}

/** Compares two strings by UTF-16 code units, independent of the locale of the machine. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
