/**
 * A fast reader for the YAML kubectl writes (`kubectl get … -o yaml`, sigs.k8s.io/yaml over go-yaml): block
 * mappings and sequences, plain and quoted scalars on one line, `{}` and `[]`. js-yaml spends about 8 s on a
 * 130 MB capture of 150,000 pods, most of it in its general scanner; this reader walks lines and hands js-yaml
 * only what it does not take apart itself: a scalar that is not plainly a string (numbers, escapes), and a block
 * scalar (`|`, `>`) or a scalar over several lines, each as a one-key document of its own text. A collection
 * whose text repeats the last one begun by the same line (a ReplicaSet's pods' labels, containers, status) is
 * that same object, not read again (kubectl-yaml-subtrees.ts says when, and why sharing is safe).
 *
 * It never answers differently from js-yaml with the capture schema: anything outside that subset (anchors,
 * aliases, tags, flow collections with content, comments after a value, tabs, CR, a byte order mark, directives,
 * empty documents, merge keys, a scalar document) gives up, and the caller reads the text with js-yaml as before.
 * test/files/kubectl-yaml.test.ts checks it against js-yaml on the YAML test suite, the corpus and captures.
 */
import type { LoadValue } from './kubectl-yaml-scalars';
import { closingQuote, OutsideSubset, ScalarReader } from './kubectl-yaml-scalars';
import { LineCursor } from './kubectl-yaml-lines';
import { mayShareValueOf, SubtreeMemo } from './kubectl-yaml-subtrees';

export type { LoadValue } from './kubectl-yaml-scalars';

/** What js-yaml refuses to read at all (its non-printable check): such a text is left to it, to say so. */
const NON_PRINTABLE =
  // eslint-disable-next-line no-control-regex -- the control characters are what it looks for
  /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;

/**
 * Any character but a line feed and printable ASCII: a text without one has none of what NON_PRINTABLE looks for,
 * and one range is looked for in two thirds of the time (a 130 MB capture: 90 ms rather than 130).
 */
const MAYBE_NON_PRINTABLE = /[^\n -~]/;

/**
 * The text without its trailing spaces. Only spaces: YAML's white space is space and tab (tabs are given up on),
 * where trimEnd would also take a no-break space that js-yaml keeps in a plain scalar and refuses after a quote.
 */
function trimSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x20) {
    end--;
  }
  return text.slice(0, end);
}

/**
 * The longest plain scalar kept for reuse: V8 copies a slice shorter than 13 characters (a longer one points into
 * the text), so the copies saved are of short ones, and longer ones (names, uids) rarely repeat.
 */
const MAX_KEPT_VALUE_LENGTH = 12;

/** Block scalar headers read here: a style and a chomping indicator, no explicit indentation. */
const BLOCK_HEADER = /^[|>][+-]?$/;

/**
 * The documents of `text`, or undefined when the text is outside the subset this reader takes (then read it with
 * js-yaml). `load` reads one value's text as js-yaml does; it may throw, which also gives up.
 */
export function readKubectlYaml(text: string, load: LoadValue): unknown[] | undefined {
  if (
    text.includes('\t') ||
    text.includes('\r') ||
    text.startsWith('\uFEFF') ||
    (MAYBE_NON_PRINTABLE.test(text) && NON_PRINTABLE.test(text))
  ) {
    return undefined;
  }
  try {
    return new LineReader(text, load).documents();
  } catch {
    // Outside the subset, or js-yaml refused a piece: the whole text is read by js-yaml again, which says why.
    return undefined;
  }
}

/** The reader's walk over the lines of the text (LineCursor), building the values. */
class LineReader extends LineCursor {
  private readonly scalars: ScalarReader;

  /** Collections read before, for one whose text repeats (a ReplicaSet's pods' labels, containers, status). */
  private readonly subtrees: SubtreeMemo;

  /**
   * Plain keys read before, by keySlot: a capture repeats a few hundred keys millions of times, and a key that
   * matches one already read is that string (already a property name to the engine), not a new copy of it.
   */
  private readonly knownKeys = new Map<number, string>();

  /** Short plain scalars read before that are strings, by keySlot (plainText). */
  private readonly knownValues = new Map<number, string>();

  constructor(
    text: string,
    private readonly load: LoadValue,
  ) {
    super(text);
    this.scalars = new ScalarReader(load);
    this.subtrees = new SubtreeMemo(text);
  }

  documents(): unknown[] {
    const documents: unknown[] = [];
    this.skipIgnorable();
    if (this.isLine('---')) {
      this.pos = this.nextLine(this.pos);
    }
    for (;;) {
      this.skipIgnorable();
      if (this.pos >= this.text.length || this.isMarker(this.pos) || this.indentAt(this.pos) !== 0) {
        // An empty document, a marker with content after it, or a root that is not at the margin.
        throw new OutsideSubset();
      }
      documents.push(this.blockNode(0, false));
      this.skipIgnorable();
      if (this.pos >= this.text.length) {
        return documents;
      }
      if (!this.isLine('---')) {
        throw new OutsideSubset();
      }
      this.pos = this.nextLine(this.pos);
    }
  }

