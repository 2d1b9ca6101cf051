/**
 * The fast parser's block mappings and sequences: it builds yaml's own YAMLMap, YAMLSeq, Pair and Scalar nodes
 * with the ranges yaml's composer gives them (resolveBlockMap and resolveBlockSeq in eemeli/yaml v2's compose/),
 * for the block subset manifests are written in: keys on one line, one-line scalars, literal and folded block
 * scalars, one-line flow collections of scalars, compact mappings in sequence items ("- name: x"), sequences at
 * their key's indentation, comments on a value's line or on their own line before a node. Every function answers
 * undefined for anything else (anchors, tags, nested flow, multi-line plain or quoted scalars, odd indentation,
 * anything yaml would report as an error), and the caller then parses the whole slice with the yaml package.
 */
import { Pair, YAMLMap, YAMLSeq } from 'yaml';
import type { ParsedNode, Scalar } from 'yaml';
import { afterLine, COMMENT_LINE, nextContentLine } from './block-lines';
import type { BlockLines } from './block-lines';
import { readGap, readTrailingComments } from './block-gaps';
import type { GapProps } from './block-gaps';
import { readBlockScalar } from './block-scalar';
import { readFlowMapping, readFlowSequence } from './flow-collections';
import { readKey, readLineRest, readValue } from './inline-scalars';
import { readMultiLinePlain, readMultiLineSingleQuoted } from './multi-line-scalars';
import { makeScalar } from './scalar-nodes';
import type { ScalarContext } from './scalar-nodes';

/** The state of one fast parse: the lines and what scalars need. */
export interface BlockParser {
  readonly lines: BlockLines;
  readonly scalars: ScalarContext;
}

/** A parsed node and the first line after it (gap lines after a node are left to whatever follows). */
export interface Parsed {
  readonly node: ParsedNode;
  readonly nextLine: number;
}

/** Parses the block collection whose first item is on content line `line`, at that line's indentation. */
export function parseCollection(parser: BlockParser, line: number): Parsed | undefined {
  const { lines } = parser;
  const column = lines.indents[line] ?? 0;
  const at = (lines.starts[line] ?? 0) + column;
  return isSeqItem(lines, line, at) ? parseSeq(parser, line, column) : parseMap(parser, line, column, at);
}

function isSeqItem(lines: BlockLines, line: number, at: number): boolean {
  const { text } = lines;
  return text[at] === '-' && (at + 1 === lines.ends[line] || text[at + 1] === ' ');
}

/** A block mapping whose items start at `column`; its first key is at offset `firstKey` on `line`. */
function parseMap(parser: BlockParser, first: number, column: number, firstKey: number): Parsed | undefined {
  const { lines, scalars } = parser;
  const { text } = lines;
  const map = new YAMLMap<ParsedNode, ParsedNode>(scalars.schema);
  let line = first;
  let keyAt = firstKey;
  let props: GapProps | undefined;
  let offset = firstKey;
  for (;;) {
    const end = lines.ends[line] ?? 0;
    const key = readKey(text, keyAt, end);
    if (key === undefined) {
      return undefined;
    }
    const keyNode = makeScalar(scalars, key.source, key.type, [keyAt, key.valueEnd, key.valueEnd], true);
    applyProps(keyNode, props);
    const value = parseValue(parser, line, key.colon + 1, column);
    if (value === undefined) {
      return undefined;
    }
    map.items.push(new Pair<ParsedNode, ParsedNode>(keyNode as ParsedNode, value.node));
    offset = value.node.range[2];
    const next = nextContentLine(lines, value.nextLine);
    if (next >= lines.count || (lines.indents[next] ?? 0) < column) {
      const trailing = readTrailingComments(lines, value.nextLine, next, column);
      if (trailing !== undefined) {
        map.comment = trailing.comment;
      }
      map.range = [firstKey, offset, trailing?.end ?? offset];
      return { node: map as ParsedNode, nextLine: trailing === undefined ? value.nextLine : next };
    }
    keyAt = (lines.starts[next] ?? 0) + column;
    if ((lines.indents[next] ?? 0) > column || isSeqItem(lines, next, keyAt)) {
      return undefined;
    }
    props = readGap(lines, value.nextLine, next, column);
    if (props === undefined) {
      return undefined;
    }
    line = next;
  }
}

