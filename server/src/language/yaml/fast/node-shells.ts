/**
 * Scalar, Pair, YAMLMap and YAMLSeq nodes for the fast parser without most of their constructors' cost. yaml
 * marks every node with its type by `Object.defineProperty(this, NODE_TYPE, …)` in the constructor (nodes/Node.js,
 * nodes/Pair.js in eemeli/yaml v2), and that call was about a tenth of the CPU of analysing the bench's
 * 1,000-resource file (a defineProperty per key, value, pair and collection). Here the mark sits, non-enumerable as there, on a prototype between
 * the node and its class's, built once: `isScalar`, `isPair`, `isNode`, `instanceof`, `constructor`, `clone()`
 * and `toJS` read it through the prototype as they read the own property, and spreads and Object.assign leave
 * it out as they leave out the non-enumerable own one. What differs: Object.getPrototypeOf and
 * Object.getOwnPropertySymbols, which nothing here or in yaml reads of a node. The own enumerable properties
 * come in the constructors' order (Scalar: value; Pair: key, value; collections: items), and a collection's schema
 * is its own non-enumerable property, as nodes/Collection.js defines it.
 */
import { Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import type { ParsedNode, Schema } from 'yaml';

// yaml's own keys (nodes/identity.js): registered symbols, so these are the very values isScalar compares.
const NODE_TYPE = Symbol.for('yaml.node.type');

function markedPrototype(prototype: object, type: symbol): object {
  return Object.create(prototype, { [NODE_TYPE]: { value: type } }) as object;
}

const SCALAR_PROTOTYPE = markedPrototype(Scalar.prototype, Symbol.for('yaml.scalar'));
const PAIR_PROTOTYPE = markedPrototype(Pair.prototype, Symbol.for('yaml.pair'));
const MAP_PROTOTYPE = markedPrototype(YAMLMap.prototype, Symbol.for('yaml.map'));
const SEQ_PROTOTYPE = markedPrototype(YAMLSeq.prototype, Symbol.for('yaml.seq'));

/** What `new Scalar(value)` gives, as far as yaml and this code can tell. */
export function newScalar(value: unknown): Scalar {
  const scalar = Object.create(SCALAR_PROTOTYPE) as Scalar;
  scalar.value = value;
  return scalar;
}

/** What `new Pair(key, value)` gives, as far as yaml and this code can tell. */
export function newPair(key: ParsedNode, value: ParsedNode | null): Pair<ParsedNode, ParsedNode> {
  const pair = Object.create(PAIR_PROTOTYPE) as Pair<ParsedNode, ParsedNode>;
  pair.key = key;
  pair.value = value;
  return pair;
}

/** What `new YAMLMap(schema)` gives, as far as yaml and this code can tell. */
export function newMap(schema: Schema): YAMLMap<ParsedNode, ParsedNode> {
  return withSchema(Object.create(MAP_PROTOTYPE) as YAMLMap<ParsedNode, ParsedNode>, schema);
}

/** What `new YAMLSeq(schema)` gives, as far as yaml and this code can tell. */
export function newSeq(schema: Schema): YAMLSeq<ParsedNode> {
  return withSchema(Object.create(SEQ_PROTOTYPE) as YAMLSeq<ParsedNode>, schema);
}

function withSchema<T extends YAMLMap<ParsedNode, ParsedNode> | YAMLSeq<ParsedNode>>(
  collection: T,
  schema: Schema,
): T {
  Object.defineProperty(collection, 'schema', {
    value: schema,
    configurable: true,
    enumerable: false,
    writable: true,
  });
  collection.items = [];
  return collection;
}
