/**
 * JSON text written in pieces, byte for byte what `JSON.stringify(value, null, 2)` writes. The JSON report of a
 * 150,000-pod capture is 176 MB: built as one string it was held twice at once (the stringifier's parts, then the
 * flat copy a write makes of them), past the 1.5 GB the largest cluster is allowed. Here the top levels of
 * objects and arrays are walked and each element deeper down is stringified on its own, so only one piece and
 * one buffer of about WRITE_PIECE_LENGTH characters are held at a time.
 */
import { WRITE_PIECE_LENGTH } from '../io';

/** How many levels of objects and arrays are walked before the rest of a value is stringified whole. */
const WALKED_LEVELS = 3;

/** The indentation of JSON.stringify(value, null, 2). */
const STEP = '  ';

/**
 * Writes `value` as `JSON.stringify(value, null, 2)` would, to `write` in pieces of about WRITE_PIECE_LENGTH
 * characters (the last may be shorter). Nothing is written for a value JSON.stringify writes as undefined.
 */
export function writeJsonInPieces(value: unknown, write: (piece: string) => void): void {
  const buffer = new PieceBuffer(write);
  if (isWrittenAsNothing(value)) {
    return;
  }
  writeValue(value, '', 0, buffer);
  buffer.flush();
}

/** The text of `JSON.stringify(value, null, 2)`, put together from the pieces (for tests and small reports). */
export function jsonInPieces(value: unknown): string {
  const pieces: string[] = [];
  writeJsonInPieces(value, (piece) => pieces.push(piece));
  return pieces.join('');
}

/** Collects small strings and hands them on in pieces of about WRITE_PIECE_LENGTH characters. */
class PieceBuffer {
  private parts: string[] = [];
  private length = 0;

  constructor(private readonly write: (piece: string) => void) {}

  add(text: string): void {
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

/**
 * Whether the value is walked here: a plain array, or an object without toJSON whose prototype is Object's or
 * null. Anything else (dates, boxed values, class instances) is left to JSON.stringify whole.
 */
function isWalked(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) {
    return true;
  }
  if (value === null || typeof value !== 'object' || 'toJSON' in value) {
    return false;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function writeValue(value: unknown, indent: string, level: number, buffer: PieceBuffer): void {
  if (level >= WALKED_LEVELS || !isWalked(value)) {
    // Line breaks in JSON text are only its layout (a string's are escaped): each gains this level's indentation.
    const text = JSON.stringify(value, null, 2);
    buffer.add(indent === '' ? text : text.replaceAll('\n', `\n${indent}`));
    return;
  }
  const inner = indent + STEP;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      buffer.add('[]');
      return;
    }
    buffer.add('[\n');
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      buffer.add(inner);
      if (isWrittenAsNothing(item)) {
        buffer.add('null');
      } else {
        writeValue(item, inner, level + 1, buffer);
      }
      buffer.add(index < value.length - 1 ? ',\n' : '\n');
    }
    buffer.add(`${indent}]`);
    return;
  }
  const keys = Object.keys(value).filter((key) => !isWrittenAsNothing(value[key]));
  if (keys.length === 0) {
    buffer.add('{}');
    return;
  }
  buffer.add('{\n');
  keys.forEach((key, index) => {
    buffer.add(`${inner}${JSON.stringify(key)}: `);
    writeValue(value[key], inner, level + 1, buffer);
    buffer.add(index < keys.length - 1 ? ',\n' : '\n');
  });
  buffer.add(`${indent}}`);
}
