import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Node } from 'yaml';
import { closestMatch } from '../../../server/src/language/schema/closest-match';
import { LineIndex } from '../../../server/src/language/text/line-index';
import { findExcessiveNesting } from '../../../server/src/language/yaml/nesting';
import {
  locatePath,
  pathAtOffset,
  rangeForKey,
  rangeForValue,
} from '../../../server/src/language/yaml/node-at-path';
import { parseSlice } from '../../../server/src/language/yaml/parse-document';
import { splitDocuments } from '../../../server/src/language/yaml/split-documents';

function rootOf(text: string): Node {
  const [first] = parseSlice(text);
  const contents = first?.document?.contents;
  assert.ok(contents, 'document has contents');
  return contents;
}

describe('splitDocuments', () => {
  const cases: { name: string; text: string; slices: string[] }[] = [
    { name: 'a file without markers is one slice', text: 'a: 1\nb: 2\n', slices: ['a: 1\nb: 2\n'] },
    { name: 'each --- line starts a slice', text: 'a: 1\n---\nb: 2\n', slices: ['a: 1\n', '---\nb: 2\n'] },
    {
      name: 'a leading --- does not make an empty first slice',
      text: '---\na: 1\n',
      slices: ['---\na: 1\n'],
    },
    {
      name: '--- followed by content is a marker',
      text: 'a: 1\n--- # c\nb: 2',
      slices: ['a: 1\n', '--- # c\nb: 2'],
    },
    { name: '---- is not a marker', text: 'a: |\n  x\n----\n', slices: ['a: |\n  x\n----\n'] },
    { name: 'an indented --- is not a marker', text: 'a: |\n  ---\n', slices: ['a: |\n  ---\n'] },
    {
      name: 'CRLF line ends are kept',
      text: 'a: 1\r\n---\r\nb: 2\r\n',
      slices: ['a: 1\r\n', '---\r\nb: 2\r\n'],
    },
  ];
  for (const { name, text, slices } of cases) {
    test(name, () => {
      const result = splitDocuments(text);
      assert.deepEqual(
        result.map((slice) => slice.text),
        slices,
      );
      assert.equal(result.map((slice) => slice.text).join(''), text, 'slices cover the text exactly');
      for (const slice of result) {
        assert.equal(text.slice(slice.start, slice.start + slice.text.length), slice.text);
      }
    });
  }
});

describe('parseSlice', () => {
  const cases: { name: string; text: string; codes: string[] }[] = [
    { name: 'valid YAML has no finding', text: 'a: 1\nb: [1, 2]\n', codes: [] },
    { name: 'a duplicate key is reported as such', text: 'a: 1\na: 2\n', codes: ['yaml-duplicate-key'] },
    {
      name: 'a tab used as indentation is reported as such',
      text: 'a:\n\tb: 1\n',
      codes: ['yaml-tab-indent'],
    },
    { name: 'an unclosed flow sequence is a syntax error', text: 'a: [1, 2\n', codes: ['yaml-syntax'] },
    {
      name: 'deep nesting is refused with one finding',
      text: '['.repeat(5000) + ']'.repeat(5000),
      codes: ['yaml-too-deep'],
    },
  ];
  for (const { name, text, codes } of cases) {
    test(name, () => {
      const findings = parseSlice(text).flatMap((document) => document.findings);
      assert.deepEqual([...new Set(findings.map((finding) => finding.code))], codes);
      if (codes.includes('yaml-too-deep')) {
        assert.equal(findings.length, 1);
      }
    });
  }

  test('an alias bomb is refused instead of expanded', () => {
    let text = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 10; i++) {
      const name = String.fromCharCode(97 + i);
      const previous = String.fromCharCode(96 + i);
      text += `${name}: &${name} [${Array<string>(9).fill(`*${previous}`).join(',')}]\n`;
    }
    const [document] = parseSlice(text);
    assert.equal(document?.value, undefined);
    assert.deepEqual(
      document?.findings.map((finding) => finding.code),
      ['yaml-alias-limit'],
    );
  });

  test('a duplicate key finding covers the repeated key', () => {
    const text = 'kind: Pod\nkind: Service\n';
    const [finding] = parseSlice(text)[0]?.findings ?? [];
    assert.ok(finding);
    assert.equal(text.slice(finding.start, finding.end).startsWith('kind'), true);
    assert.equal(finding.start, text.lastIndexOf('kind'));
  });
});

