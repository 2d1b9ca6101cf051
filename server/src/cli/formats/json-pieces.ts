/**
 * JSON text written in pieces, byte for byte what `JSON.stringify(value, null, 2)` writes. The JSON report of a
 * 150,000-pod capture is 176 MB: built as one string it was held twice at once (the stringifier's parts, then the
 * flat copy a write makes of them), past the 1.5 GB the largest cluster is allowed. Here each member of the
 * top-level object, and each run of CHUNK_LENGTH elements of a long array there, is stringified on its own, so
 * only pieces of about WRITE_PIECE_LENGTH characters are held at a time. Walking deeper (an element at a time,
 * re-indented) was four times slower than one JSON.stringify; this costs about as much as one.
 */
import { WRITE_PIECE_LENGTH } from '../io';

/** How many elements of a top-level array are stringified at a time. */
const CHUNK_LENGTH = 1000;

/**
 * Writes `value` as `JSON.stringify(value, null, 2)` would, to `write` in pieces of about WRITE_PIECE_LENGTH
 * characters (the last may be shorter). Nothing is written for a value JSON.stringify writes as undefined.
 */
export function writeJsonInPieces(value: unknown, write: (piece: string) => void): void {
  if (isWrittenAsNothing(value)) {
    return;
  }
  const buffer = new PieceBuffer(write);
  if (!isPlainObject(value)) {
    buffer.add(JSON.stringify(value, null, 2));
    buffer.flush();
    return;
  }
  const keys = Object.keys(value).filter((key) => !isWrittenAsNothing(value[key]));
  if (keys.length === 0) {
    buffer.add('{}');
  } else {
    buffer.add('{\n');
    keys.forEach((key, index) => {
      writeMember(key, value[key], buffer);
      buffer.add(index < keys.length - 1 ? ',\n' : '\n');
    });
    buffer.add('}');
  }
  buffer.flush();
}

/**
 * Writes one member of the top-level object, `  "key": value`, as JSON.stringify writes it there: stringified as
 * the only member of an object, so that every line has the indentation it has in the whole, then cut out. A long
 * array is written CHUNK_LENGTH elements at a time the same way.
 */
function writeMember(key: string, member: unknown, buffer: PieceBuffer): void {
  const name = JSON.stringify(key);
  if (!Array.isArray(member) || member.length <= CHUNK_LENGTH || 'toJSON' in member) {
    const text = JSON.stringify({ [key]: member }, null, 2);
    // '{\n' + the member + '\n}'
    buffer.add(text.slice(2, -2));
    return;
  }
  const head = `{\n  ${name}: [\n`;
  const tail = '\n  ]\n}';
  buffer.add(`  ${name}: [\n`);
  for (let start = 0; start < member.length; start += CHUNK_LENGTH) {
    const text = JSON.stringify({ [key]: member.slice(start, start + CHUNK_LENGTH) }, null, 2);
    if (start > 0) {
      buffer.add(',\n');
    }
    buffer.add(text.slice(head.length, -tail.length));
  }
  buffer.add('\n  ]');
}

/** The text of `JSON.stringify(value, null, 2)`, put together from the pieces (for tests and small reports). */
export function jsonInPieces(value: unknown): string {
  const pieces: string[] = [];
  writeJsonInPieces(value, (piece) => pieces.push(piece));
  return pieces.join('');
}

/** A text at least this long is written as it is, not copied into a piece first. */
const DIRECT_LENGTH = 64 * 1024;

/** Collects small strings and hands them on in pieces of about WRITE_PIECE_LENGTH characters. */
class PieceBuffer {
  private parts: string[] = [];
  private length = 0;

  constructor(private readonly write: (piece: string) => void) {}

  add(text: string): void {
    if (text.length >= DIRECT_LENGTH) {
      this.flush();
      this.write(text);
      return;
    }
    this.parts.push(text);
    this.length += text.length;
    if (this.length >= WRITE_PIECE_LENGTH) {
      this.flush();
    }
  }

  flush(): void {
    if (this.length > 0) {
      this.write(this.parts.join(''));
    }
    this.parts = [];
    this.length = 0;
  }
}

/** What JSON.stringify leaves out of an object and writes as null in an array. */
function isWrittenAsNothing(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** An object JSON.stringify writes member by member: no toJSON, and Object's prototype or none (not an array). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || 'toJSON' in value) {
    return false;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
