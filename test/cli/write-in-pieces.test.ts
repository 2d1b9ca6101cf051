import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WRITE_PIECE_LENGTH, writeInPieces } from '../../server/src/cli/io';

// A large report is written in pieces; the pieces join back to the text, and none ends inside a surrogate pair.

/** Half of a surrogate pair without the other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The pieces `text` is written in. */
function piecesOf(text: string): string[] {
  const pieces: string[] = [];
  writeInPieces((piece) => pieces.push(piece), text);
  return pieces;
}

describe('writeInPieces', () => {
  const cases: { name: string; text: string; pieces: number }[] = [
    { name: 'an empty text is no write at all', text: '', pieces: 0 },
    { name: 'a short text is one write', text: '{"pods": []}\n', pieces: 1 },
    { name: 'a text of exactly one piece is one write', text: 'a'.repeat(WRITE_PIECE_LENGTH), pieces: 1 },
    {
      name: 'a text longer than a piece is several',
      text: 'b'.repeat(2 * WRITE_PIECE_LENGTH + 3),
      pieces: 3,
    },
    {
      name: 'a surrogate pair across a piece boundary stays whole, in the next piece',
      text: `${'c'.repeat(WRITE_PIECE_LENGTH - 1)}😀${'d'.repeat(10)}`,
      pieces: 2,
    },
  ];
  for (const { name, text, pieces } of cases) {
    test(name, () => {
      const written = piecesOf(text);
      assert.equal(written.length, pieces);
      assert.equal(written.join(''), text);
      for (const piece of written) {
        assert.doesNotMatch(piece, LONE_SURROGATE, 'no piece ends or starts inside a surrogate pair');
        assert.ok(piece.length <= WRITE_PIECE_LENGTH);
      }
    });
  }
});
