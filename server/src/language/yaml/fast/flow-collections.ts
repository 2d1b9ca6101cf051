/**
 * The flow forms manifests use on one line, `command: ["sh", "-c", "echo hi"]` and
 * `labels: {app: web, tier: front}`, built as yaml's resolveFlowCollection (compose/resolve-flow-collection.js
 * in eemeli/yaml v2) builds them: the collection's range runs from its opening bracket to just past the closing
 * one and then to the end of the line; a key's range ends with its text, a value's or item's at the "," or
 * closing bracket after it (spaces before it included). Left to the package: nested flow collections, empty
 * items or values and trailing commas, plain scalars with spaces or flow indicators, a ":" not followed by a
 * space, keys without values, sequence items that are pairs, comments, and anything spanning lines.
 */
import { Pair, YAMLMap, YAMLSeq } from 'yaml';
import type { ParsedNode, Scalar } from 'yaml';
import { afterLine } from './block-lines';
import type { BlockLines } from './block-lines';
import { canStartPlain, readLineRest, readQuoted } from './inline-scalars';
import { makeScalar } from './scalar-nodes';
import type { ScalarContext } from './scalar-nodes';

// A plain flow scalar here: no spaces, no flow indicators, no ":" or "#", so that it is neither a pair nor
// holds a comment.
const PLAIN_FLOW = /^[^\s,[\]{}:#"']+/;

interface FlowScalar {
  readonly node: Scalar;
  readonly start: number;
  /** Offset just past the scalar's text. */
  readonly valueEnd: number;
}

/** The flow sequence opening at `at` on `line`, or undefined outside the subset described above. */
export function readFlowSequence(
  lines: BlockLines,
  scalars: ScalarContext,
  line: number,
  at: number,
): YAMLSeq<ParsedNode> | undefined {
  const { text } = lines;
  const end = lines.ends[line] ?? 0;
  const seq = new YAMLSeq<ParsedNode>(scalars.schema);
  let position = skipSpaces(text, at + 1, end);
  for (;;) {
    const item = readFlowScalar(text, scalars, position, end, false);
    if (item === undefined) {
      return undefined;
    }
    position = skipSpaces(text, item.valueEnd, end);
    item.node.range = [item.start, item.valueEnd, position];
    seq.items.push(item.node as ParsedNode);
    const next = nextItem(text, position, end, ']');
    if (next === undefined) {
      return undefined;
    }
    if (next.isClosed) {
      return closeFlow(lines, seq, line, at, next.position);
    }
    position = next.position;
  }
}

/** The flow mapping opening at `at` on `line`, or undefined outside the subset described above. */
export function readFlowMapping(
  lines: BlockLines,
  scalars: ScalarContext,
  line: number,
  at: number,
): YAMLMap<ParsedNode, ParsedNode> | undefined {
  const { text } = lines;
  const end = lines.ends[line] ?? 0;
  const map = new YAMLMap<ParsedNode, ParsedNode>(scalars.schema);
  let position = skipSpaces(text, at + 1, end);
  for (;;) {
    const key = readFlowScalar(text, scalars, position, end, true);
    if (key === undefined || text[key.valueEnd] !== ':' || text[key.valueEnd + 1] !== ' ') {
      return undefined;
    }
    const value = readFlowScalar(text, scalars, skipSpaces(text, key.valueEnd + 1, end), end, false);
    if (value === undefined) {
      return undefined;
    }
    position = skipSpaces(text, value.valueEnd, end);
    value.node.range = [value.start, value.valueEnd, position];
    map.items.push(new Pair<ParsedNode, ParsedNode>(key.node as ParsedNode, value.node as ParsedNode));
    const next = nextItem(text, position, end, '}');
    if (next === undefined) {
      return undefined;
    }
    if (next.isClosed) {
      return closeFlow(lines, map, line, at, next.position);
    }
    position = next.position;
  }
}

/** After an item: the closing bracket, or a "," and the start of the next item (not a closing bracket). */
function nextItem(
  text: string,
  position: number,
  end: number,
  closing: string,
): { isClosed: boolean; position: number } | undefined {
  if (text[position] === closing) {
    return { isClosed: true, position };
  }
  if (text[position] !== ',') {
    return undefined;
  }
  const next = skipSpaces(text, position + 1, end);
  return next >= end || text[next] === closing ? undefined : { isClosed: false, position: next };
}

function closeFlow<T extends YAMLSeq<ParsedNode> | YAMLMap<ParsedNode, ParsedNode>>(
  lines: BlockLines,
  collection: T,
  line: number,
  at: number,
  closing: number,
): T | undefined {
  if (readLineRest(lines.text, closing + 1, lines.ends[line] ?? 0) !== '') {
    return undefined;
  }
  collection.flow = true;
  collection.range = [at, closing + 1, afterLine(lines, line)];
  return collection;
}

/** A quoted or plain scalar at `at`; its range ends with its text (callers stretch it over spaces). */
function readFlowScalar(
  text: string,
  scalars: ScalarContext,
  at: number,
  end: number,
  atKey: boolean,
): FlowScalar | undefined {
  const first = text[at];
  if (first === '"' || first === "'") {
    const quoted = readQuoted(text, at, end);
    return quoted === undefined
      ? undefined
      : {
          node: makeScalar(
            scalars,
            quoted.source,
            quoted.type,
            [at, quoted.valueEnd, quoted.valueEnd],
            atKey,
          ),
          start: at,
          valueEnd: quoted.valueEnd,
        };
  }
  const plain = PLAIN_FLOW.exec(text.slice(at, end))?.[0];
  // "-", "?" and ":" start a plain scalar only when a plain character follows (ns-plain-safe-in).
  if (plain === undefined || !canStartPlain(text, at, end) || (plain.length === 1 && '-?:'.includes(plain))) {
    return undefined;
  }
  const valueEnd = at + plain.length;
  return { node: makeScalar(scalars, plain, 'PLAIN', [at, valueEnd, valueEnd], atKey), start: at, valueEnd };
}

function skipSpaces(text: string, at: number, end: number): number {
  let position = at;
  while (position < end && text.charCodeAt(position) === 32) {
    position++;
  }
  return position;
}
