/**
 * Splits a YAML stream into the text of its documents, at "---" marker lines, without parsing it.
 *
 * YAML forbids a "---" or "..." at the start of a line inside any scalar (c-forbidden in the 1.2 spec), so a
 * marker line always starts a new document; splitting there first lets each document be parsed, validated and
 * cached on its own, which keeps re-analysis after a keystroke proportional to the edited document.
 */

/** One document's slice of the file. */
export interface DocumentSlice {
  /** Offset of the slice in the file. */
  readonly start: number;
  /** The text of the slice, including its "---" line. */
  readonly text: string;
}

const MARKER_PATTERN = /^---(?=[ \t\r\n]|$)/;

/** Splits a text at the start of every "---" marker line. */
export function splitDocuments(text: string): DocumentSlice[] {
  const slices: DocumentSlice[] = [];
  let sliceStart = 0;
  let lineStart = 0;
  while (lineStart <= text.length) {
    if (
      lineStart > sliceStart &&
      text.startsWith('---', lineStart) &&
      MARKER_PATTERN.test(text.slice(lineStart, lineStart + 4))
    ) {
      slices.push({ start: sliceStart, text: text.slice(sliceStart, lineStart) });
      sliceStart = lineStart;
    }
    const newline = text.indexOf('\n', lineStart);
    if (newline === -1) {
      break;
    }
    lineStart = newline + 1;
  }
  slices.push({ start: sliceStart, text: text.slice(sliceStart) });
  return slices;
}
