/**
 * Objects broken at every field, one field at a time: what the schema tests feed two validators to show they
 * report the same errors (ajv's optimised and unoptimised code; the build's standalone code and the store's).
 */

/** A copy of an object or array with one entry replaced. */
function withEntry(value: object, key: string, replacement: unknown): unknown {
  return Array.isArray(value)
    ? value.map((item: unknown, index) => (String(index) === key ? replacement : item))
    : { ...value, [key]: replacement };
}

/** Every way of breaking one field: a string becomes a number, a number a string, an object gains a field. */
export function* brokenCopies(value: unknown): Generator<unknown> {
  if (typeof value !== 'object' || value === null) {
    return;
  }
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const replacement =
      typeof child === 'string'
        ? 12
        : typeof child === 'number'
          ? 'twelve'
          : typeof child === 'object' && child !== null && !Array.isArray(child)
            ? { ...child, unknownField: true }
            : 'x';
    yield withEntry(value, key, replacement);
    for (const broken of brokenCopies(child)) {
      yield withEntry(value, key, broken);
    }
  }
}
