/**
 * takeNodeCensus walks the nodes itself (not with the package's visit()): it must count and find exactly what a
 * visit() over the same document does, wherever nodes hide (flow pairs, complex keys, anchors, aliases).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAlias, isMap, isScalar, parseDocument, visit } from 'yaml';
import type { Document, ParsedNode } from 'yaml';
import { keyText, takeNodeCensus } from '../../../server/src/language/yaml/node-checks';
import type { DuplicateKey, NodeCensus } from '../../../server/src/language/yaml/node-checks';

/** The census as visit() takes it (the implementation before the explicit stack). */
function censusByVisit(document: Document.Parsed<ParsedNode>): NodeCensus {
  const duplicateKeys: DuplicateKey[] = [];
  let anchorsAndAliases = 0;
  visit(document, {
    Node(_key, node) {
      if (isAlias(node) || node.anchor !== undefined) {
        anchorsAndAliases++;
      }
      if (isMap(node)) {
        const seen = new Set<unknown>();
        for (const pair of node.items) {
          const key = pair.key;
          if (!isScalar(key) || (typeof key.value === 'number' && Number.isNaN(key.value))) {
            continue;
          }
          if (seen.has(key.value)) {
            if (key.range) {
              duplicateKeys.push({ start: key.range[0], end: key.range[1], key: keyText(key.value) });
            }
          } else {
            seen.add(key.value);
          }
        }
      }
    },
  });
  return { duplicateKeys, anchorsAndAliases };
}

const CASES: { name: string; text: string; duplicates: number; anchorsAndAliases: number }[] = [
  { name: 'an empty document has nothing', text: '', duplicates: 0, anchorsAndAliases: 0 },
  {
    name: 'a repeated key of a nested mapping is found',
    text: 'a:\n  b: 1\n  b: 2\n',
    duplicates: 1,
    anchorsAndAliases: 0,
  },
  {
    name: 'each later repeat is found, 1 and 1.0 being the same key',
    text: 'x: 1\n1: a\n1.0: b\nx: 2\nx: 3\n',
    duplicates: 3,
    anchorsAndAliases: 0,
  },
  { name: 'a quoted "1" is not the number 1', text: '1: a\n"1": b\n', duplicates: 0, anchorsAndAliases: 0 },
  {
    name: 'repeats inside a mapping in a sequence are found',
    text: 'items:\n  - a: 1\n    a: 2\n  - [x, {k: 1, k: 2}]\n',
    duplicates: 2,
    anchorsAndAliases: 0,
  },
  {
    name: 'pairs of a flow sequence and complex keys are walked',
    text: 'l: [a: {d: 1, d: 2}, b: &x 2]\n? {k: 1, k: 1}\n: v\n',
    duplicates: 2,
    anchorsAndAliases: 1,
  },
  {
    name: 'anchors on any node and aliases count, aliases are not followed',
    text: 'a: &m {x: 1, x: 2}\nb: *m\nc: &s [*m, &v 1]\n',
    duplicates: 1,
    anchorsAndAliases: 5,
  },
  {
    name: 'NaN never repeats, empty keys do',
    text: '.nan: 1\n.nan: 2\n: a\n: b\n',
    duplicates: 1,
    anchorsAndAliases: 0,
  },
];

describe('takeNodeCensus', () => {
  for (const { name, text, duplicates, anchorsAndAliases } of CASES) {
    test(name, () => {
      const document = parseDocument(text, { uniqueKeys: false });
      const census = takeNodeCensus(document);
      assert.deepEqual(census, censusByVisit(document));
      assert.equal(census.duplicateKeys.length, duplicates);
      assert.equal(census.anchorsAndAliases, anchorsAndAliases);
    });
  }

  test('each repeat names its key as text: numbers as written by value, the empty key as ""', () => {
    const census = takeNodeCensus(
      parseDocument('x: 1\n1: a\n1.0: b\nx: 2\n: a\n: b\n', { uniqueKeys: false }),
    );
    assert.deepEqual(
      census.duplicateKeys.map((duplicate) => duplicate.key),
      ['1', 'x', ''],
    );
  });
});
