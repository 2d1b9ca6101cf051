/**
 * Reads the structure of block YAML from indentation alone, for completion while the user types: the line being
 * edited is often not valid YAML yet (`  rep` inside spec, `- ` starting a new list item), so the parsed nodes
 * cannot say where the cursor is. Lines are read one at a time around the cursor, never the whole file. Flow
 * collections ({…}, […]) spanning lines are not understood; block scalars are skipped by their indentation.
 */

/** One structural element of a line: a list item dash, a mapping key, or a plain value. */
export interface LineElement {
  readonly column: number;
  readonly kind: 'dash' | 'key' | 'scalar';
  /** The key, unquoted (for 'key'). */
  readonly key?: string;
  /** The text after the colon without its comment, trimmed (for 'key'). */
  readonly value?: string;
}

/** A line of the text. */
export interface LineSpan {
  readonly start: number;
  /** Offset of the line end, before "\r\n" or "\n". */
  readonly end: number;
}

/** The range of lines the structure is read in: one document. */
export interface TextBounds {
  readonly text: string;
  /** Offset of the first line of the document. */
  readonly start: number;
  /** Offset just past the document. */
  readonly end: number;
}

const KEY_PATTERN =
  /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#'"{}[\],&*!|>%@`](?:[^#]*?[^\s#])?))[ \t]*:(?=[ \t]|$)/;
const DOCUMENT_MARKER = /^(?:---|\.\.\.)(?=[ \t]|$)/;
const MAX_LEVELS = 256;

