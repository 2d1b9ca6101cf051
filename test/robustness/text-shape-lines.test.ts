/**
 * Walking lines upward ends at the top of the text. Found by fuzzing the server: completion in a document
 * whose first line is empty looped forever (lineAt at offset 0 returned the second line, and previousLine
 * returned it again and again), and the server stopped answering anything.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lineAt, previousLine } from '../../server/src/language/assist/text-shape';

/** Every line from the one at `offset` up to the first, as [start, end] pairs (at most 100). */
function linesUpward(text: string, offset: number): [number, number][] {
  const bounds = { text, start: 0, end: text.length };
  const lines: [number, number][] = [];
  for (let line = lineAt(text, offset) as ReturnType<typeof lineAt> | undefined; line !== undefined;) {
    lines.push([line.start, line.end]);
    if (lines.length > 100) {
      break;
    }
    line = previousLine(bounds, line);
  }
  return lines;
}

const cases: { name: string; text: string; offset: number; lines: [number, number][] }[] = [
  {
    name: 'a text whose first line is empty ends at that empty line',
    text: '\na: 1\nb: 2',
    offset: 7,
    lines: [
      [6, 10],
      [1, 5],
      [0, 0],
    ],
  },
  {
    name: 'a text of empty lines walks each of them once',
    text: '\n\n\n',
    offset: 3,
    lines: [
      [3, 3],
      [2, 2],
      [1, 1],
      [0, 0],
    ],
  },
  {
    name: 'the line at offset 0 of a text starting with a line break is the empty first line',
    text: '\nx',
    offset: 0,
    lines: [[0, 0]],
  },
  {
    name: 'a text without an empty first line is walked as before',
    text: 'a: 1\r\nb: 2',
    offset: 8,
    lines: [
      [6, 10],
      [0, 4],
    ],
  },
];

describe('walking lines upward ends at the top', () => {
  for (const { name, text, offset, lines } of cases) {
    test(name, () => {
      assert.deepEqual(linesUpward(text, offset), lines);
    });
  }
});
