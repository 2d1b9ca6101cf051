/**
 * The plain value of a document the fast parser built, read straight off its nodes: the very value
 * `document.toJS()` gives (Document#toJS with keep: true, as parseSlice calls it), with the same objects, arrays,
 * key order and scalars, but without toJS's generic machinery (a conversion context, an anchor check and a
 * toJSON call per node, the merge-key test per pair), which cost about 4% of `foresight validate`.
 * It follows eemeli/yaml v2's nodes/toJS.js, YAMLMap#toJSON, YAMLSeq#toJSON, Scalar#toJSON and
 * nodes/addPairToJSMap.js for the nodes the fast parser makes (exact YAMLMap, YAMLSeq and Scalar classes, scalar
 * keys, no aliases), and answers undefined for anything else (an alias, another node class, a "<<" key that a
 * merge-key schema would expand, a key whose value is an object), so that the caller runs toJS itself.
 * test/language/yaml/fast-parse-differential.test.ts holds it to toJS on every input the fast parser accepts.
 */
import { Scalar, YAMLMap, YAMLSeq } from 'yaml';
import type { Document, ParsedNode } from 'yaml';

/** Marks a node this reader does not cover; never part of a value it returns. */
const NOT_COVERED: unique symbol = Symbol('not covered');

/** The value toJS would give `document`, or undefined when a node is outside what this reader covers. */
export function readPlainValue(
  document: Document.Parsed<ParsedNode>,
): { readonly value: unknown } | undefined {
  const value = plainOf(document.contents);
  return value === NOT_COVERED ? undefined : { value };
}

function plainOf(node: unknown): unknown {
  // toJS returns anything that is not an object with toJSON as it is (a null pair value: an empty value).
  if (node === null || typeof node !== 'object') {
    return node;
  }
  const kind = node.constructor;
  if (kind === Scalar) {
    // Scalar#toJSON with keep: the resolved value itself. A symbol is the merge key's "<<".
    const { value } = node as Scalar;
    return typeof value === 'symbol' ? NOT_COVERED : value;
  }
  if (kind === YAMLMap) {
    return plainMapOf(node as YAMLMap);
  }
  if (kind === YAMLSeq) {
    const seq: unknown[] = [];
    for (const item of (node as YAMLSeq).items) {
      const value = plainOf(item);
      if (value === NOT_COVERED) {
        return NOT_COVERED;
      }
      seq.push(value);
    }
    return seq;
  }
  return NOT_COVERED;
}

function plainMapOf(node: YAMLMap): unknown {
  const map: Record<string, unknown> = {};
  for (const { key, value } of node.items) {
    if (key === null || typeof key !== 'object' || key.constructor !== Scalar) {
      return NOT_COVERED;
    }
    const stringKey = stringKeyOf((key as Scalar).value);
    if (stringKey === undefined) {
      return NOT_COVERED;
    }
    const jsValue = plainOf(value);
    if (jsValue === NOT_COVERED) {
      return NOT_COVERED;
    }
    // As addPairToJSMap: a key the object already has, its own (a duplicate) or inherited ("__proto__",
    // "toString"), is defined as an own property rather than assigned, which would set the prototype.
    if (stringKey in map) {
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
