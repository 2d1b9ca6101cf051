/**
 * The line table the fast block parser walks: where each line starts and ends, its indentation, and whether it
 * is blank, a comment or content. Building it is one pass over the text; it refuses (returns undefined) any text
 * with a character the fast path does not model, so that such text goes to the yaml package instead: tabs
 * (indentation rules and TAB_AS_INDENT errors), a carriage return that does not end a line, a byte order mark,
 * C0/C1 controls, and the Unicode line and paragraph separators. A line ending in "\r\n" ends before the "\r",
 * as yaml's lexer reads it.
 */

/** What a line holds, for the parser's purposes: nothing but spaces, spaces then a "#" comment, or content. */
export type LineKind = typeof BLANK_LINE | typeof COMMENT_LINE | typeof CONTENT_LINE;
/** A line of nothing but spaces. */
export const BLANK_LINE = 0;
/** A line of spaces then a "#" comment. */
export const COMMENT_LINE = 1;
/** Any other line. */
export const CONTENT_LINE = 2;

/** The lines of one slice: parallel arrays indexed by line number. */
export interface BlockLines {
  readonly text: string;
  /** Offset of each line's first character. */
  readonly starts: number[];
  /** Offset of each line's end: its "\n", or the text's length for a last line without one. */
  readonly ends: number[];
  /** Number of leading spaces. */
  readonly indents: number[];
  readonly kinds: LineKind[];
  readonly count: number;
}

// Characters the fast path leaves to the yaml package; see the module comment.
const UNMODELLED_CHARACTER =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|\r(?!\n)/;

/** Splits `text` into its line table, or undefined when it holds a character the fast path does not model. */
export function scanBlockLines(text: string): BlockLines | undefined {
  if (UNMODELLED_CHARACTER.test(text)) {
    return undefined;
  }
  const starts: number[] = [];
  const ends: number[] = [];
  const indents: number[] = [];
  const kinds: LineKind[] = [];
  let start = 0;
  const length = text.length;
  while (start < length) {
    let next = text.indexOf('\n', start);
    if (next === -1) {
      next = length;
    }
    const end = next > start && text.charCodeAt(next - 1) === 13 ? next - 1 : next;
    let position = start;
    while (position < end && text.charCodeAt(position) === 32) {
      position++;
    }
    starts.push(start);
    ends.push(end);
    indents.push(position - start);
    kinds.push(
      position === end ? BLANK_LINE : text.charCodeAt(position) === 35 ? COMMENT_LINE : CONTENT_LINE,
    );
    start = next + 1;
  }
  return { text, starts, ends, indents, kinds, count: starts.length };
}

/** The offset just past a line's "\n" (or the text's end for a last line without one). */
export function afterLine(lines: BlockLines, line: number): number {
  return lines.starts[line + 1] ?? lines.text.length;
}

/** The first line at or after `line` that is content, or `lines.count` when there is none. */
export function nextContentLine(lines: BlockLines, line: number): number {
  let index = line;
  while (index < lines.count && lines.kinds[index] !== CONTENT_LINE) {
    index++;
  }
  return index;
}