/** A block sequence whose "-" indicators are at `column`. */
function parseSeq(parser: BlockParser, first: number, column: number): Parsed | undefined {
  const { lines, scalars } = parser;
  const seq = new YAMLSeq<ParsedNode>(scalars.schema);
  const start = (lines.starts[first] ?? 0) + column;
  let line = first;
  let props: GapProps | undefined;
  for (;;) {
    const dash = (lines.starts[line] ?? 0) + column;
    const item = parseValue(parser, line, dash + 1, column, true);
    if (item === undefined) {
      return undefined;
    }
    applyProps(item.node, props);
    seq.items.push(item.node);
    const next = nextContentLine(lines, item.nextLine);
    const nextAt = (lines.starts[next] ?? 0) + column;
    if (next >= lines.count || (lines.indents[next] ?? 0) < column || !isSeqItem(lines, next, nextAt)) {
      // A line at this column that is no item ends the sequence: it is the next key of the mapping the
      // sequence is the value of, or (checked there) an error.
      if (next < lines.count && (lines.indents[next] ?? 0) > column) {
        return undefined;
      }
      const end = item.node.range[2];
      const trailing = readTrailingComments(lines, item.nextLine, next, column);
      if (trailing !== undefined) {
        seq.comment = trailing.comment;
        seq.range = [start, end, trailing.end];
        return { node: seq as ParsedNode, nextLine: next };
      }
      // Other comment lines before a key at this column may belong to the sequence: left to the package.
      if ((lines.indents[next] ?? 0) === column && hasComment(lines, item.nextLine, next)) {
        return undefined;
      }
      seq.range = [start, end, end];
      return { node: seq as ParsedNode, nextLine: item.nextLine };
    }
    props = readGap(lines, item.nextLine, next, column);
    if (props === undefined) {
      return undefined;
    }
    line = next;
  }
}

/**
 * The value after a key's ":" or a sequence item's "-" (the indicator ends just before `from`) on `line`, in a
 * collection at `column`: an inline scalar, a block scalar, an empty flow collection, a nested collection on
 * the following lines, a compact mapping (sequence items only), or an empty (null) value.
 */
