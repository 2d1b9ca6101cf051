/**
 * The blank and comment lines between nodes, read as yaml's composer reads them so that the fast parser's
 * comments and blank-line marks are the package's: before a node (resolveProps in compose/resolve-props.js:
 * spaceBefore and commentBefore), before the document (parsePrelude in compose/composer.js) and after it
 * (resolveEnd in compose/resolve-end.js). The fast parser accepts a comment line only at the indentation of the
 * content that follows it, where the package attaches it to that content; other placements go to the package.
 */
import { BLANK_LINE, COMMENT_LINE } from './block-lines';
import type { BlockLines } from './block-lines';

/** What the lines before a node give it: a blank-line mark and a comment. */
export interface GapProps {
  readonly spaceBefore: boolean;
  readonly comment: string;
}

/** No blank line and no comment. */
export const NO_GAP: GapProps = { spaceBefore: false, comment: '' };

/**
 * The props of lines [from, to) before a node at `indent`; undefined when a comment line there is indented
 * otherwise (yaml may then attach it to an enclosing collection instead).
 */
export function readGap(lines: BlockLines, from: number, to: number, indent: number): GapProps | undefined {
  if (from === to) {
    return NO_GAP;
  }
  let spaceBefore = false;
  let comment = '';
  for (let line = from; line < to; line++) {
    if (lines.kinds[line] === COMMENT_LINE) {
      if (lines.indents[line] !== indent) {
        return undefined;
      }
      // Comment lines join with the previous one's line break ("\n" or "\r\n"); a blank line adds its own.
      const text = commentText(lines, line);
      comment = comment === '' ? text : comment + newlineOf(lines, line - 1) + text;
    } else if (comment !== '') {
      comment += newlineOf(lines, line);
    } else {
      spaceBefore = true;
    }
  }
  return { spaceBefore, comment };
}

/**
 * The comment of lines [from, to) before a document without a "---" marker, and whether a blank line follows the
 * last comment (the composer then keeps the comment on the document rather than on its first node).
 */
export function readPrelude(
  lines: BlockLines,
  from: number,
  to: number,
): { comment: string; afterEmptyLine: boolean } {
  let comment = '';
  let afterEmptyLine = false;
  for (let line = from; line < to; line++) {
    if (lines.kinds[line] === COMMENT_LINE) {
      comment += (comment === '' ? '' : afterEmptyLine ? '\n\n' : '\n') + commentText(lines, line);
      afterEmptyLine = false;
    } else if (hasNewline(lines, line)) {
      afterEmptyLine = true;
    }
  }
  return { comment, afterEmptyLine };
}

/** The comment of lines [from, to) after a document's content (every one blank or a comment). */
export function readDocumentEnd(lines: BlockLines, from: number, to: number): string {
  let comment = '';
  let separator = '';
  for (let line = from; line < to; line++) {
    if (lines.kinds[line] === COMMENT_LINE) {
      comment = comment === '' ? commentText(lines, line) : comment + separator + commentText(lines, line);
      separator = newlineOf(lines, line);
    } else if (comment !== '') {
      separator += newlineOf(lines, line);
    }
  }
  return comment;
}

/**
 * Comment lines right after a collection that is ending, at the collection's own column and with no blank line
 * among them: yaml's block map and sequence keep them as the collection's comment and stretch its range over
 * them (an item of only comments, in resolveBlockMap and resolveBlockSeq). Undefined when [from, to) is not
 * exactly such lines.
 */
export function readTrailingComments(
  lines: BlockLines,
  from: number,
  to: number,
  column: number,
): { comment: string; end: number } | undefined {
  if (from === to || column === 0) {
    return undefined;
  }
  let comment = '';
  for (let line = from; line < to; line++) {
    if (lines.kinds[line] !== COMMENT_LINE || lines.indents[line] !== column) {
      return undefined;
    }
    const text = commentText(lines, line);
    comment = line === from ? text : comment + newlineOf(lines, line - 1) + text;
  }
  // The comments' item ends where the next content starts, past that line's indentation.
  const end = to < lines.count ? (lines.starts[to] ?? 0) + (lines.indents[to] ?? 0) : lines.text.length;
  return { comment, end };
}

/** Whether every line of [from, to) is blank or a comment at column 0. */
export function isTrailingGap(lines: BlockLines, from: number, to: number): boolean {
  for (let line = from; line < to; line++) {
    const kind = lines.kinds[line];
    if (kind !== BLANK_LINE && !(kind === COMMENT_LINE && lines.indents[line] === 0)) {
      return false;
    }
  }
  return true;
}

function commentText(lines: BlockLines, line: number): string {
  const start = (lines.starts[line] ?? 0) + (lines.indents[line] ?? 0) + 1;
  return lines.text.slice(start, lines.ends[line]) || ' ';
}

/** The line break ending a line as written: "\n", "\r\n", or "" for a last line without one. */
function newlineOf(lines: BlockLines, line: number): string {
  return lines.text.slice(lines.ends[line], lines.starts[line + 1] ?? lines.text.length);
}

function hasNewline(lines: BlockLines, line: number): boolean {
  return (lines.ends[line] ?? 0) < lines.text.length;
}
