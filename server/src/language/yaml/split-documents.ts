/**
 * Splits a YAML stream into the text of its documents, at "---" marker lines, without parsing it.
 *
 * YAML forbids a "---" or "..." at the start of a line inside any scalar (c-forbidden in the 1.2 spec), so a
 * marker line always starts a new document; splitting there first lets each document be parsed, validated and
 * cached on its own, which keeps re-analysis after a keystroke proportional to the edited document.
 *
 * Directives ("%YAML", "%TAG") belong to the document whose "---" follows them: they may stand only at the
 * start of the stream or after a "..." end marker (l-yaml-stream in the 1.2 spec), so the split is moved back
 * to just after that "..." line (or not made at the start of the stream), keeping them with their document.
 */

/** One document's slice of the file. */
interface DocumentSlice {
  /** Offset of the slice in the file. */
  readonly start: number;
  /** The text of the slice, including its "---" line. */
  readonly text: string;
}

const MARKER_PATTERN = /^---(?=[ \t\r\n]|$)/;
const END_MARKER_PATTERN = /^\.\.\.(?=[ \t\r\n]|$)/;
const BLANK_OR_COMMENT_PATTERN = /^[ \t]*(?:#.*)?\r?$/;

/** Splits a text at the start of every "---" marker line, keeping directives with their document. */
export function splitDocuments(text: string): DocumentSlice[] {
  const slices: DocumentSlice[] = [];
  let sliceStart = 0;
  let lineStart = 0;
  // Where the current run of directive, comment and blank lines began, when it began where directives may
  // stand (the start of the stream or just after "..."); undefined once other content is seen.
  let preludeStart: number | undefined = 0;
  let preludeHasDirective = false;
  // A line's text is read only when it may matter: it starts with "---", "..." or "%", or it is in a prelude (the
  // start of the stream, after "..."). Slicing every line of a 1,000-document file cost half the split.
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const isMarker =
      text.startsWith('---', lineStart) &&
      MARKER_PATTERN.test(text.slice(lineStart, Math.min(lineStart + 4, lineEnd)));
    if (isMarker && lineStart > sliceStart) {
      const splitAt = preludeStart !== undefined && preludeHasDirective ? preludeStart : lineStart;
      if (splitAt > sliceStart) {
        slices.push({ start: sliceStart, text: text.slice(sliceStart, splitAt) });
        sliceStart = splitAt;
      }
    }
    if (
      !isMarker &&
      text.startsWith('...', lineStart) &&
      END_MARKER_PATTERN.test(text.slice(lineStart, lineEnd))
    ) {
      preludeStart = newline === -1 ? text.length : newline + 1;
      preludeHasDirective = false;
    } else if (preludeStart !== undefined && text.startsWith('%', lineStart)) {
      preludeHasDirective = true;
    } else if (
      isMarker ||
      // Outside a prelude there is nothing to end (and no directive seen: it is only noted inside one).
      (preludeStart !== undefined && !BLANK_OR_COMMENT_PATTERN.test(text.slice(lineStart, lineEnd)))
    ) {
      preludeStart = undefined;
      preludeHasDirective = false;
    }
    if (newline === -1) {
      break;
    }
    lineStart = newline + 1;
  }
  slices.push({ start: sliceStart, text: text.slice(sliceStart) });
  return slices;
}
