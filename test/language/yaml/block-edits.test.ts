/**
 * Edits that add to block YAML: they keep the user's indentation, land after a trailing comment on the last
 * line, keep CRLF line breaks, and are not offered for flow style.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseDocument } from 'yaml';
import type { Node } from 'yaml';
import type { OffsetEdit } from '../../../protocol/finding';
import {
  appendMapEntry,
  appendSeqItem,
  replaceScalar,
  yamlString,
} from '../../../server/src/language/yaml/block-edits';
import { nodeAtPath } from '../../../server/src/language/yaml/node-at-path';

function at(text: string, path: (string | number)[]): Node | undefined {
  return nodeAtPath(parseDocument(text).contents ?? undefined, path);
}

function apply(text: string, edit: OffsetEdit | undefined): string {
  assert.ok(edit !== undefined, 'an edit is offered');
  return text.slice(0, edit.start) + edit.newText + text.slice(edit.end);
}

describe('block YAML edits', () => {
  test('an entry appended to a nested mapping takes the column of its keys, after a trailing comment', () => {
    const text = 'spec:\n    containers:\n      - name: a # the app\n    dnsPolicy: None  # keep\n\n# end\n';
    const edited = apply(
      text,
      appendMapEntry(at(text, ['spec']), text, 0, 'tolerations', ['- key: k', '  effect: NoSchedule']),
    );
    assert.equal(
      edited,
      'spec:\n    containers:\n      - name: a # the app\n    dnsPolicy: None  # keep\n    tolerations:\n      - key: k\n        effect: NoSchedule\n\n# end\n',
    );
  });

  test('a scalar entry goes on the key’s line', () => {
    const text = 'a:\n  b: 1\n';
    assert.equal(apply(text, appendMapEntry(at(text, ['a']), text, 0, 'c', '2')), 'a:\n  b: 1\n  c: 2\n');
  });

  test('an item appended to a block sequence, in a document that starts later in the file, with CRLF', () => {
    const text = 'x: 1\r\n---\r\nlist:\r\n- one\r\n- two\r\n';
    const start = text.indexOf('list');
    const edited = apply(
      text,
      appendSeqItem(at(text.slice(start), ['list']), text, start, ['key: v', 'effect: E']),
    );
    assert.equal(edited, 'x: 1\r\n---\r\nlist:\r\n- one\r\n- two\r\n- key: v\r\n  effect: E\r\n');
  });

  test('flow collections get no edit', () => {
    const text = 'a: {b: 1}\nl: [x]\n';
    assert.equal(appendMapEntry(at(text, ['a']), text, 0, 'c', '2'), undefined);
    assert.equal(appendSeqItem(at(text, ['l']), text, 0, ['y']), undefined);
  });

  test('a scalar is replaced in place; a mapping is not a scalar', () => {
    const text = 'cpu: 250m\nm: {}\n';
    assert.equal(apply(text, replaceScalar(at(text, ['cpu']), 0, '500m')), 'cpu: 500m\nm: {}\n');
    assert.equal(replaceScalar(at(text, ['m']), 0, 'x'), undefined);
  });

  const strings: [string, string][] = [
    ['payments', 'payments'],
    ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/control-plane'],
    ['128Mi', '128Mi'],
    ['1', '"1"'],
    ['0.5', '"0.5"'],
    ['true', '"true"'],
    ['No', '"No"'],
    ['', '""'],
    ['a: b', '"a: b"'],
    ['0x1F', '"0x1F"'],
    ['1e3', '"1e3"'],
  ];
  for (const [value, expected] of strings) {
    test(`yamlString(${JSON.stringify(value)}) is ${expected} and reads back as the string`, () => {
      assert.equal(yamlString(value), expected);
      assert.deepEqual(parseDocument(`v: ${yamlString(value)}`).toJS() as unknown, { v: value });
    });
  }
});
