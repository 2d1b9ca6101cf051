/**
 * Converts between offsets and LSP line/character positions. The language layer works in offsets and converts
 * only when it builds LSP results. Characters are UTF-16 code units, as LSP's default position encoding.
 */

/** A zero-based line and character, as LSP positions are. */
interface LinePosition {
  line: number;
  character: number;
}

/**
 * Line start offsets of one text, built once per text version, on first use: a file read only as data (a capture
 * of 130 MB, too large for the editing analysis) never needs them, and indexing it cost seconds.
 */
export class LineIndex {
  private starts: number[] | undefined;

  /** Keeps the text; its line starts ("\n", "\r\n" and lone "\r" all end a line) are indexed when first asked. */
  constructor(private readonly text: string) {}

  /** The offsets where lines start, indexed on the first call. */
  private get lineStarts(): number[] {
    this.starts ??= indexLineStarts(this.text);
    return this.starts;
  }

  /** The number of lines. */
  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** The position of an offset (clamped to the text). */
  positionAt(offset: number): LinePosition {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const low = lastAtOrBefore(this.lineStarts, clamped);
    return { line: low, character: clamped - (this.lineStarts[low] ?? 0) };
  }

  /** The offset of a position (clamped to its line and to the text). */
  offsetAt(position: LinePosition): number {
    if (position.line >= this.lineStarts.length) {
      return this.text.length;
    }
    const lineStart = this.lineStarts[Math.max(0, position.line)] ?? 0;
    const nextLineStart = this.lineStarts[position.line + 1] ?? this.text.length;
    return Math.max(lineStart, Math.min(lineStart + position.character, nextLineStart));
  }
}

/** The offsets where the text's lines start. */
function indexLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10) {
      starts.push(i + 1);
    } else if (code === 13) {
      if (text.charCodeAt(i + 1) === 10) {
        i++;
      }
      starts.push(i + 1);
    }
  }
  return starts;
}

/**
 * The index of the last entry of an ascending list that is at or before `value` (0 when none is, or the list is
 * empty): the line of an offset among line starts, the object of an offset among object starts.
 */
export function lastAtOrBefore(ascending: readonly number[], value: number): number {
  let low = 0;
  let high = ascending.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((ascending[middle] ?? 0) <= value) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return low;
}
