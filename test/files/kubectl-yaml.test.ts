import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import * as jsYaml from 'js-yaml';
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import type { Type } from 'js-yaml';
import { readKubectlYaml } from '../../server/src/language/manifests/kubectl-yaml';
import { loadCaptureValue } from '../../server/src/language/manifests/capture-reader';
import { captureText } from '../../bench/captured-cluster';
import { loadYamlSuite } from '../robustness/yaml-suite';

// The fast reader of kubectl's YAML must answer as js-yaml with the capture schema answers, or give up: never a
// different value, and never a value where js-yaml refuses the text.

const SCHEMA = CORE_SCHEMA.extend({
  implicit: [(jsYaml as unknown as { types: { merge: Type } }).types.merge],
});

/** js-yaml's reading of `text`, or 'error'. */
function jsYamlRead(text: string): unknown[] | 'error' {
  try {
    return loadAll(text, null, { json: true, schema: SCHEMA });
  } catch {
    return 'error';
  }
}

/** Checks that the fast reader agrees with js-yaml on `text`, and says whether it read it (rather than gave up). */
function agrees(text: string, label: string): boolean {
  const fast = readKubectlYaml(text, loadCaptureValue);
  if (fast === undefined) {
    return false;
  }
  const expected = jsYamlRead(text);
  assert.notEqual(expected, 'error', `${label}: read a text js-yaml refuses`);
  assert.deepStrictEqual(fast, expected, label);
  return true;
}

