/**
 * Compares a document of the fast YAML path with yaml's own, node by node: class, range, scalar type, value,
 * source and format, flow, key order, comments and blank-line marks, and then the plain value and the text the
 * document prints back. Returns the first difference as a path and a description, or undefined when equal.
 */
import { isDocument, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Document } from 'yaml';
import type { NodeCensus } from '../../../server/src/language/yaml/node-checks';

const NODE_FIELDS = ['range', 'spaceBefore', 'commentBefore', 'comment', 'anchor', 'tag', 'flow'] as const;
const SCALAR_FIELDS = ['type', 'source', 'format', 'minFractionDigits'] as const;

/** The first difference between two documents, or undefined when they are the same. */
export function diffDocuments(fast: Document, yaml: Document): string | undefined {
  if (!isDocument(fast) || !isDocument(yaml)) {
    return 'not both documents';
  }
  const checks: [string, unknown, unknown][] = [
    ['document.range', fast.range, yaml.range],
    ['document.commentBefore', fast.commentBefore, yaml.commentBefore],
    ['document.comment', fast.comment, yaml.comment],
    ['document.directives.docStart', fast.directives?.docStart, yaml.directives?.docStart],
    ['document.errors', fast.errors.length, yaml.errors.length],
    ['document.warnings', fast.warnings.length, yaml.warnings.length],
    ['document.options', JSON.stringify(fast.options), JSON.stringify(yaml.options)],
  ];
  for (const [path, a, b] of checks) {
    const difference = diffValue(path, a, b);
    if (difference !== undefined) {
      return difference;
    }
  }
  return (
    diffNode('contents', fast.contents, yaml.contents) ??
    diffValue('toJS()', JSON.stringify(fast.toJS()), JSON.stringify(yaml.toJS())) ??
    diffValue('toString()', fast.toString(), yaml.toString())
  );
}

function diffNode(path: string, a: unknown, b: unknown): string | undefined {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return diffValue(path, a, b);
  }
  if (a.constructor !== b.constructor) {
    return `${path}: class ${a.constructor.name} ≠ ${b.constructor.name}`;
  }
  const record = (value: object): Record<string, unknown> => value as Record<string, unknown>;
  for (const field of NODE_FIELDS) {
    const difference = diffValue(`${path}.${field}`, record(a)[field], record(b)[field]);
    if (difference !== undefined) {
      return difference;
    }
  }
  if (isScalar(a) && isScalar(b)) {
    for (const field of SCALAR_FIELDS) {
      const difference = diffValue(`${path}.${field}`, record(a)[field], record(b)[field]);
      if (difference !== undefined) {
        return difference;
      }
    }
    return Object.is(a.value, b.value) ? undefined : `${path}.value: ${String(a.value)} ≠ ${String(b.value)}`;
  }
  if (isPair(a) && isPair(b)) {
    return diffNode(`${path}.key`, a.key, b.key) ?? diffNode(`${path}.value`, a.value, b.value);
  }
  if ((isMap(a) && isMap(b)) || (isSeq(a) && isSeq(b))) {
    const itemsA = (a as { items: unknown[] }).items;
    const itemsB = (b as { items: unknown[] }).items;
    if (itemsA.length !== itemsB.length) {
      return `${path}.items: ${itemsA.length} ≠ ${itemsB.length}`;
    }
    for (let index = 0; index < itemsA.length; index++) {
      const difference = diffNode(`${path}[${index}]`, itemsA[index], itemsB[index]);
      if (difference !== undefined) {
        return difference;
      }
    }
    return undefined;
  }
  return `${path}: unexpected node ${a.constructor.name}`;
}

function diffValue(path: string, a: unknown, b: unknown): string | undefined {
  return JSON.stringify(a) === JSON.stringify(b)
    ? undefined
    : `${path}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`;
}

/**
 * The first difference between the plain value readPlainValue gives and toJS's, or undefined when they are the
 * same: equal JSON text, and, below it, the same prototypes, own keys in the same order with the same property
 * flags, and leaves equal by Object.is (so -0 is not 0 and a big number is not rounded differently).
 */
export function diffPlainValues(path: string, a: unknown, b: unknown): string | undefined {
  return diffValue(path, a, b) ?? diffPlainValue(path, a, b);
}

function diffPlainValue(path: string, a: unknown, b: unknown): string | undefined {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return Object.is(a, b) ? undefined : `${path}: ${String(a)} ≠ ${String(b)}`;
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b) || Array.isArray(a) !== Array.isArray(b)) {
    return `${path}: prototypes differ`;
  }
  const keysA = Reflect.ownKeys(a);
  const keysB = Reflect.ownKeys(b);
  if (JSON.stringify(keysA.map(String)) !== JSON.stringify(keysB.map(String))) {
    return `${path}: keys ${keysA.map(String).join(',')} ≠ ${keysB.map(String).join(',')}`;
  }
  for (const key of keysA) {
    const own = Object.getOwnPropertyDescriptor(a, key);
    const other = Object.getOwnPropertyDescriptor(b, key);
    const flags = (d: PropertyDescriptor | undefined): string =>
      `${String(d?.writable)} ${String(d?.enumerable)} ${String(d?.configurable)}`;
    if (flags(own) !== flags(other)) {
      return `${path}.${String(key)}: property flags ${flags(own)} ≠ ${flags(other)}`;
    }
    const difference = diffPlainValue(`${path}.${String(key)}`, own?.value, other?.value);
    if (difference !== undefined) {
      return difference;
    }
  }
  return undefined;
}

/** A census with its repeated keys by position (parseSlice sorts its findings so), to compare two censuses. */
export function censusByStart(census: NodeCensus): NodeCensus {
  return { ...census, duplicateKeys: [...census.duplicateKeys].sort((a, b) => a.start - b.start) };
}
