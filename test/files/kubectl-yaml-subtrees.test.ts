import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as jsYaml from 'js-yaml';
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import type { Type } from 'js-yaml';
import { readKubectlYaml } from '../../server/src/language/manifests/kubectl-yaml';
import { loadCaptureValue } from '../../server/src/language/manifests/capture-reader';
import { captureText } from '../../bench/captured-cluster';

// The fast reader shares a collection whose text repeats the last one begun by the same line
// (kubectl-yaml-subtrees.ts): the values must still be js-yaml's, and what keeps an identity must keep it.

const SCHEMA = CORE_SCHEMA.extend({
  implicit: [(jsYaml as unknown as { types: { merge: Type } }).types.merge],
});

/** The fast reader's documents of `text`, checked against js-yaml's. */
function readAgreeing(text: string): unknown[] {
  const fast = readKubectlYaml(text, loadCaptureValue);
  assert.ok(fast !== undefined, 'given up');
  assert.deepStrictEqual(fast, loadAll(text, null, { json: true, schema: SCHEMA }));
  return fast;
}

/** The value at `path` in `value` (keys and indexes), undefined where a step is missing. */
function at(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const step of path) {
    current =
      typeof current === 'object' && current !== null
        ? (current as Record<string | number, unknown>)[step]
        : undefined;
  }
  return current;
}

describe('readKubectlYaml shares repeated collections', () => {
  // Rows: a collection that repeats an earlier one's text, then goes on or ends otherwise: never the earlier value.
  const nearRepeats: { name: string; text: string }[] = [
    { name: 'a mapping with one more key', text: 'a:\n  x: 1\nb:\n  x: 1\n  y: 2\n' },
    { name: 'a plain scalar going on to the next line', text: 'a:\n  x: foo\nb:\n  x: foo\n   bar\nc: 1\n' },
    { name: 'a longer last scalar', text: 'a:\n  x: 1\nb:\n  x: 12\n' },
    { name: 'the end of the text without a line break', text: 'a:\n  x: 1\nb:\n  x: 1' },
    { name: 'a sequence with one more entry', text: 'a:\n  - x\n  - y\nb:\n  - x\n  - y\n  - z\n' },
    { name: 'a comment line after it', text: 'a:\n  x: 1\nb:\n  x: 1\n# c\n  y: 2\n' },
    { name: 'a deeper comment after it', text: 'a:\n  x: 1\nb:\n  x: 1\n    # c\nc: 2\n' },
    { name: 'a blank line after it', text: 'a:\n  x: 1\nb:\n  x: 1\n\n  y: 2\n' },
    { name: 'an empty value whose next line differs', text: 'a:\n  x:\nb:\n  x:\n   - 1\n' },
    { name: 'a compact entry with more keys', text: '- x: 1\n- x: 1\n  y: 2\n- x: 1\n' },
  ];
  for (const { name, text } of nearRepeats) {
    test(`reads ${name} as js-yaml does`, () => {
      readAgreeing(text);
    });
  }

  test('a repeated collection is the same object, at the end of the text too', () => {
    const [root] = readAgreeing('a:\n  x: 1\nb:\n  x: 1\nc:\n  - x: 1\n  - x: 1\nd:\n  x: 1\n');
    assert.equal(typeof at(root, 'a'), 'object');
    assert.equal(at(root, 'a'), at(root, 'b'));
    assert.equal(at(root, 'b'), at(root, 'd'));
    assert.equal(at(root, 'c', 0), at(root, 'c', 1));
  });

  test("a ReplicaSet's pods share labels, owners, containers and status; pods and specs keep their own", () => {
    const [list] = readAgreeing(captureText(2, 5));
    const items = at(list, 'items');
    const pods = (Array.isArray(items) ? (items as unknown[]) : []).filter(
      (item) => at(item, 'kind') === 'Pod',
    );
    assert.equal(pods.length, 5);
    const [first, second] = pods;
    for (const shared of [
      ['metadata', 'labels'],
      ['metadata', 'ownerReferences'],
      ['spec', 'containers'],
      ['status'],
    ]) {
      assert.equal(typeof at(first, ...shared), 'object');
      assert.equal(at(first, ...shared), at(second, ...shared), shared.join('.'));
    }
    assert.notEqual(at(first, 'metadata'), at(second, 'metadata'));
    assert.notEqual(at(first, 'spec'), at(second, 'spec'));
  });

  test("equal specs, templates, a List's items and documents are never shared (admission keeps results by spec)", () => {
    const pod = '  - kind: Pod\n    spec:\n      containers:\n        - name: c\n';
    const [list] = readAgreeing(`items:\n${pod}${pod}`);
    assert.notEqual(at(list, 'items', 0), at(list, 'items', 1));
    assert.notEqual(at(list, 'items', 0, 'spec'), at(list, 'items', 1, 'spec'));
    assert.equal(at(list, 'items', 0, 'spec', 'containers'), at(list, 'items', 1, 'spec', 'containers'));
    const template = 'spec:\n  template:\n    spec:\n      x: 1\n';
    const [first, second] = readAgreeing(`${template}---\n${template}`);
    assert.notEqual(first, second);
    assert.notEqual(at(first, 'spec', 'template'), at(second, 'spec', 'template'));
    assert.notEqual(at(first, 'spec', 'template', 'spec'), at(second, 'spec', 'template', 'spec'));
  });
});