function parseValue(
  parser: BlockParser,
  line: number,
  from: number,
  column: number,
  isItem = false,
): Parsed | undefined {
  const { lines, scalars } = parser;
  const { text } = lines;
  const end = lines.ends[line] ?? 0;
  let at = from;
  while (at < end && text.charCodeAt(at) === 32) {
    at++;
  }
  if (at < end && at === from) {
    return undefined;
  }
  if (at === end) {
    return parseValueBelow(parser, line, at, column, isItem);
  }
  const first = text[at];
  if (first === '|' || first === '>') {
    const block = readBlockScalar(lines, line, at, column);
    return block === undefined
      ? undefined
      : {
          node: makeScalar(scalars, block.source, block.type, block.range, false) as ParsedNode,
          nextLine: block.nextLine,
        };
  }
  if ((first === '[' && text[at + 1] !== ']') || (first === '{' && text[at + 1] !== '}')) {
    const flow =
      first === '[' ? readFlowSequence(lines, scalars, line, at) : readFlowMapping(lines, scalars, line, at);
    return flow === undefined ? undefined : { node: flow as ParsedNode, nextLine: line + 1 };
  }
  if (first === '[' || first === '{') {
    return parseEmptyFlow(parser, line, at);
  }
  if (isItem) {
    if (first === '-' && (at + 1 === end || text[at + 1] === ' ')) {
      return undefined;
    }
    if (readKey(text, at, end) !== undefined) {
      return parseMap(parser, line, at - (lines.starts[line] ?? 0), at);
    }
  }
  const inline = readValue(text, at, end);
  const multiLine =
    inline === undefined
      ? first === "'"
        ? readMultiLineSingleQuoted(lines, line, at, column)
        : undefined
      : inline.type === 'PLAIN' && readLineRest(text, inline.valueEnd, end) === ''
        ? readMultiLinePlain(lines, line, at, inline.valueEnd, column)
        : undefined;
  const value =
    multiLine === undefined
      ? inline
      : { ...multiLine, type: inline === undefined ? ('QUOTE_SINGLE' as const) : inline.type };
  if (value === undefined) {
    return undefined;
  }
  const lastLine = multiLine?.closeLine ?? line;
  const comment = readLineRest(text, value.valueEnd, lines.ends[lastLine] ?? 0);
  const next = nextContentLine(lines, lastLine + 1);
  // A more-indented line after a scalar would continue it (plain) or be an error (quoted).
  if (comment === undefined || (next < lines.count && (lines.indents[next] ?? 0) > column)) {
    return undefined;
  }
  const scalar = makeScalar(
    scalars,
    value.source,
    value.type,
    [at, value.valueEnd, afterLine(lines, lastLine)],
    false,
  );
  if (comment !== '') {
    scalar.comment = comment;
  }
  return { node: scalar as ParsedNode, nextLine: lastLine + 1 };
}

/** A value starting on the line after its indicator, or an empty value when none does. */
function parseValueBelow(
  parser: BlockParser,
  line: number,
  at: number,
  column: number,
  isItem: boolean,
): Parsed | undefined {
  const { lines, scalars } = parser;
  const next = nextContentLine(lines, line + 1);
  const nextIndent = lines.indents[next] ?? 0;
  const isNested =
    next < lines.count &&
    (nextIndent > column ||
      (!isItem && nextIndent === column && isSeqItem(lines, next, (lines.starts[next] ?? 0) + column)));
  if (isNested) {
    // Blank and comment lines between a key and its nested collection give that collection its blank-line
    // mark and comment (yaml's value props); after a sequence item's "-" they are left to the package.
    const props =
      next === line + 1 ? undefined : isItem ? undefined : readGap(lines, line + 1, next, nextIndent);
    if (next !== line + 1 && props === undefined) {
      return undefined;
    }
    const nested = parseCollection(parser, next);
    if (nested !== undefined) {
      applyProps(nested.node, props);
    }
    return nested;
  }
  return { node: makeScalar(scalars, '', 'PLAIN', [at, at, at], false) as ParsedNode, nextLine: line + 1 };
}

/** "[]" or "{}" alone on the rest of the line. */
function parseEmptyFlow(parser: BlockParser, line: number, at: number): Parsed | undefined {
  const { lines, scalars } = parser;
  const { text } = lines;
  const pair = text.slice(at, at + 2);
  if ((pair !== '[]' && pair !== '{}') || readLineRest(text, at + 2, lines.ends[line] ?? 0) !== '') {
    return undefined;
  }
  const collection =
    pair === '[]' ? new YAMLSeq<ParsedNode>(scalars.schema) : new YAMLMap<ParsedNode>(scalars.schema);
  collection.flow = true;
  collection.range = [at, at + 2, afterLine(lines, line)];
  return { node: collection as ParsedNode, nextLine: line + 1 };
}

function hasComment(lines: BlockLines, from: number, to: number): boolean {
  for (let line = from; line < to; line++) {
    if (lines.kinds[line] === COMMENT_LINE) {
      return true;
    }
  }
  return false;
}

function applyProps(node: ParsedNode | Scalar, props: GapProps | undefined): void {
  if (props === undefined) {
    return;
  }
  if (props.spaceBefore) {
    node.spaceBefore = true;
  }
  if (props.comment !== '') {
    node.commentBefore = props.comment;
  }
}
