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

/**
 * A deep copy of plain JSON data: exactly what `JSON.parse(JSON.stringify(value))` gives (a template is copied per
 * ReplicaSet, DaemonSet or StatefulSet of every simulation), built without the text in between, about four times
 * faster. What JSON does to values it has no form for is done alike: a non-finite number becomes null and -0
 * becomes 0; an undefined, function or symbol property is left out, and such an array item (or a hole) is null.
 * Anything not plain data (an object with another prototype or a toJSON method, a bigint) and anything nested
 * deeper than MAX_CLONE_DEPTH (a cycle) goes through JSON itself, so it copies or throws as JSON does.
 */
export function cloneJson<T>(value: T): T {
  if (value === undefined) {
    return value;
  }
  try {
    return cloneValue(value, 0) as T;
  } catch (error) {
    if (error instanceof CloneTooDeep) {
      return JSON.parse(JSON.stringify(value)) as T;
    }
    throw error;
  }
}

/** Nesting beyond which cloneJson hands the whole value to JSON (real manifests nest a few dozen levels). */
const MAX_CLONE_DEPTH = 1000;
/** Thrown (and caught) inside cloneJson when the value nests deeper than MAX_CLONE_DEPTH. */
class CloneTooDeep extends Error {}

function cloneValue(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'number') {
      return Number.isFinite(value) ? value + 0 : null; // -0 + 0 is 0, as JSON writes it
    }
    if (typeof value === 'string' || typeof value === 'boolean' || value === null) {
      return value;
    }
    return JSON.parse(JSON.stringify(value)) as unknown; // a bigint throws, as JSON does
  }
  if (depth >= MAX_CLONE_DEPTH) {
    throw new CloneTooDeep(`nested deeper than ${MAX_CLONE_DEPTH}`);
  }
  if (typeof (value as { readonly toJSON?: unknown }).toJSON === 'function') {
    return JSON.parse(JSON.stringify(value)) as unknown; // JSON writes what toJSON returns
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      copy[index] = isLeftOut(item) ? null : cloneValue(item, depth + 1);
    }
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  const record = value as Record<string, unknown>;
  if (prototype !== Object.prototype && prototype !== null) {
    return JSON.parse(JSON.stringify(value)) as unknown;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (isLeftOut(item)) {
      continue;
    }
    if (key === '__proto__') {
      // JSON.parse makes it an own property; an assignment would set the copy's prototype instead.
      Object.defineProperty(copy, key, {
        value: cloneValue(item, depth + 1),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else {
      copy[key] = cloneValue(item, depth + 1);
    }
  }
  return copy;
}

/** Whether JSON.stringify leaves the value out of an object (and writes null for it in an array). */
function isLeftOut(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}