describe('findExcessiveNesting', () => {
  test('a realistic manifest is far below the limit', () => {
    const text = 'a:\n  b:\n    c:\n      - d: [1, {e: 2}]\n';
    assert.equal(findExcessiveNesting(text), undefined);
  });
  test('block nesting beyond the limit is found', () => {
    const text = Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n');
    assert.notEqual(findExcessiveNesting(text), undefined);
  });
  test('brackets inside quoted strings do not count', () => {
    assert.equal(findExcessiveNesting(`a: "${'['.repeat(500)}"\n`), undefined);
  });
});

describe('node-at-path', () => {
  const text =
    'spec:\n  replicas: "3"\n  template:\n    spec:\n      containers:\n        - name: app\n          image: nginx\n';
  const root = rootOf(text);
  test('rangeForValue finds a value', () => {
    const range = rangeForValue(root, ['spec', 'replicas']);
    assert.ok(range);
    assert.equal(text.slice(range[0], range[1]), '"3"');
  });
  test('rangeForKey finds a key', () => {
    const range = rangeForKey(root, ['spec', 'template', 'spec', 'containers', 0, 'image']);
    assert.ok(range);
    assert.equal(text.slice(range[0], range[1]), 'image');
  });
  test('a missing field falls back to the key of its nearest parent', () => {
    const range = rangeForValue(root, ['spec', 'template', 'metadata', 'labels']);
    assert.ok(range);
    assert.equal(text.slice(range[0], range[1]), 'template');
  });
  test('locatePath reports how deep the path exists', () => {
    assert.equal(locatePath(root, ['spec', 'template', 'nope']).depth, 2);
  });
  test('pathAtOffset finds the key under the cursor', () => {
    const location = pathAtOffset(root, text.indexOf('image') + 2);
    assert.deepEqual(location.path, ['spec', 'template', 'spec', 'containers', 0, 'image']);
    assert.equal(location.isKey, true);
  });
  test('pathAtOffset finds the value under the cursor', () => {
    const location = pathAtOffset(root, text.indexOf('nginx') + 1);
    assert.deepEqual(location.path, ['spec', 'template', 'spec', 'containers', 0, 'image']);
    assert.equal(location.isKey, false);
  });
});

describe('LineIndex', () => {
  const index = new LineIndex('ab\ncd\r\nef\rg');
  const cases: { offset: number; line: number; character: number }[] = [
    { offset: 0, line: 0, character: 0 },
    { offset: 3, line: 1, character: 0 },
    { offset: 7, line: 2, character: 0 },
    { offset: 10, line: 3, character: 0 },
    { offset: 99, line: 3, character: 1 },
  ];
  for (const { offset, line, character } of cases) {
    test(`offset ${offset} is line ${line} character ${character}, and back`, () => {
      assert.deepEqual(index.positionAt(offset), { line, character });
      assert.equal(index.offsetAt({ line, character }), Math.min(offset, 11));
    });
  }
});

describe('closestMatch', () => {
  const cases: { word: string; candidates: string[]; expected: string | undefined }[] = [
    { word: 'replica', candidates: ['replicas', 'selector'], expected: 'replicas' },
    { word: 'imagePullPolicyy', candidates: ['imagePullPolicy', 'image'], expected: 'imagePullPolicy' },
    { word: 'contianers', candidates: ['containers', 'initContainers'], expected: 'containers' },
    { word: 'xyz', candidates: ['replicas', 'selector'], expected: undefined },
  ];
  for (const { word, candidates, expected } of cases) {
    test(`"${word}" suggests ${String(expected)}`, () => {
      assert.equal(closestMatch(word, candidates), expected);
    });
  }
});
