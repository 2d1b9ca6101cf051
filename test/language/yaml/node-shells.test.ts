/**
 * The fast parser's Scalar, Pair and collection nodes carry yaml's type mark on a prototype rather than as an own property
 * (node-shells.ts): yaml's checks, clone, toJS, printing and spreads must treat them as the constructors' nodes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  Document,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  Pair,
  Scalar,
  YAMLMap,
  YAMLSeq,
} from 'yaml';
import type { ParsedNode } from 'yaml';
import { newMap, newPair, newScalar, newSeq } from '../../../server/src/language/yaml/fast/node-shells';

describe('fast node shells', () => {
  test('a shell scalar is a Scalar to every yaml check and has the same own enumerable properties', () => {
    const shell = newScalar('web');
    const built = new Scalar('web');
    assert.ok(isScalar(shell) && isNode(shell) && !isPair(shell));
    assert.ok(shell instanceof Scalar);
    assert.equal(shell.constructor, Scalar);
    assert.deepEqual(Object.keys(shell), Object.keys(built));
    assert.deepEqual({ ...shell }, { ...built });
    assert.ok(!isScalar({ ...shell }), 'a spread leaves the type mark out, as it does of a built scalar');
    assert.ok(isScalar(shell.clone()));
  });

  test('a shell pair is a Pair to every yaml check, and a map of shells prints and converts as one of built nodes', () => {
    const key = newScalar('app');
    const shell = newPair(key as ParsedNode, newScalar('web') as ParsedNode);
    assert.ok(isPair(shell) && !isNode(shell) && shell instanceof Pair);
    assert.deepEqual(Object.keys(shell), Object.keys(new Pair(key, null)));
    assert.ok(isPair(shell.clone()));
    const withShells = new Document({});
    const map = newMap(withShells.schema);
    map.items.push(shell);
    withShells.contents = map;
    const built = new Document({ app: 'web' });
    assert.equal(withShells.toString(), built.toString());
    assert.deepEqual(withShells.toJS(), built.toJS());
  });

  test('shell collections are collections to every yaml check, with their schema as an own hidden property', () => {
    const schema = new Document({}).schema;
    const map = newMap(schema);
    const seq = newSeq(schema);
    assert.ok(map instanceof YAMLMap && seq instanceof YAMLSeq);
    const nodes: unknown[] = [map, seq];
    assert.deepEqual(
      nodes.map((node) => [isMap(node), isSeq(node), isCollection(node)]),
      [
        [true, false, true],
        [false, true, true],
      ],
    );
    assert.deepEqual(Object.keys(map), Object.keys(new YAMLMap(schema)));
    assert.deepEqual(Object.keys(seq), Object.keys(new YAMLSeq(schema)));
    assert.equal(map.schema, schema);
    assert.deepEqual(
      Object.getOwnPropertyDescriptor(seq, 'schema'),
      Object.getOwnPropertyDescriptor(new YAMLSeq(schema), 'schema'),
    );
  });
});
