/**
 * The line cursor of the fast reader of kubectl's YAML (kubectl-yaml.ts): where lines end, their indentation, keys
 * and sequence dashes on them, and the lines to skip. Works in offsets into the text; `pos` is always the start of
 * the line to look at next.
 */
import { closingQuote, OutsideSubset } from './kubectl-yaml-scalars';

/** Offsets over the lines of one text, the last line end found kept. */
export class LineCursor {
  /** The start of the line to look at next. */
  protected pos = 0;

  /** The last line end found, and the offset it was looked for from (an empty range at first). */
  private endAskedFrom = 1;
  private endFound = 0;

  constructor(protected readonly text: string) {}

  /** Gives up unless the line at `line` is blank or deeper than `indent`. */
  protected checkDeeper(line: number, indent: number): void {
    const at = this.indentAt(line);
    if (this.lineEnd(line) !== line + at && at <= indent) {
      throw new OutsideSubset();
    }
  }

  /**
   * Where the key on a line (content from `start`) ends: the offset of its colon, or undefined when the line holds
   * no key. A quoted key must close on the line, its colon right after it.
   */
  protected keyEnd(start: number, end: number): number | undefined {
    const text = this.text;
    const first = text[start];
    if (first === "'" || first === '"') {
      const close = closingQuote(this.text, start, end);
      if (close === undefined || text[close + 1] !== ':') {
        return undefined;
      }
      return close + 2 === end || text.charCodeAt(close + 2) === 0x20 ? close + 1 : undefined;
    }
    for (
      let colon = text.indexOf(':', start);
      colon !== -1 && colon < end;
      colon = text.indexOf(':', colon + 1)
    ) {
      if (colon + 1 === end || text.charCodeAt(colon + 1) === 0x20) {
        return colon;
      }
    }
    return undefined;
  }

  /** Whether the content from `start` is a sequence entry's dash (`- ` or a lone `-`). */
  protected isEntryDash(start: number, end: number): boolean {
    return this.text[start] === '-' && (start + 1 === end || this.text.charCodeAt(start + 1) === 0x20);
  }

  /** Whether the line at `line` starts with a document marker (`---` or `...`). */
  protected isMarker(line: number): boolean {
    return this.text.startsWith('---', line) || this.text.startsWith('...', line);
  }

  /** Whether the line at `pos` is exactly `line`. */
  protected isLine(line: string): boolean {
    return this.text.startsWith(line, this.pos) && this.lineEnd(this.pos) === this.pos + line.length;
  }

  /** Moves `pos` past blank lines and comment lines. */
  protected skipIgnorable(): void {
    const text = this.text;
    while (this.pos < text.length) {
      const content = this.pos + this.indentAt(this.pos);
      if (content !== this.lineEnd(content) && text[content] !== '#') {
        return;
      }
      this.pos = this.nextLine(content);
    }
  }

  /** The number of spaces the line at `line` starts with. */
  protected indentAt(line: number): number {
    let at = line;
    while (this.text.charCodeAt(at) === 0x20) {
      at++;
    }
    return at - line;
  }

  /**
   * The end of the line holding `from`. The walk asks for the same line's end several times (its indentation, its
   * key, its value, whether the next line goes deeper): the last answer is kept, and holds for any offset between
   * the one it was asked from and the end it found, since no line break lies between them.
   */
  protected lineEnd(from: number): number {
    if (from >= this.endAskedFrom && from <= this.endFound) {
      return this.endFound;
    }
    const end = this.text.indexOf('\n', from);
    this.endAskedFrom = from;
    this.endFound = end === -1 ? this.text.length : end;
    return this.endFound;
  }

  /** The start of the line after the one holding `from`. */
  protected nextLine(from: number): number {
    return this.lineEnd(from) + 1;
  }
}