describe('readKubectlYaml (kubectl YAML read line by line, else given up)', () => {
  // Rows: the shapes kubectl writes, which must be read (not given up), and their values as js-yaml gives them.
  const read: { name: string; text: string }[] = [
    { name: 'a single-quoted scalar with a doubled quote', text: "a: 'it''s'\n" },
    { name: 'a double-quoted scalar with escapes', text: 'a: "\\u00e9\\n\\t\\"x\\""\n' },
    { name: 'a quoted scalar holding a colon and a space', text: 'key: \'a: b\'\nother: "c: d"\n' },
    { name: 'a sequence of sequences (js-yaml test "- - x")', text: '- - x\n  - y\n- z\n' },
    { name: 'empty values, ~ and null are null', text: 'a:\nb: ~\nc: null\nd: Null\ne: NULL\nf: \n' },
    {
      name: 'core-schema booleans, and yes/no stay strings',
      text: 'a: true\nb: False\nc: TRUE\nd: yes\ne: off\n',
    },
    {
      name: 'core-schema numbers: octal 0o17, 1e3, .inf, -.inf, .nan, 0x1F, -0, 1_000',
      text: 'a: 0o17\nb: 1e3\nc: .inf\nd: -.inf\ne: .nan\nf: 0x1F\ng: -0\nh: 1_000\ni: 012\nj: 3.25\nk: +5\n',
    },
    { name: 'a quoted number stays a string', text: 'a: "012"\nb: \'1e3\'\nc: "true"\n' },
    { name: 'keys with colons, dots and slashes', text: 'a:b: 1\nkubernetes.io/hostname: n\n"c: d": 2\n' },
    {
      name: 'keys that resolve to numbers, booleans and null become their strings',
      text: '1: a\n0x10: b\ntrue: c\n~: d\n1e2: e\n',
    },
    {
      name: 'comment lines anywhere',
      text: '# top\na:\n  # inside\n  b: 1\n# between\nc:\n- 1\n  # in a sequence\n- 2\n',
    },
    { name: 'document markers start documents', text: '---\na: 1\n---\nb: 2\n' },
    {
      name: 'a literal block scalar with each chomping',
      text: 'a: |\n  x\n   y\n\n  z\n\nb: |-\n  q\nc: |+\n  r\n\nd: 1\n',
    },
    { name: 'a folded block scalar', text: 'a: >\n  one\n  two\n\n  three\nb: >-\n  x\n' },
    { name: 'a block scalar in a sequence, and at the end of the text', text: '- |\n  a\n  b\n- >-\n  c\n' },
    {
      name: 'plain and quoted scalars over several lines',
      text: 'a: one\n  two\n\n  three\nb: "x\n  y \\\n  z"\nc: \'p\n\n  q\'\n',
    },
    {
      name: "a sequence at its key's indentation, and compact mappings in it",
      text: 'items:\n- name: a\n  ports:\n  - 80\n  - 443\n- name: b\n',
    },
    { name: 'empty flow collections', text: 'a: {}\nb: []\nc:\n- {}\n- []\n' },
    { name: 'a sequence entry with nothing is null', text: 'a:\n-\n- x\n-\nb: 1\n' },
    { name: 'a duplicate key: the last value, the first place (json: true)', text: 'a: 1\nb: 2\na: 3\n' },
    {
      name: 'times, quantities and images stay strings',
      text: 'a: 2026-11-01T00:00:00Z\nb: 100m\nc: 64Gi\nd: registry.example/app:1\ne: 1.5\n',
    },
    {
      name: 'a plain scalar with # inside a word and a colon not before a space',
      text: 'a: x#y\nb: http://x:80/p\n',
    },
    { name: 'non-ASCII text', text: 'a: é😀\n"b": "ü"\n' },
    { name: 'a plain scalar ending in a no-break space, which stays', text: 'a: x\u00a0\nb: x\u2028y\n' },
    { name: 'a dash-led plain scalar', text: 'a: -1\nb: -x\nc: --flag=1\n' },
    { name: 'a kept block scalar at the end of a text without a last line break', text: 'a: |+\n  x' },
    { name: 'a block scalar ended by a comment at the margin', text: 'a: |\n  x\n# c\nb: 1\n' },
    {
      name: 'a block scalar whose lines look like comments and markers',
      text: 'a: |\n  # not a comment\n  ---\n',
    },
    { name: 'an empty block scalar at the end', text: 'a: |\n' },
    { name: 'a plain scalar followed by a deeper comment', text: 'a: x\n  # c\nb: 1\n' },
    { name: 'empty quoted scalars, and spaces after a closing quote', text: "a: ''\nb: \"\"\nc: 'x'  \n" },
    { name: 'a sequence at the root', text: '- a\n- 1\n- b: 2\n' },
    { name: 'printable characters beyond ASCII', text: 'a: café ✓ \u00a0x\nb: "\u{1F600}"\n' },
    { name: 'a block scalar in a compact mapping in a sequence', text: '- key: |\n    x\n  other: 1\n' },
    {
      name: 'numbers that are not quite numbers',
      text: 'a: 1.\nb: 1.2.3\nc: 0b101\nd: 1e\ne: -.5\nf: +.inf\n',
    },
  ];
  for (const { name, text } of read) {
    test(`reads ${name}`, () => {
      assert.equal(agrees(text, name), true, `${name}: given up`);
    });
  }

  // Rows: what lies outside the subset; the reader gives up (js-yaml then reads it, or says why it cannot).
  const givenUp: { name: string; text: string }[] = [
    { name: 'CRLF line ends', text: 'a: 1\r\nb: 2\r\n' },
    { name: 'a byte order mark', text: '\uFEFFa: 1\n' },
    { name: 'a tab', text: 'a:\t1\n' },
    { name: 'an anchor and an alias', text: 'a: &x 1\nb: *x\n' },
    { name: 'a tag', text: 'a: !!str 1\n' },
    { name: 'a flow mapping with content', text: 'a: {b: 1}\n' },
    { name: 'a comment after a value', text: 'a: 1 # one\n' },
    { name: 'a merge key', text: 'a: 1\n<<: {}\n' },
    { name: 'a document end marker', text: 'a: 1\n...\n' },
    { name: 'an empty document', text: '---\n---\na: 1\n' },
    { name: 'a scalar document', text: 'just text\n' },
    { name: 'a __proto__ key', text: '__proto__: 1\n' },
    { name: 'a bad indentation', text: 'a:\n  b: 1\n c: 2\n' },
    { name: 'a block scalar with an indentation indicator', text: 'a: |2\n   x\n' },
    { name: "a mapping value on the key's line", text: 'a: b: c\n' },
    {
      name: 'a block scalar after a blank line deeper than its text (js-yaml refuses it)',
      text: 'a: |\n     \n  x\nb: 1\n',
    },
    { name: 'a no-break space after a quoted scalar (js-yaml refuses it)', text: "b: 'y'\u00a0\n" },
    { name: 'a no-break space after a block scalar header (js-yaml refuses it)', text: 'd: |\u00a0\n  x\n' },
    { name: 'a non-printable character', text: 'a: "\u0001"\n' },
    { name: 'a C1 control character after printable ones beyond ASCII', text: 'a: é\u0086\n' },
    { name: 'a lone surrogate', text: 'a: x\ud800\n' },
  ];
  for (const { name, text } of givenUp) {
    test(`gives up on ${name}`, () => {
      assert.equal(readKubectlYaml(text, loadCaptureValue), undefined);
    });
  }

  test('reads generated captures as js-yaml does (nodes, Deployments, ReplicaSets, pods)', () => {
    for (const [nodes, pods] of [
      [3, 20],
      [10, 250],
    ] as const) {
      assert.equal(agrees(captureText(nodes, pods), `capture ${nodes}/${pods}`), true);
    }
  });

  test('agrees with js-yaml on every case of the YAML test suite (or gives up), never reading what js-yaml refuses', () => {
    let readCount = 0;
    for (const suiteCase of loadYamlSuite()) {
      if (agrees(suiteCase.text, `${suiteCase.id} ${suiteCase.name}`)) {
        readCount++;
      }
    }
    // A reader that gave up on everything would pass the rest of this test.
    assert.ok(readCount >= 40, `only ${readCount} suite cases read`);
  });

  const corpus = join(__dirname, '..', '..', '..', 'shared', 'corpus');
  test('agrees with js-yaml on every file of the corpus (or gives up)', { skip: !existsSync(corpus) }, () => {
    let readCount = 0;
    const walk = (folder: string): void => {
      for (const entry of readdirSync(folder).sort()) {
        const path = join(folder, entry);
        if (statSync(path).isDirectory()) {
          walk(path);
        } else if (/\.ya?ml$/.test(entry) && agrees(readFileSync(path, 'utf8'), path)) {
          readCount++;
        }
      }
    };
    walk(corpus);
    assert.ok(readCount >= 200, `only ${readCount} corpus files read`);
  });
});
