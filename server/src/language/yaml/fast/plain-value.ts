/**
 * The plain value of a document the fast parser built, read straight off its nodes: the very value
 * `document.toJS()` gives (Document#toJS with keep: true, as parseSlice calls it), with the same objects, arrays,
 * key order and scalars, but without toJS's generic machinery (a conversion context, an anchor check and a
 * toJSON call per node, the merge-key test per pair), which cost about 4% of `foresight validate`.
 * It follows eemeli/yaml v2's nodes/toJS.js, YAMLMap#toJSON, YAMLSeq#toJSON, Scalar#toJSON and
 * nodes/addPairToJSMap.js for the nodes the fast parser makes (exact YAMLMap, YAMLSeq and Scalar classes, scalar
 * keys, no aliases), and answers undefined for anything else (an alias, another node class, a "<<" key that a
 * merge-key schema would expand, a key whose value is an object), so that the caller runs toJS itself.
 * The same walk finds the mapping keys that repeat an earlier key, as takeNodeCensus does (a repeat shows as a
 * key the object already has), so that a fast document is walked once rather than twice; with no anchors or
 * aliases (a node with an anchor is left to toJS too) that is the whole census.
 * test/language/yaml/fast-parse-differential.test.ts holds it to toJS and to takeNodeCensus on every input the
 * fast parser accepts.
 */
import { Scalar, YAMLMap, YAMLSeq } from 'yaml';
import type { Document, Node, Pair, ParsedNode } from 'yaml';
import { keyText } from '../node-checks';
import type { DuplicateKey, NodeCensus } from '../node-checks';

/** Marks a node this reader does not cover; never part of a value it returns. */
const NOT_COVERED: unique symbol = Symbol('not covered');

/** A fast document's plain value and its node census. */
export interface PlainValue {
  /** What toJS gives. */
  readonly value: unknown;
  /** What takeNodeCensus gives, but for the order of duplicateKeys: by the walk here, not by its stack. */
  readonly census: NodeCensus;
}

/** The value toJS would give `document`, or undefined when a node is outside what this reader covers. */
export function readPlainValue(document: Document.Parsed<ParsedNode>): PlainValue | undefined {
  const duplicateKeys: DuplicateKey[] = [];
  const value = plainOf(document.contents, duplicateKeys);
  return value === NOT_COVERED ? undefined : { value, census: { duplicateKeys, anchorsAndAliases: 0 } };
}

function plainOf(node: unknown, duplicateKeys: DuplicateKey[]): unknown {
  // toJS returns anything that is not an object with toJSON as it is (a null pair value: an empty value).
  if (node === null || typeof node !== 'object') {
    return node;
  }
  if ((node as Node).anchor !== undefined) {
    return NOT_COVERED;
  }
  const kind = node.constructor;
  if (kind === Scalar) {
    // Scalar#toJSON with keep: the resolved value itself. A symbol is the merge key's "<<".
    const { value } = node as Scalar;
    return typeof value === 'symbol' ? NOT_COVERED : value;
  }
  if (kind === YAMLMap) {
    return plainMapOf(node as YAMLMap, duplicateKeys);
  }
  if (kind === YAMLSeq) {
    const seq: unknown[] = [];
    for (const item of (node as YAMLSeq).items) {
      const value = plainOf(item, duplicateKeys);
      if (value === NOT_COVERED) {
        return NOT_COVERED;
      }
      seq.push(value);
    }
    return seq;
  }
  return NOT_COVERED;
}

function plainMapOf(node: YAMLMap, duplicateKeys: DuplicateKey[]): unknown {
  const map: Record<string, unknown> = {};
  const { items } = node;
  // The key values of this mapping so far, once one of its keys names a property the object already has.
  let seen: Set<unknown> | undefined;
  for (let index = 0; index < items.length; index++) {
    const { key, value } = items[index] as Pair;
    if (
      key === null ||
      typeof key !== 'object' ||
      key.constructor !== Scalar ||
      (key as Scalar).anchor !== undefined
    ) {
      return NOT_COVERED;
    }
    const keyValue = (key as Scalar).value;
    const stringKey = stringKeyOf(keyValue);
    if (stringKey === undefined) {
      return NOT_COVERED;
    }
    const jsValue = plainOf(value, duplicateKeys);
    if (jsValue === NOT_COVERED) {
      return NOT_COVERED;
    }
    const isKnown = stringKey in map;
    // Equal key values give equal strings, so a repeat is always a key the object already has; from the first
    // such key on, countDuplicateKeys's own test (same value, NaN never) decides.
    if (isKnown || seen !== undefined) {
      seen ??= keyValuesBefore(items, index);
      if (!(typeof keyValue === 'number' && Number.isNaN(keyValue))) {
        if (seen.has(keyValue)) {
          const range = (key as Scalar).range;
          if (range) {
            duplicateKeys.push({ start: range[0], end: range[1], key: keyText(keyValue) });
          }
        } else {
          seen.add(keyValue);
        }
      }
    }
    // As addPairToJSMap: a key the object already has, its own (a duplicate) or inherited ("__proto__",
    // "toString"), is defined as an own property rather than assigned, which would set the prototype.
    if (isKnown) {
      Object.defineProperty(map, stringKey, {
        value: jsValue,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else {
      map[stringKey] = jsValue;
    }
  }
  return map;
}

/** The scalar key values (NaN left out) of the first `count` pairs, all scalar keys by then. */
function keyValuesBefore(items: readonly unknown[], count: number): Set<unknown> {
  const values = new Set<unknown>();
  for (let index = 0; index < count; index++) {
    const keyValue = ((items[index] as Pair).key as Scalar).value;
    if (!(typeof keyValue === 'number' && Number.isNaN(keyValue))) {
      values.add(keyValue);
    }
  }
  return values;
}

/**
 * addPairToJSMap's stringifyKey for a key that is no object: '' for null, else String(). "<<" is a merge key
 * under a schema with the merge tag (its value is then a symbol): left to toJS, as are object keys.
 */
function stringKeyOf(jsKey: unknown): string | undefined {
  if (jsKey === null) {
    return '';
  }
  switch (typeof jsKey) {
    case 'string':
      return jsKey === '<<' ? undefined : jsKey;
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      return String(jsKey);
    default:
      return undefined;
  }
}