  /**
   * A mapping or sequence whose first line's content starts at column `indent` of the line at `pos`: when it may
   * be shared, the one read before from the same text if there is one (kubectl-yaml-subtrees.ts).
   */
  private blockNode(indent: number, mayShare: boolean): unknown {
    const lineStart = this.pos;
    const start = lineStart + indent;
    const end = this.lineEnd(start);
    if (!mayShare || indent === 0) {
      return this.collection(start, end, indent, mayShare);
    }
    const slot = this.subtrees.slotOf(lineStart, end, indent);
    const known = this.subtrees.find(slot, lineStart, indent);
    if (known !== undefined) {
      this.pos = this.subtrees.foundEnd;
      return known;
    }
    const value = this.collection(start, end, indent, mayShare);
    this.subtrees.remember(slot, lineStart, this.pos, indent, value);
    return value;
  }

  /** blockNode's collection read: a sequence (its entries shared when `mayShare`) or a mapping. */
  private collection(start: number, end: number, indent: number, mayShare: boolean): unknown {
    if (this.isEntryDash(start, end)) {
      return this.sequence(indent, mayShare);
    }
    if (this.keyEnd(start, end) !== undefined) {
      return this.mapping(indent);
    }
    throw new OutsideSubset();
  }

  private mapping(indent: number): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    for (let first = true; ; first = false) {
      if (!first) {
        this.skipIgnorable();
        if (this.pos >= this.text.length || this.isMarker(this.pos)) {
          return object;
        }
        const at = this.indentAt(this.pos);
        if (at < indent) {
          return object;
        }
        if (at > indent) {
          throw new OutsideSubset();
        }
      }
      const start = this.pos + indent;
      const end = this.lineEnd(start);
      const colon = this.keyEnd(start, end);
      if (colon === undefined || this.isEntryDash(start, end)) {
        throw new OutsideSubset();
      }
      const key = this.key(start, colon);
      if (key === '__proto__' || key === '<<') {
        throw new OutsideSubset();
      }
      object[key] = this.value(colon + 1, end, indent, true, mayShareValueOf(key));
    }
  }

  private sequence(indent: number, mayShare: boolean): unknown[] {
    const items: unknown[] = [];
    for (let first = true; ; first = false) {
      if (!first) {
        this.skipIgnorable();
        if (this.pos >= this.text.length || this.isMarker(this.pos) || this.indentAt(this.pos) !== indent) {
          if (this.pos < this.text.length && this.indentAt(this.pos) > indent) {
            throw new OutsideSubset();
          }
          return items;
        }
      }
      const start = this.pos + indent;
      const end = this.lineEnd(start);
      if (!this.isEntryDash(start, end)) {
        return items;
      }
      let content = start + 1;
      while (content < end && this.text.charCodeAt(content) === 0x20) {
        content++;
      }
      if (content < end && (this.isEntryDash(content, end) || this.keyEnd(content, end) !== undefined)) {
        items.push(this.blockNode(content - this.pos, mayShare));
      } else {
        items.push(this.value(start + 1, end, indent, false, mayShare));
      }
    }
  }

  /**
   * The value after `key:` or `- ` (from `from` on the line ending at `end`), in a node at `indent`; leaves `pos`
   * at the line after it. On the next lines when the line has no more: nested deeper, or (for a mapping's value)
   * a sequence at the key's own indentation.
   */
  private value(
    from: number,
    end: number,
    indent: number,
    isMappingValue: boolean,
    mayShare: boolean,
  ): unknown {
    const text = this.text;
    let start = from;
    while (start < end && text.charCodeAt(start) === 0x20) {
      start++;
    }
    if (start === end) {
      this.pos = this.nextLine(end);
      this.skipIgnorable();
      if (this.pos >= text.length || this.isMarker(this.pos)) {
        return null;
      }
      const at = this.indentAt(this.pos);
      if (at > indent) {
        return this.blockNode(at, mayShare);
      }
      if (at === indent && isMappingValue && this.isEntryDash(this.pos + at, this.lineEnd(this.pos + at))) {
        return this.sequence(at, mayShare);
      }
      return null;
    }
    const first = text[start];
    if (first === '|' || first === '>') {
      if (!BLOCK_HEADER.test(trimSpaces(text.slice(start, end)))) {
        throw new OutsideSubset();
      }
      return this.loadRegion(start, this.nextLine(end), indent, true);
    }
    if (first === "'" || first === '"') {
      return this.quoted(start, end, indent);
    }
    if (first === '[' || first === '{') {
      const flow = trimSpaces(text.slice(start, end));
      if (flow !== '[]' && flow !== '{}') {
        throw new OutsideSubset();
      }
      this.pos = this.nextLine(end);
      return flow === '[]' ? [] : {};
    }
    const plain = this.plainText(start, end);
    if (plain.includes(': ') || plain.endsWith(':') || plain.includes(' #')) {
      throw new OutsideSubset();
    }
    // A plain scalar goes on while the next non-blank line is deeper: read that whole region as js-yaml would.
    let next = this.nextLine(end);
    while (next < text.length && this.lineEnd(next) === next + this.indentAt(next)) {
      next = this.nextLine(next);
    }
    if (next < text.length && this.indentAt(next) > indent) {
      return this.loadRegion(start, next, indent, false);
    }
    this.pos = this.nextLine(end);
    const value = this.scalars.plain(plain);
    if (value === plain && plain.length <= MAX_KEPT_VALUE_LENGTH) {
      this.knownValues.set(keySlot(text, start, start + plain.length), plain);
    }
    return value;
  }

  /**
   * The text of a plain scalar on one line, `[start, end)` without its trailing spaces: a short one that is a
   * string read before is that same string (Running, default, True, IfNotPresent…), not a new copy.
   */
  private plainText(start: number, end: number): string {
    const text = this.text;
    let last = end;
    while (last > start && text.charCodeAt(last - 1) === 0x20) {
      last--;
    }
    const known =
      last - start <= MAX_KEPT_VALUE_LENGTH ? this.knownValues.get(keySlot(text, start, last)) : undefined;
    return known !== undefined && known.length === last - start && text.startsWith(known, start)
      ? known
      : text.slice(start, last);
  }

  /** A quoted scalar from `start`: on this line, or (read by js-yaml) over the following deeper lines. */
  private quoted(start: number, end: number, indent: number): unknown {
    const text = this.text;
    const close = closingQuote(this.text, start, text.length);
    if (close === undefined) {
      throw new OutsideSubset();
    }
    const closeEnd = this.lineEnd(close);
    if (trimSpaces(text.slice(close + 1, closeEnd)) !== '') {
      throw new OutsideSubset();
    }
    if (close > end) {
      return this.loadRegion(start, this.nextLine(closeEnd), indent, false);
    }
    this.pos = this.nextLine(end);
    const inner = text.slice(start + 1, close);
    if (text[start] === "'") {
      return inner.replaceAll("''", "'");
    }
    return inner.includes('\\') ? this.scalars.loadRemembered(text.slice(start, close + 1)) : inner;
  }

  /**
   * Reads `[start, regionEnd)` and the deeper lines after it with js-yaml, as the value of a one-key document: a
   * block scalar, or a scalar over several lines. Every non-blank line after the first must be deeper than
   * `indent` (and, for a block scalar, no shallower than its first content line), else the text is given up.
   */
  private loadRegion(start: number, regionEnd: number, indent: number, isBlockScalar: boolean): unknown {
    const text = this.text;
    let end = regionEnd;
    let contentIndent: number | undefined;
    // The lines already inside the region (a quoted scalar's) must be deeper too.
    for (let line = this.nextLine(this.lineEnd(start)); line < end; line = this.nextLine(line)) {
      this.checkDeeper(line, indent);
    }
    while (end < text.length) {
      const at = this.indentAt(end);
      const isBlank = this.lineEnd(end) === end + at;
      if (!isBlank && at <= indent) {
        break;
      }
      if (!isBlank && isBlockScalar) {
        contentIndent ??= at;
        if (at < contentIndent) {
          throw new OutsideSubset();
        }
      }
      end = this.nextLine(end);
    }
    this.pos = end;
    const value = this.load(text.slice(start, Math.min(end, text.length)));
    if (value !== null && typeof value === 'object') {
      // A region read as a collection (an implicit key over two lines, say): not a scalar as it was taken for.
      throw new OutsideSubset();
    }
    return value;
  }

  /** A key from `start` to its colon: quoted, or plain and resolved then made a string as js-yaml does. */
  private key(start: number, colon: number): string {
    const text = this.text;
    const first = text[start];
    if (first === "'" || first === '"') {
      const inner = text.slice(start + 1, colon - 1);
      if (first === "'") {
        return inner.replaceAll("''", "'");
      }
      return inner.includes('\\') ? String(this.scalars.loadRemembered(text.slice(start, colon))) : inner;
    }
    const slot = keySlot(text, start, colon);
    const known = this.knownKeys.get(slot);
    if (known !== undefined && known.length === colon - start && text.startsWith(known, start)) {
      return known;
    }
    const token = text.slice(start, colon);
    if (token.length > 1024 || token.includes(' #') || token.endsWith(' ') || token === '') {
      throw new OutsideSubset();
    }
    const key = String(this.scalars.plain(token));
    if (key === token) {
      this.knownKeys.set(slot, key);
    }
    return key;
  }
}

/** A number for the key text `[start, end)` from its length and end characters: where knownKeys keeps it. */
function keySlot(text: string, start: number, end: number): number {
  return (
    (end - start) * 0x20000 + (text.charCodeAt(start) & 0xff) * 0x100 + (text.charCodeAt(end - 1) & 0xff)
  );
}
