/**
 * The one flow form manifests use a lot, `command: ["sh", "-c", "echo hi"]`: a flow sequence of one-line
 * scalars closed on its own line, built as yaml's resolveFlowCollection (compose/resolve-flow-collection.js in
 * eemeli/yaml v2) builds it: the sequence's range runs from "[" to just past "]" and then to the end of the
 * line; an item's range ends at the "," or "]" after it. Left to the package: nested flow collections, pairs,
 * empty items and trailing commas, plain items with spaces or flow indicators, spaces before a comma or after a
 * plain item, comments, and anything spanning lines.
 */
import { YAMLSeq } from 'yaml';
import type { ParsedNode } from 'yaml';
import { afterLine } from './block-lines';
import type { BlockLines } from './block-lines';
import { canStartPlain, readLineRest, readQuoted } from './inline-scalars';
import { makeScalar } from './scalar-nodes';
import type { ScalarContext } from './scalar-nodes';

// A plain item: no spaces, no flow indicators, no ":" or "#", so that it cannot be a pair or hold a comment.
const PLAIN_ITEM = /^[^\s,[\]{}:#"']+/;

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
  let position = at + 1;
  for (;;) {
    while (text.charCodeAt(position) === 32 && position < end) {
      position++;
    }
    if (text[position] === ']' && seq.items.length === 0) {
      break;
    }
    const start = position;
    const first = text[position];
    let item: ReturnType<typeof makeScalar>;
    if (first === '"' || first === "'") {
      const quoted = readQuoted(text, position, end);
      if (quoted === undefined) {
        return undefined;
      }
      // Spaces after a quoted item belong to it when "]" follows.
      position = quoted.valueEnd;
      while (text.charCodeAt(position) === 32 && position < end) {
        position++;
      }
      if (position > quoted.valueEnd && text[position] !== ']') {
        return undefined;
      }
      item = makeScalar(scalars, quoted.source, quoted.type, [start, quoted.valueEnd, position], false);
    } else {
      const plain = PLAIN_ITEM.exec(text.slice(position, end))?.[0];
      // "-", "?" and ":" start a plain item only when a plain character follows (ns-plain-safe-in).
      if (
        plain === undefined ||
        !canStartPlain(text, position, end) ||
        (plain.length === 1 && '-?:'.includes(plain))
      ) {
        return undefined;
      }
      position += plain.length;
      item = makeScalar(scalars, plain, 'PLAIN', [start, position, position], false);
    }
    seq.items.push(item as ParsedNode);
    const delimiter = text[position];
    if (delimiter === ']') {
      break;
    }
    if (delimiter !== ',') {
      return undefined;
    }
    position++;
    while (text.charCodeAt(position) === 32 && position < end) {
      position++;
    }
    if (text[position] === ']') {
      return undefined;
    }
  }
  const close = position + 1;
  if (readLineRest(text, close, end) !== '') {
    return undefined;
  }
  seq.flow = true;
  seq.range = [at, close, afterLine(lines, line)];
  return seq;
}
