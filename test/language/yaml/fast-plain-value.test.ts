/**
 * The plain value parseSlice gives each document against the yaml package's toJS, on the cases where a plain
 * value can go wrong: -0, numbers past 2^53 or past a double, numeric, null, boolean and inherited keys, repeated
 * keys, "<<", multi-line and block scalars, flow collections; anchors, aliases and tags, which the fast parser
 * leaves to the package. Equal means equal JSON text, prototypes, key order and property flags, and leaves equal by
 * Object.is (fast-parse-compare.ts). `isRead` says whether readPlainValue reads the value itself (true) or leaves
 * it to toJS (false; also when the fast parser does not take the text at all).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { MAX_ALIAS_COUNT } from '../../../server/src/language/limits';
import { parseFastDocument } from '../../../server/src/language/yaml/fast/fast-document';
import { readPlainValue } from '../../../server/src/language/yaml/fast/plain-value';
import { takeNodeCensus } from '../../../server/src/language/yaml/node-checks';
import { ANALYZER_PARSE_OPTIONS, parseSlice } from '../../../server/src/language/yaml/parse-document';
import { censusByStart, diffPlainValues } from './fast-parse-compare';

const cases: { name: string; text: string; isRead: boolean }[] = [
  { name: 'minus zero stays minus zero', text: 'a: -0\nb: -0.0\nc: [-0, +0]\n', isRead: true },
  {
    name: 'numbers past 2^53 and past a double, and every number form, are the same',
    text: 'a: 12345678901234567890\nb: 1e400\nc: 0x1F\nd: 0o17\ne: .inf\nf: -.Inf\ng: .nan\nh: 1.50\ni: 1e3\n',
    isRead: true,
  },
  {
    name: 'a repeated key keeps its first place and its last value',
    text: 'a: 1\nb: 2\na: 3\n',
    isRead: true,
  },
  {
    name: 'numeric keys come first in number order, and 1.0 repeats 1',
    text: 'x: c\n2: b\n1: a\n0x10: h\n1.0: f\n',
    isRead: true,
  },
  { name: 'null and boolean keys become strings', text: '~: n\nnull: m\ntrue: t\nFalse: f\n', isRead: true },
  {
    name: 'inherited keys become own properties, __proto__ included',
    text: '__proto__: x\ntoString: 1\nconstructor: c\nhasOwnProperty: h\n',
    isRead: true,
  },
  { name: 'a quoted key is the same as a plain one', text: '"a": 1\n\'b\': 2\na: 3\n', isRead: true },
  {
    name: 'repeats are keys of equal value: 1.0 repeats 1, "1" does not, NaN never does, ~ repeats null',
    text: "a: 1\n1: x\n'1': y\n1.0: z\n.nan: n\n.NaN: m\n~: q\nnull: r\nb:\n  c: 1\n  c: 2\na: 4\n",
    isRead: true,
  },
  { name: 'a "<<" key is left to toJS', text: '<<: {a: 1}\nb: 2\n', isRead: false },
  { name: 'a quoted "<<" key is left to toJS', text: '"<<": 1\n', isRead: false },
  {
    name: 'block, multi-line plain and single-quoted scalars are the same',
    text: "a: |\n  x\n   y\nb: >-\n  p\n\n  q\nc: one\n  two\nd: 'it''s\n  long'\n",
    isRead: true,
  },
  {
    name: 'flow collections, empty values and sequences of mappings are the same',
    text: 'a: [1, "2", -0, null]\nb: {x: 1, x: 2}\nc:\nd: []\ne: {}\nf:\n- a: 1\n  b:\n  - y: ~\n  - y: ~\n',
    isRead: true,
  },
  { name: 'anchors and aliases are left to the package', text: 'a: &x {b: 1}\nc: *x\n', isRead: false },
  {
    name: 'a merge under YAML 1.1 is left to the package',
    text: '%YAML 1.1\n---\na: &x {b: 1}\nc:\n  <<: *x\n',
    isRead: false,
  },
  {
    name: 'tags are left to the package',
    text: 'a: !!str 1\nb: !!set {x, y}\nc: !!binary aGk=\n',
    isRead: false,
  },
];

describe('the plain value of a document is the one toJS gives', () => {
  for (const { name, text, isRead } of cases) {
    test(name, () => {
      const fast = parseFastDocument(text, ANALYZER_PARSE_OPTIONS);
      const plain = fast === undefined ? undefined : readPlainValue(fast);
      assert.equal(plain !== undefined, isRead);
      if (fast !== undefined && plain !== undefined) {
        assert.deepEqual(censusByStart(plain.census), censusByStart(takeNodeCensus(fast)));
      }
      const [document] = parseSlice(text);
      const documents = parseAllDocuments(text, ANALYZER_PARSE_OPTIONS);
      const reference = Array.isArray(documents) ? documents[0] : undefined;
      assert.ok(document !== undefined && reference !== undefined);
      assert.equal(
        diffPlainValues('value', document.value, reference.toJS({ maxAliasCount: MAX_ALIAS_COUNT })),
        undefined,
      );
    });
  }
});
