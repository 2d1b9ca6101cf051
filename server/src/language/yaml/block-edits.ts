/**
 * Text edits that add to block-style YAML without reformatting anything else: an entry appended to a block
 * mapping, an item appended to a block sequence, a scalar replaced. Each keeps the indentation the user wrote
 * (the column of the existing entries). Flow style (`{a: 1}`, `[x]`) gets no edit: a quick fix that cannot keep the
 * user's layout is not offered.
 */
import { isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Node } from 'yaml';
import type { OffsetEdit } from '../../../../protocol/finding';

/** A block of YAML lines to insert, relative to the column of what it joins; nested lines indent by two. */
type YamlLines = readonly string[];

/** The column (0-based) of an offset in a text. */
function columnAt(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** Whether a node is a block mapping or sequence with at least one entry (where the column can be read). */
function isNonEmptyBlock(node: Node | null | undefined): boolean {
  return (isMap(node) || isSeq(node)) && node.flow !== true && node.items.length > 0;
}

/**
 * Where to insert after a collection's last entry, as an offset of `text`: the end of the line its value ends
 * on (after a trailing comment on that line, before the line break), skipping the blank lines a block
 * collection's range takes in.
 */
function insertionPoint(node: Node, text: string, offset: number): number | undefined {
  if (!isMap(node) && !isSeq(node)) {
    return undefined;
  }
  const last: unknown = node.items.at(-1);
  const value: unknown = isPair(last) ? (last.value ?? last.key) : last;
  const range = (value as { range?: [number, number, number] } | null)?.range;
  if (range === undefined) {
    return undefined;
  }
  let end = range[1] + offset;
  while (end > 0 && /\s/.test(text[end - 1] ?? '')) {
    end--;
  }
  const lineEnd = text.indexOf('\n', end);
  if (lineEnd === -1) {
    return text.length;
  }
  return text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
}

/** The line break the text uses (CRLF when it has any), so inserted lines match the rest. */
function lineBreakOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/**
 * Appends `key:` with the nested lines (or `key: scalar` when `lines` is a single scalar string) to a block
 * mapping. `offset` converts the node's ranges (document-relative) into offsets of `text`.
 */
export function appendMapEntry(
  map: Node | null | undefined,
  text: string,
  offset: number,
  key: string,
  value: YamlLines | string,
): OffsetEdit | undefined {
  if (!isMap(map) || !isNonEmptyBlock(map)) {
    return undefined;
  }
  const first = map.items[0];
  const firstKey = isPair(first) ? (first.key as { range?: [number, number, number] } | null) : null;
  const end = insertionPoint(map, text, offset);
  if (firstKey?.range === undefined || end === undefined) {
    return undefined;
  }
  const indent = ' '.repeat(columnAt(text, firstKey.range[0] + offset));
  const body = typeof value === 'string' ? ` ${value}` : value.map((line) => `\n${indent}  ${line}`).join('');
  return { start: end, end, newText: `\n${indent}${key}:${body}`.replace(/\n/g, lineBreakOf(text)) };
}

/** Appends an item (its lines; the first follows the dash) to a block sequence. */
export function appendSeqItem(
  seq: Node | null | undefined,
  text: string,
  offset: number,
  lines: YamlLines,
): OffsetEdit | undefined {
  if (!isSeq(seq) || !isNonEmptyBlock(seq) || seq.range === undefined || seq.range === null) {
    return undefined;
  }
  const end = insertionPoint(seq, text, offset);
  if (end === undefined) {
    return undefined;
  }
  const indent = ' '.repeat(columnAt(text, seq.range[0] + offset));
  const [head, ...rest] = lines;
  const newText = `\n${indent}- ${head ?? ''}` + rest.map((line) => `\n${indent}  ${line}`).join('');
  return { start: end, end, newText: newText.replace(/\n/g, lineBreakOf(text)) };
}

/** Replaces a scalar's text. */
export function replaceScalar(
  node: Node | null | undefined,
  offset: number,
  newText: string,
): OffsetEdit | undefined {
  if (!isScalar(node) || node.range === undefined || node.range === null) {
    return undefined;
  }
  return { start: node.range[0] + offset, end: node.range[1] + offset, newText };
}

/** A YAML scalar for a string: plain when that reads back as the same string, else double-quoted. */
export function yamlString(value: string): string {
  const plain =
    /^[A-Za-z0-9_./][A-Za-z0-9_./-]*$/.test(value) &&
    !/^(?:true|false|yes|no|on|off|y|n|null|~)$/i.test(value) &&
    !/^[-+]?(?:\d[\d_]*)?(?:\.\d*)?(?:e[-+]?\d+)?$/i.test(value) &&
    !/^0[xo]/i.test(value);
  return plain ? value : JSON.stringify(value);
}

/**
 * Removes `key` and its value from a block mapping: the whole lines from the key's line to the value's last line.
 * Undefined in flow style, when the key is absent or when another entry shares its lines. A map left with no
 * entry reads as null (`capabilities:`), which the API server takes as unset.
 */
export function removeMapEntry(
  map: Node | null | undefined,
  text: string,
  offset: number,
  key: string,
): OffsetEdit | undefined {
  if (!isMap(map) || !isNonEmptyBlock(map)) {
    return undefined;
  }
  const index = map.items.findIndex((pair) => isScalar(pair.key) && pair.key.value === key);
  const pair = map.items[index];
  const keyRange = (pair?.key as { range?: [number, number, number] } | null)?.range;
  const valueRange = ((pair?.value ?? pair?.key) as { range?: [number, number, number] } | null)?.range;
  if (keyRange === undefined || valueRange === undefined) {
    return undefined;
  }
  return text.slice(lineStartOf(text, keyRange[0] + offset), keyRange[0] + offset).trim() === ''
    ? removeLines(text, keyRange[0] + offset, valueRange[1] + offset)
    : undefined;
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/**
 * The edit removing the lines from `from` to `to` (the line break before them included, the one after kept), so
 * that an entry appended at the end of the last removed line, or of the line before, still lands in place.
 */
function removeLines(text: string, from: number, to: number): OffsetEdit | undefined {
  const lineStart = lineStartOf(text, from);
  if (lineStart === 0) {
    return undefined;
  }
  const start = lineStart - (text[lineStart - 2] === '\r' ? 2 : 1);
  let end = to;
  while (end > from && /\s/.test(text[end - 1] ?? '')) {
    end--;
  }
  const lineEnd = text.indexOf('\n', end);
  return {
    start,
    end: lineEnd === -1 ? text.length : text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd,
    newText: '',
  };
}

/**
 * Removes the item at `index` from a block sequence: the whole lines from its dash to its last line. Undefined in
 * flow style or when another item or key shares its lines.
 */
export function removeSeqItem(
  seq: Node | null | undefined,
  text: string,
  offset: number,
  index: number,
): OffsetEdit | undefined {
  if (!isSeq(seq) || !isNonEmptyBlock(seq)) {
    return undefined;
  }
  const range = (seq.items[index] as { range?: [number, number, number] } | null | undefined)?.range;
  if (range === undefined) {
    return undefined;
  }
  return text.slice(lineStartOf(text, range[0] + offset), range[0] + offset).trim() === '-'
    ? removeLines(text, range[0] + offset, range[1] + offset)
    : undefined;
}
