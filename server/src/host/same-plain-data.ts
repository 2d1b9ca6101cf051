/**
 * Whether two values are the same plain data, as structured clone would copy them: the same JSON-like tree, keys
 * in the same order (order can show in what the engine derives from an object), numbers compared with Object.is
 * (structured clone keeps -0 and NaN apart from 0 and null, JSON.stringify does not), Maps entry by entry in
 * their order (the prediction worker's answers hold some, answer-transfer.ts). Anything else that is not a plain
 * object, an array or a primitive (a Date from a YAML timestamp, a Set) is never the same, so a caller falls back
 * to copying it.
 */

/** Whether `a` and `b` are equal plain data (see the file's header). */
export function isSamePlainData(a: unknown, b: unknown): boolean {
  if (typeof a === 'number') {
    // Object.is takes NaN as NaN and tells 0 from -0, as structured clone does.
    return Object.is(a, b);
  }
  if (a === b) {
    return true;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return false;
  }
  if (Array.isArray(a)) {
    return Array.isArray(b) && isSameArray(a, b);
  }
  if (a instanceof Map) {
    return b instanceof Map && isSameMap(a, b);
  }
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) {
    return false;
  }
  return isSameRecord(a, b);
}

function isSameMap(a: ReadonlyMap<unknown, unknown>, b: ReadonlyMap<unknown, unknown>): boolean {
  if (a.size !== b.size) {
    return false;
  }
  const others = b.entries();
  for (const [key, value] of a) {
    const other = others.next();
    if (
      other.done === true ||
      !isSamePlainData(key, other.value[0]) ||
      !isSamePlainData(value, other.value[1])
    ) {
      return false;
    }
  }
  return true;
}

function isSameArray(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) {
    return false;
  }
  for (let index = 0; index < a.length; index++) {
    // A hole and an undefined item are not told apart here; YAML never makes either.
    if (!isSamePlainData(a[index], b[index])) {
      return false;
    }
  }
  return true;
}

function isSameRecord(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) {
    return false;
  }
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index];
    if (key === undefined || key !== otherKeys[index] || !isSamePlainData(a[key], b[key])) {
      return false;
    }
  }
  return true;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
