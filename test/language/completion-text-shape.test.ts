import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  containerPath,
  lineAt,
  lineElements,
  siblingKeys,
} from '../../server/src/language/assist/text-shape';
import { CURSOR } from './hover-harness';

/** The path of the mapping a key typed at the cursor would belong to, and that mapping's other keys. */
function shapeAt(marked: string): { path: (string | number)[] | undefined; siblings: string[] } {
  const offset = marked.indexOf(CURSOR);
  const text = marked.slice(0, offset) + marked.slice(offset + CURSOR.length);
  const bounds = { text, start: 0, end: text.length };
  const line = lineAt(text, offset);
  const column = offset - line.start;
  return {
    path: containerPath(bounds, line, column, 'key', lineElements(text, line, offset)),
    siblings: [...siblingKeys(bounds, line, column).keys()],
  };
}

const CASES: readonly {
  name: string;
  text: string;
  path: (string | number)[] | undefined;
  siblings?: string[];
}[] = [
  {
    name: 'a key at the top level belongs to the root',
    text: 'a: 1\n‸\nb: 2\n',
    path: [],
    siblings: ['a', 'b'],
  },
  {
    name: 'a key under nested mappings belongs to the innermost one',
    text: 'a:\n  b:\n    c: 1\n    ‸\n  d: 2\n',
    path: ['a', 'b'],
    siblings: ['c'],
  },
  {
    name: 'a key below the first key of a compact list item belongs to that item',
    text: 'a:\n- x: 1\n  ‸\n- y: 2\n',
    path: ['a', 0],
    siblings: ['x'],
  },
  {
    name: 'the index of an indented list item counts the items above it',
    text: 'a:\n  - x: 1\n  - y: 2\n    ‸\n',
    path: ['a', 1],
    siblings: ['y'],
  },
  {
    name: 'a key after a dash on its own line starts a new item',
    text: 'a:\n  - x: 1\n  - ‸\n',
    path: ['a', 1],
    siblings: [],
  },
  {
    name: 'items of nested lists are counted per list',
    text: 'a:\n- - x: 1\n  - y: 2\n    ‸\n',
    path: ['a', 0, 1],
    siblings: ['y'],
  },
  {
    name: 'an item whose dash is alone on its line holds the keys below it',
    text: 'a:\n-\n  ‸\n',
    path: ['a', 0],
  },
  {
    name: 'a compact list under a key of a list item is found through both',
    text: '- foo:\n  - x: 1\n    ‸\n',
    path: [0, 'foo', 0],
    siblings: ['x'],
  },
  {
    name: 'comments and blank lines are skipped',
    text: 'a:\n  # note\n\n  b: 1\n\n  ‸\n',
    path: ['a'],
    siblings: ['b'],
  },
  {
    name: 'the text of a block scalar above does not count as keys',
    text: 'a:\n  s: |\n    text: x\n  ‸\n',
    path: ['a'],
    siblings: ['s'],
  },
  {
    name: 'quoted keys are unquoted',
    text: "\"a b\":\n  'c''d': 1\n  ‸\n",
    path: ['a b'],
    siblings: ["c'd"],
  },
  { name: 'an anchor or tag after a key still opens a block', text: 'a: &anchor\n  ‸\n', path: ['a'] },
  { name: 'a key cannot sit under a key that has a value', text: 'a: 1\n  ‸\n', path: undefined },
  { name: 'the structure of a document ends at its marker', text: 'a:\n  b: 1\n---\n  ‸\n', path: [] },
];

void describe('text shape by indentation', () => {
  for (const { name, text, path, siblings } of CASES) {
    void test(name, () => {
      const shape = shapeAt(text);
      assert.deepEqual(shape.path, path);
      if (siblings !== undefined) {
        assert.deepEqual(shape.siblings.sort(), [...siblings].sort());
      }
    });
  }

  void test('a line splits into dashes, a key with its value without the comment, or a plain value', () => {
    const text = '  - - key: value # note\n  - plain\n';
    assert.deepEqual(lineElements(text, lineAt(text, 0)), [
      { column: 2, kind: 'dash' },
      { column: 4, kind: 'dash' },
      { column: 6, kind: 'key', key: 'key', value: 'value' },
    ]);
    assert.deepEqual(lineElements(text, lineAt(text, 25)), [
      { column: 2, kind: 'dash' },
      { column: 4, kind: 'scalar' },
    ]);
  });
});
