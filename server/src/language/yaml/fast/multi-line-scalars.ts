/**
 * Plain and single-quoted scalars that go on over the lines after their first, for the fast parser: what go-yaml
 * writes for a long string (kustomize's output and generated CRDs fold descriptions at 80 columns), so every large
 * CRD that came through kyaml used to take the yaml package's slow path. The value is folded as YAML 1.2 folds a flow
 * scalar (s-flow-folded: a line break between two lines becomes a space, each empty line a newline; leading and
 * trailing white space of the inner lines goes), then '' is one quote, as yaml's resolve-flow-scalar.ts does.
 * Every line after the first must be blank or indented more than the collection holding the value; anything
 * else answers undefined and the slice goes to the package.
 * https://yaml.org/spec/1.2.2/#73-flow-scalar-styles
 */
import type { BlockLines } from './block-lines';
import { BLANK_LINE, CONTENT_LINE } from './block-lines';

/** The scalar's value, where its text ends (past its closing quote or last character), and the line it ends on. */
export interface MultiLineScalar {
  readonly source: string;
  readonly valueEnd: number;
  readonly closeLine: number;
}

/**
 * Reads a single-quoted scalar starting at `at` on `line` whose closing quote is on a later line, in a collection
 * at `column`; undefined when it closes on its own line, never closes, or a line in it is not indented enough.
 */
export function readMultiLineSingleQuoted(
  lines: BlockLines,
  line: number,
  at: number,
  column: number,
): MultiLineScalar | undefined {
  const { text } = lines;
  let position = at + 1;
  for (let current = line; current < lines.count; current++) {
    if (current > line) {
      if (lines.kinds[current] !== BLANK_LINE && (lines.indents[current] ?? 0) <= column) {
        return undefined;
      }
      position = lines.starts[current] ?? 0;
    }
    const end = lines.ends[current] ?? 0;
    const close = closingQuote(text, position, end);
    if (close !== -1) {
      return current === line
        ? undefined
        : {
            source: fold(text.slice(at + 1, close)).replace(/''/g, "'"),
            valueEnd: close + 1,
            closeLine: current,
          };
    }
  }
  return undefined;
}

/** The offset of the quote in [from, end) that closes the scalar (not half of a doubled ''), or -1. */
function closingQuote(text: string, from: number, end: number): number {
  let position = from;
  while (position < end) {
    const quote = text.indexOf("'", position);
    if (quote === -1 || quote >= end) {
      return -1;
    }
    if (quote + 1 < end && text[quote + 1] === "'") {
      position = quote + 2;
      continue;
    }
    return quote;
  }
  return -1;
}

/**
 * Continues a plain scalar whose first line ends at `valueEnd` on `line` (no comment after it) over the more
 * indented lines that follow it, as go-yaml writes a long unquoted string; undefined when no line continues it
 * (the caller keeps the one-line scalar) or when a line holds what would end it or be an error there (": ",
 * " #", a ":" at its end, a comment line before the end, a line not indented more than `column`). yaml's lexer
 * continues a plain scalar onto a line indented at least one more than its collection (lexer.ts continueScalar)
 * and folds the text from its first character to its last (plainValue, foldLines).
 */
export function readMultiLinePlain(
  lines: BlockLines,
  line: number,
  at: number,
  valueEnd: number,
  column: number,
): MultiLineScalar | undefined {
  const { text } = lines;
  let last = line;
  let lastEnd = valueEnd;
  for (let current = line + 1; current < lines.count; current++) {
    const kind = lines.kinds[current];
    if (kind === BLANK_LINE) {
      continue;
    }
    if ((lines.indents[current] ?? 0) <= column) {
      break;
    }
    if (kind !== CONTENT_LINE) {
      return undefined;
    }
    const start = (lines.starts[current] ?? 0) + (lines.indents[current] ?? 0);
    let end = lines.ends[current] ?? 0;
    while (end > start && text.charCodeAt(end - 1) === 32) {
      end--;
    }
    const content = text.slice(start, end);
    if (content.includes(': ') || content.includes(' #') || content.endsWith(':')) {
      return undefined;
    }
    last = current;
    lastEnd = end;
  }
  return last === line
    ? undefined
    : { source: fold(text.slice(at, lastEnd)), valueEnd: lastEnd, closeLine: last };
}

/**
 * Folds the text between the quotes: the first line keeps its leading white space, the last its trailing; the
 * inner lines lose both; one line break between non-empty lines is a space, and each empty line a newline.
 */
function fold(raw: string): string {
  const parts = raw.split(/\r?\n/);
  let folded = (parts[0] ?? '').replace(/[ \t]+$/, '');
  let separator = ' ';
  for (let index = 1; index < parts.length - 1; index++) {
    const content = (parts[index] ?? '').replace(/^[ \t]+|[ \t]+$/g, '');
    if (content === '') {
      if (separator === '\n') {
        folded += '\n';
      } else {
        separator = '\n';
      }
    } else {
      folded += separator + content;
      separator = ' ';
    }
  }
  return folded + separator + (parts[parts.length - 1] ?? '').replace(/^[ \t]+/, '');
}
