/**
 * Scalars for the fast reader of kubectl's YAML (kubectl-yaml.ts): which plain scalars are plainly strings under
 * the core schema, js-yaml's reading of the others (remembered: numbers and quantities repeat a lot), and where a
 * quoted scalar closes.
 */

/** Reads one scalar's text (as written after `key: `, line breaks included) the way js-yaml would. */
export type LoadValue = (valueText: string) => unknown;

/** Raised inside the reader when the text leaves the subset: the caller reads it with js-yaml instead. */
export class OutsideSubset extends Error {}

/** js-yaml's core-schema words that are not strings (YAML 1.2 core: null and bool). */
const WORDS: ReadonlyMap<string, null | boolean> = new Map<string, null | boolean>([
  ...['null', 'Null', 'NULL', '~'].map((word): [string, null] => [word, null]),
  ...['true', 'True', 'TRUE'].map((word): [string, boolean] => [word, true]),
  ...['false', 'False', 'FALSE'].map((word): [string, boolean] => [word, false]),
]);

/** Characters a plain scalar or key may not start with here (YAML indicators, and `:`/`?` kept out for safety). */
const NOT_PLAIN_START = new Set([...'-?:,[]{}#&*!|>\'"%@`']);

/** The most distinct scalars whose js-yaml reading is remembered (numbers and quantities repeat a lot). */
const MAX_REMEMBERED = 100_000;

/** Plain scalars resolved as js-yaml's core schema resolves them, handing js-yaml what is not plainly a string. */
export class ScalarReader {
  private readonly remembered = new Map<string, unknown>();

  constructor(private readonly load: LoadValue) {}

  /** A plain scalar's value under the core schema: most are plainly strings; the rest js-yaml resolves. */
  plain(token: string): unknown {
    const code = token.charCodeAt(0);
    const isLetter = (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
    if (isLetter || token === '~') {
      const word = WORDS.get(token);
      return word === undefined ? token : word;
    }
    if (NOT_PLAIN_START.has(token[0] ?? '') && !/^-[^\s]/.test(token)) {
      throw new OutsideSubset();
    }
    return this.loadRemembered(token);
  }

  /** js-yaml's reading of a token (a plain scalar, or a double-quoted one with escapes), remembered. */
  loadRemembered(token: string): unknown {
    if (this.remembered.has(token)) {
      return this.remembered.get(token);
    }
    const value = this.load(token);
    if (value !== null && typeof value === 'object') {
      throw new OutsideSubset();
    }
    if (this.remembered.size < MAX_REMEMBERED) {
      this.remembered.set(token, value);
    }
    return value;
  }
}

/** The offset of the quote closing the scalar opened at `start`, looking no further than `limit`. */
export function closingQuote(text: string, start: number, limit: number): number | undefined {
  const quote = text[start];
  for (let at = start + 1; at < limit; at++) {
    const char = text[at];
    if (quote === '"' && char === '\\') {
      at++;
    } else if (char === quote) {
      if (quote === "'" && text[at + 1] === "'") {
        at++;
        continue;
      }
      return at;
    }
  }
  return undefined;
}
