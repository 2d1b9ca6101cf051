/**
 * Reads a literal (|) or folded (>) block scalar for the fast parser, with clip or strip chomping, and yields its
 * value and range as yaml's resolveBlockScalar (compose/resolve-block-scalar.js in eemeli/yaml v2) does. The
 * folding follows the YAML 1.2 spec (https://yaml.org/spec/1.2.2/#813-folded-style): lines of the same
 * indentation join with a space, an empty line gives a line feed, more-indented lines keep theirs. Left to the
 * yaml package: keep chomping (+), an explicit indentation indicator, a comment on the header line, leading
 * empty lines, a scalar without content, and lines indented less than the first one but more than the parent.
 */
import { afterLine, BLANK_LINE } from './block-lines';
import type { BlockLines } from './block-lines';

/** A block scalar's value, style, range and the first line after it. */
export interface BlockScalar {
  readonly source: string;
  readonly type: 'BLOCK_LITERAL' | 'BLOCK_FOLDED';
  readonly range: [number, number, number];
  /** The first line after the scalar's last content line. */
  readonly nextLine: number;
}

/**
 * Reads the block scalar whose header starts at `at` on `line` (the header is the rest of that line), inside
 * a collection indented `parentIndent`; undefined outside the subset described above.
 */
export function readBlockScalar(
  lines: BlockLines,
  line: number,
  at: number,
  parentIndent: number,
): BlockScalar | undefined {
  const { text } = lines;
  const header = text.slice(at, lines.ends[line]).trimEnd();
  if (header !== '|' && header !== '>' && header !== '|-' && header !== '>-') {
    return undefined;
  }
  const folded = header[0] === '>';
  const strip = header.length === 2;
  const first = line + 1;
  if (first >= lines.count || lines.kinds[first] === BLANK_LINE) {
    return undefined;
  }
  const indent = lines.indents[first] ?? 0;
  if (indent <= parentIndent) {
    return undefined;
  }
  // The content lines: every following line indented at least `indent`, and blank lines between them.
  let last = first;
  let index = first + 1;
  while (index < lines.count) {
    const lineIndent = lines.indents[index] ?? 0;
    if (lines.kinds[index] === BLANK_LINE) {
      if (lineIndent > indent) {
        return undefined;
      }
      index++;
      continue;
    }
    if (lineIndent < indent) {
      if (lineIndent > parentIndent) {
        return undefined;
      }
      break;
    }
    last = index;
    index++;
  }
  let value = '';
  let separator = '';
  let previousMoreIndented = false;
  for (let current = first; current <= last; current++) {
    const start = lines.starts[current] ?? 0;
    const end = lines.ends[current] ?? 0;
    const isBlank = lines.kinds[current] === BLANK_LINE;
    const content = isBlank ? '' : text.slice(start + indent, end);
    if (!folded) {
      value += separator + content;
      separator = '\n';
    } else if (!isBlank && (lines.indents[current] ?? 0) > indent) {
      // A more-indented line keeps its line breaks, before and after.
      if (separator === ' ') {
        separator = '\n';
      } else if (!previousMoreIndented && separator === '\n') {
        separator = '\n\n';
      }
      value += separator + content;
      separator = '\n';
      previousMoreIndented = true;
    } else if (isBlank) {
      if (separator === '\n') {
        value += '\n';
      } else {
        separator = '\n';
      }
    } else {
      value += separator + content;
      separator = ' ';
      previousMoreIndented = false;
    }
  }
  const end = afterLine(lines, last);
  const endsWithNewline = end > (lines.ends[last] ?? 0);
  if (!strip && endsWithNewline) {
    value += '\n';
  }
  return {
    source: value,
    type: folded ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL',
    range: [at, end, end],
    nextLine: last + 1,
  };
}
