/**
 * A fast parse of one document slice into the very Document that yaml's parseAllDocuments gives (same classes,
 * ranges, scalar types and values, comments and blank-line marks), for the block YAML real manifests are
 * written in; undefined for anything else, which the caller then parses with the yaml package. The document
 * level follows yaml's composer (compose/composer.js, compose/compose-doc.js): the comment before a "---"
 * marker is the document's; without a marker it goes to the first key unless a blank line follows it; the lines
 * after the content give the document's closing comment and the end of its range. Left to the package:
 * directives, "..." markers, a document that is a scalar or empty, content on the marker's line, and more than
 * one document.
 */
import { Composer, Document } from 'yaml';
import type { DocumentOptions, ParsedNode, ParseOptions, SchemaOptions } from 'yaml';
import { parseCollection } from './block-collections';
import { isTrailingGap, readDocumentEnd, readGap, readPrelude } from './block-gaps';
import { BLANK_LINE, COMMENT_LINE, CONTENT_LINE, nextContentLine, scanBlockLines } from './block-lines';
import type { BlockLines } from './block-lines';
import type { ScalarContext } from './scalar-nodes';

/** The options the analyzer parses with (those of parseAllDocuments). */
export type FastParseOptions = ParseOptions & DocumentOptions & SchemaOptions;

/** Parses `text` as one block document, or answers undefined when it is outside the fast path's subset. */
export function parseFastDocument(
  text: string,
  options: FastParseOptions,
): Document.Parsed<ParsedNode> | undefined {
  const lines = scanBlockLines(text);
  if (lines === undefined) {
    return undefined;
  }
  // The lines before the content: blank lines and comments at column 0, and at most one "---" marker line.
  let marker = -1;
  let line = 0;
  for (; line < lines.count; line++) {
    const kind = lines.kinds[line];
    if (kind === BLANK_LINE || (kind === COMMENT_LINE && lines.indents[line] === 0)) {
      continue;
    }
    if (marker === -1 && isMarkerLine(lines, line)) {
      marker = line;
      continue;
    }
    break;
  }
  const first = line;
  if (
    first >= lines.count ||
    lines.kinds[first] !== CONTENT_LINE ||
    lines.indents[first] !== 0 ||
    startsWithMarker(lines, first)
  ) {
    return undefined;
  }
  const gap = marker === -1 ? undefined : readGap(lines, marker + 1, first, 0);
  if (marker !== -1 && (gap === undefined || !isTrailingGap(lines, 0, marker))) {
    return undefined;
  }
  // The composer's stream directives, as parseAllDocuments hands them to each of its documents.
  const { directives } = new Composer(options).streamInfo();
  const document = new Document(undefined, { _directives: directives, ...options });
  const scalars: ScalarContext = { schema: document.schema, options: document.options, failed: false };
  const root = parseCollection({ lines, scalars }, first);
  if (root === undefined || scalars.failed) {
    return undefined;
  }
  const afterContent = nextContentLine(lines, root.nextLine);
  if (afterContent < lines.count || !isTrailingGap(lines, root.nextLine, lines.count)) {
    return undefined;
  }
  const contents = root.node;
  if (gap !== undefined) {
    if (gap.spaceBefore) {
      contents.spaceBefore = true;
    }
    if (gap.comment !== '') {
      contents.commentBefore = gap.comment;
    }
  }
  const parsed = document as unknown as Document.Parsed<ParsedNode>;
  parsed.contents = contents;
  const prelude = readPrelude(lines, 0, marker === -1 ? first : marker);
  if (marker !== -1) {
    parsed.directives.docStart = true;
    if (prelude.comment !== '') {
      parsed.commentBefore = prelude.comment;
    }
  } else if (prelude.comment !== '') {
    attachPreludeComment(parsed, contents, prelude.comment, prelude.afterEmptyLine);
  }
  const closing = readDocumentEnd(lines, root.nextLine, lines.count);
  if (closing !== '') {
    parsed.comment = closing;
  }
  const start = lines.starts[marker === -1 ? first : marker] ?? 0;
  parsed.range = [start, contents.range[2], text.length];
  return parsed;
}

/** Where yaml's composer puts a comment before a document that has no "---" marker (Composer.decorate). */
function attachPreludeComment(
  document: Document.Parsed<ParsedNode>,
  contents: ParsedNode,
  comment: string,
  afterEmptyLine: boolean,
): void {
  if (afterEmptyLine) {
    document.commentBefore = comment;
    return;
  }
  const item = 'items' in contents ? contents.items[0] : undefined;
  const target = item === undefined ? contents : 'key' in item ? item.key : item;
  target.commentBefore = target.commentBefore ? `${comment}\n${target.commentBefore}` : comment;
}

/** "---" alone on its line (trailing spaces allowed). */
function isMarkerLine(lines: BlockLines, line: number): boolean {
  const start = lines.starts[line] ?? 0;
  return (
    lines.text.startsWith('---', start) &&
    lines.text.slice((lines.starts[line] ?? 0) + 3, lines.ends[line]).trim() === ''
  );
}

function startsWithMarker(lines: BlockLines, line: number): boolean {
  const head = lines.text.slice(lines.starts[line] ?? 0, (lines.starts[line] ?? 0) + 3);
  return head === '---' || head === '...' || head[0] === '%';
}