/** Splits the part of a line before `limit` (default: its end) into its elements. */
export function lineElements(text: string, line: LineSpan, limit = line.end): LineElement[] {
  const content = text.slice(line.start, Math.min(limit, line.end));
  const elements: LineElement[] = [];
  let index = skipSpaces(content, 0);
  if (
    index >= content.length ||
    content[index] === '#' ||
    DOCUMENT_MARKER.test(content) ||
    content[0] === '%'
  ) {
    return elements;
  }
  while (content[index] === '-' && (index + 1 === content.length || content[index + 1] === ' ')) {
    elements.push({ column: index, kind: 'dash' });
    index = skipSpaces(content, index + 1);
  }
  if (index >= content.length || content[index] === '#') {
    return elements;
  }
  const match = KEY_PATTERN.exec(content.slice(index));
  if (match === null) {
    elements.push({ column: index, kind: 'scalar' });
    return elements;
  }
  const key = match[1] ?? match[2]?.replace(/''/g, "'") ?? match[3] ?? '';
  const rest = content.slice(index + match[0].length);
  const comment = rest.search(/(?:^|[ \t])#/);
  elements.push({
    column: index,
    kind: 'key',
    key,
    value: (comment === -1 ? rest : rest.slice(0, comment)).trim(),
  });
  return elements;
}

/** Whether a line is a document marker ("---" or "..."), where the structure of a document ends. */
function isDocumentMarker(text: string, line: LineSpan): boolean {
  return DOCUMENT_MARKER.test(text.slice(line.start, line.end));
}

/** The line containing an offset. */
export function lineAt(text: string, offset: number): LineSpan {
  // lastIndexOf treats a negative position as 0: at offset 0 it would find a "\n" there and start the line
  // after it, and previousLine would return that line forever.
  const start = offset <= 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
  const newline = text.indexOf('\n', offset);
  const end = newline === -1 ? text.length : newline;
  return { start, end: end > start && text[end - 1] === '\r' ? end - 1 : end };
}

/** The line before a line, inside the bounds. */
export function previousLine(bounds: TextBounds, line: LineSpan): LineSpan | undefined {
  return line.start <= bounds.start ? undefined : lineAt(bounds.text, line.start - 1);
}

/** The line after a line, inside the bounds. */
export function nextLine(bounds: TextBounds, line: LineSpan): LineSpan | undefined {
  const newline = bounds.text.indexOf('\n', line.end);
  return newline === -1 || newline + 1 >= bounds.end ? undefined : lineAt(bounds.text, newline + 1);
}

/**
 * The path of the node that holds an element: for a key at `column`, the mapping it belongs to; for a dash at
 * `column`, the list item it starts (the path then ends with the item's index). Undefined when the indentation
 * does not make a valid block structure (a key under a key that already has a value, a plain value above).
 */
export function containerPath(
  bounds: TextBounds,
  line: LineSpan,
  column: number,
  role: 'key' | 'dash',
  elementsOfLine: readonly LineElement[] = lineElements(bounds.text, line),
): (string | number)[] | undefined {
  const path: (string | number)[] = [];
  let current = { line, column, role, elements: elementsOfLine };
  for (let level = 0; level < MAX_LEVELS; level++) {
    let items = 0;
    let parent: { line: LineSpan; element: LineElement; elements: LineElement[] } | undefined;
    const sameLine = current.elements.filter((element) => element.column < current.column).at(-1);
    if (sameLine !== undefined) {
      parent = { line: current.line, element: sameLine, elements: [...current.elements] };
    }
    for (let above = previousLine(bounds, current.line); parent === undefined && above !== undefined;) {
      if (isDocumentMarker(bounds.text, above)) {
        break;
      }
      const elements = lineElements(bounds.text, above);
      const first = elements[0];
      if (first !== undefined && first.column <= current.column) {
        const aligned = elements.find((element) => element.column === current.column);
        const before = elements.filter((element) => element.column < current.column).at(-1);
        if (current.role === 'dash' && aligned?.kind === 'key') {
          parent = { line: above, element: aligned, elements }; // a compact list: `key:` then `- item` below it
        } else {
          items += current.role === 'dash' && aligned?.kind === 'dash' ? 1 : 0;
          if (before !== undefined) {
            parent = { line: above, element: before, elements };
          }
        }
      }
      above = previousLine(bounds, above);
    }
    if (current.role === 'dash') {
      path.unshift(items);
    }
    if (parent === undefined) {
      return path;
    }
    const element = parent.element;
    if (element.kind === 'scalar' || (element.kind === 'key' && !holdsBlock(element.value ?? ''))) {
      return undefined;
    }
    if (element.kind === 'key') {
      path.unshift(element.key ?? '');
    }
    current = {
      line: parent.line,
      column: element.column,
      role: element.kind === 'key' ? 'key' : 'dash',
      elements: parent.elements,
    };
  }
  return undefined;
}

/** Whether a key's inline value leaves room for a block below it (nothing, an anchor or a tag). */
function holdsBlock(value: string): boolean {
  return value === '' || /^(?:[&!][^\s]*\s*)+$/.test(value);
}

/** The keys (with their inline values) of the block mapping whose keys sit at `column` around a line. */
export function siblingKeys(bounds: TextBounds, line: LineSpan, column: number): Map<string, string> {
  const keys = new Map<string, string>();
  const visit = (candidate: LineSpan, isAbove: boolean): boolean => {
    if (isDocumentMarker(bounds.text, candidate)) {
      return false;
    }
    const elements = lineElements(bounds.text, candidate);
    const first = elements[0];
    if (first === undefined || first.column > column) {
      return true;
    }
    const aligned = elements.find((element) => element.column === column);
    const startsHere = elements.some((element) => element.column < column);
    if (aligned === undefined || (startsHere && !isAbove)) {
      return false;
    }
    if (aligned.kind === 'key' && aligned.key !== undefined) {
      keys.set(aligned.key, aligned.value ?? '');
    }
    return !startsHere;
  };
  const ownElements = lineElements(bounds.text, line);
  if (ownElements.some((element) => element.column < column)) {
    // The mapping starts on this line (`- name: x`): nothing above belongs to it.
  } else {
    for (let above = previousLine(bounds, line); above !== undefined && visit(above, true);) {
      above = previousLine(bounds, above);
    }
  }
  for (let below = nextLine(bounds, line); below !== undefined && visit(below, false);) {
    below = nextLine(bounds, below);
  }
  return keys;
}

function skipSpaces(text: string, index: number): number {
  let position = index;
  while (text[position] === ' ') {
    position++;
  }
  return position;
}
