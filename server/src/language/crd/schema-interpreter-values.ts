/**
 * The value checks of schema-interpreter.ts as ajv's generated code makes them: data types with strictNumbers
 * off, enum membership, number bounds, and the uniqueItems search.
 * https://github.com/ajv-validator/ajv/blob/v8.17.1/lib/compile/validate/dataType.ts
 */
import ajvEqual from 'ajv/dist/runtime/equal';

/** The deep equality ajv's generated code calls (fast-deep-equal; its declaration types the module, not the function). */
const equal = ajvEqual as unknown as (a: unknown, b: unknown) => boolean;

/** ajv's data type checks with strictNumbers off (lib/compile/validate/dataType.ts checkDataType). */
export function isOfType(type: string, data: unknown): boolean {
  switch (type) {
    case 'null':
      return data === null;
    case 'array':
      return Array.isArray(data);
    case 'object':
      return typeof data === 'object' && data !== null && !Array.isArray(data);
    case 'integer':
      return typeof data === 'number' && !(data % 1) && !Number.isNaN(data);
    case 'number':
      return typeof data === 'number';
    default:
      return typeof data === type;
  }
}

/** Whether data is of one of the types. */
export function isOfAnyType(types: readonly string[], data: unknown): boolean {
  return types.some((type) => isOfType(type, data));
}

/** enum: === for plain values, deep equality for objects; deep equality for all from 200 values (loopEnum). */
export function isInEnum(values: readonly unknown[], byLoop: boolean, data: unknown): boolean {
  return values.some((value) =>
    byLoop || (typeof value === 'object' && value !== null) ? equal(data, value) : data === value,
  );
}

/** The number bounds: the comparison an error names, and when a value fails it (NaN fails every bound). */
export const COMPARISONS = {
  maximum: { ok: '<=', fails: (data: number, limit: number) => data > limit || Number.isNaN(data) },
  minimum: { ok: '>=', fails: (data: number, limit: number) => data < limit || Number.isNaN(data) },
  exclusiveMaximum: { ok: '<', fails: (data: number, limit: number) => data >= limit || Number.isNaN(data) },
  exclusiveMinimum: { ok: '>', fails: (data: number, limit: number) => data <= limit || Number.isNaN(data) },
} as const;

/**
 * ajv's uniqueItems search: from the last item back, by value for items of listed primitive types (items of
 * other types are skipped), by deep equality otherwise (lib/vocabularies/validation/uniqueItems.ts).
 */
export function findDuplicate(
  data: readonly unknown[],
  itemTypes: readonly string[],
): { i: number; j: number } | undefined {
  if (itemTypes.length > 0 && !itemTypes.some((type) => type === 'object' || type === 'array')) {
    // A plain object as ajv's generated code uses, so keys coerce exactly as they do there.
    const indices: Record<string, unknown> = {};
    for (let i = data.length - 1; i >= 0; i--) {
      let item = data[i];
      if (!isOfAnyType(itemTypes, item)) {
        continue;
      }
      if (itemTypes.length > 1 && typeof item === 'string') {
        item = `${item}_`;
      }
      // Property keys coerce as in ajv's code: 1 and "1" meet unless the types are mixed ("1_").
      const key = String(item);
      const seen = indices[key];
      if (typeof seen === 'number') {
        return { i, j: seen };
      }
      indices[key] = i;
    }
    return undefined;
  }
  for (let i = data.length - 1; i >= 0; i--) {
    for (let j = i - 1; j >= 0; j--) {
      if (equal(data[i], data[j])) {
        return { i, j };
      }
    }
  }
  return undefined;
}

/** A JSON pointer segment (RFC 6901), as ajv writes instance paths. */
export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
