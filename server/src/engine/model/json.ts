/**
 * Small readers over untyped JSON (what the yaml package parses a manifest into). Workload input comes from users,
 * so every read checks the type and falls back instead of throwing.
 */

/** A JSON object (a YAML mapping). */
export type JsonObject = Record<string, unknown>;

/** Whether a value is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object, or an empty one. */
export function asObject(value: unknown): JsonObject {
  return isJsonObject(value) ? value : {};
}

/** The value as an array, or an empty one. */
export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value when it is a non-empty string. */
export function readString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A map of strings (labels, annotations, nodeSelector); entries whose value is not a string are dropped. */
export function readStringMap(value: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, entry] of Object.entries(asObject(value))) {
    if (typeof entry === 'string') {
      result[key] = entry;
    }
  }
  return result;
}

/** A deep copy of plain JSON data. */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
