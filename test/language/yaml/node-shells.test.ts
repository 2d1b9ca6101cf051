/**
 * The fast parser's Scalar and Pair nodes carry yaml's type mark on a prototype rather than as an own property
 * (node-shells.ts): yaml's checks, clone, toJS, printing and spreads must treat them as the constructors' nodes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Document, isNode, isPair, isScalar, Pair, Scalar, YAMLMap } from 'yaml';
import type { ParsedNode } from 'yaml';
import { newPair, newScalar } from '../../../server/src/language/yaml/fast/node-shells';

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
    const map = new YAMLMap<ParsedNode, ParsedNode>(withShells.schema);
    map.items.push(shell);
    withShells.contents = map;
    const built = new Document({ app: 'web' });
    assert.equal(withShells.toString(), built.toString());
    assert.deepEqual(withShells.toJS(), built.toJS());
  });
});
