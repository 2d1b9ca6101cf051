/**
 * Reads the one-line scalars and keys of block YAML for the fast parser: plain, single-quoted and double-quoted
 * scalars that end on their own line, and what may follow them on it (spaces, a comment). Anything outside that
 * subset (a quoted scalar going on to the next line, an escape yaml would refuse, a comment without a space
 * before it, a plain scalar starting with an indicator) answers undefined, and the slice goes to the yaml
 * package, which is always right. The rules are the YAML 1.2 spec's (ns-plain-first, c-ns-esc-char, s-b-comment):
 * https://yaml.org/spec/1.2.2/#chapter-7-flow-style-productions
 */
import type { FastScalarType } from './scalar-nodes';

/** A scalar read from one line: its value before tag resolution, style, and where its text ends. */
export interface InlineScalar {
  readonly source: string;
  readonly type: FastScalarType;
  /** Offset just past the scalar's text (its closing quote, or its last non-space character). */
  readonly valueEnd: number;
}

/** A block mapping key read from one line, and where the text after its ":" starts. */
export interface InlineKey extends InlineScalar {
  /** Offset of the ":" indicator. */
  readonly colon: number;
}

// c-indicator characters that may not start a plain scalar; "-", "?" and ":" may when a non-space follows.
const INDICATORS = new Set([...',[]{}#&*!|>\'"%@`']);

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

const HEX_LENGTHS: Record<string, number> = { x: 2, u: 4, U: 8 };

/** Whether a plain scalar may start at `at` (ns-plain-first in block context). */
export function canStartPlain(text: string, at: number, end: number): boolean {
  const first = text[at];
  if (first === undefined || at >= end || INDICATORS.has(first)) {
    return false;
  }
  if (first === '-' || first === '?' || first === ':') {
    const next = text[at + 1];
    return at + 1 < end && next !== ' ';
  }
  return true;
}

/**
 * Reads a mapping key at `at` (a plain or quoted scalar on one line, then ":" and a space or the line's end);
 * undefined when the line is not a key this parser reads.
 */
export function readKey(text: string, at: number, end: number): InlineKey | undefined {
  const first = text[at];
  if (first === '"' || first === "'") {
    const quoted = readQuoted(text, at, end);
    if (quoted === undefined || text[quoted.valueEnd] !== ':') {
      return undefined;
    }
    const colon = quoted.valueEnd;
    return colon + 1 === end || text[colon + 1] === ' ' ? { ...quoted, colon } : undefined;
  }
  // A key starting with "?" or ":" is left to the package (explicit keys, "::" and the like).
  if (!canStartPlain(text, at, end) || first === '?' || first === ':') {
    return undefined;
  }
  let colon = text.indexOf(':', at);
  while (colon !== -1 && colon < end && colon + 1 < end && text[colon + 1] !== ' ') {
    colon = text.indexOf(':', colon + 1);
  }
  if (colon === -1 || colon >= end) {
    return undefined;
  }
  const hash = findComment(text, at, colon);
  if (hash !== -1 || text[colon - 1] === ' ' || colon - at > 1000) {
    return undefined;
  }
  return { source: text.slice(at, colon), type: 'PLAIN', valueEnd: colon, colon };
}

/** Reads a scalar value at `at` that ends on this line; undefined outside the subset. */
export function readValue(text: string, at: number, end: number): InlineScalar | undefined {
  const first = text[at];
  if (first === '"' || first === "'") {
    return readQuoted(text, at, end);
  }
  if (!canStartPlain(text, at, end)) {
    return undefined;
  }
  const hash = findComment(text, at, end);
  let valueEnd = hash === -1 ? end : hash;
  while (text.charCodeAt(valueEnd - 1) === 32) {
    valueEnd--;
  }
  const source = text.slice(at, valueEnd);
  // ": " inside, or a ":" last, would make this a (compact or nested) mapping: not a scalar.
  if (source.includes(': ') || source.endsWith(':')) {
    return undefined;
  }
  return { source, type: 'PLAIN', valueEnd };
}

/**
 * What follows a value on its line: only spaces, or spaces then a comment. Returns the comment as yaml keeps it
 * (without the "#", a single space when empty), '' for none, or undefined when something else follows.
 */
export function readLineRest(text: string, at: number, end: number): string | undefined {
  let position = at;
  while (position < end && text.charCodeAt(position) === 32) {
    position++;
  }
  if (position === end) {
    return '';
  }
  if (text[position] !== '#' || position === at) {
    return undefined;
  }
  return text.slice(position + 1, end) || ' ';
}

/** The offset of the first " #" in [at, end), or -1; bounded so that a long text is not searched past the line. */
function findComment(text: string, at: number, end: number): number {
  for (let position = at + 1; position < end; position++) {
    if (text.charCodeAt(position) === 35 && text.charCodeAt(position - 1) === 32) {
      return position - 1;
    }
  }
  return -1;
}

/** Reads a single- or double-quoted scalar at `at` that closes on this line; undefined otherwise. */
export function readQuoted(text: string, at: number, end: number): InlineScalar | undefined {
  return text[at] === "'" ? readSingleQuoted(text, at, end) : readDoubleQuoted(text, at, end);
}

function readSingleQuoted(text: string, at: number, end: number): InlineScalar | undefined {
  let value = '';
  let position = at + 1;
  for (;;) {
    const close = text.indexOf("'", position);
    if (close === -1 || close >= end) {
      return undefined;
    }
    value += text.slice(position, close);
    if (text[close + 1] === "'" && close + 1 < end) {
      value += "'";
      position = close + 2;
      continue;
    }
    return { source: value, type: 'QUOTE_SINGLE', valueEnd: close + 1 };
  }
}

function readDoubleQuoted(text: string, at: number, end: number): InlineScalar | undefined {
  let value = '';
  let position = at + 1;
  while (position < end) {
    const character = text[position] ?? '';
    if (character === '"') {
      return { source: value, type: 'QUOTE_DOUBLE', valueEnd: position + 1 };
    }
    if (character !== '\\') {
      value += character;
      position++;
      continue;
    }
    const escape = text[position + 1] ?? '';
    if (position + 1 >= end) {
      return undefined;
    }
    const simple = ESCAPES[escape];
    if (simple !== undefined) {
      value += simple;
      position += 2;
      continue;
    }
    const digits = HEX_LENGTHS[escape];
    const hex = digits === undefined ? '' : text.slice(position + 2, position + 2 + digits);
    if (
      digits === undefined ||
      position + 2 + digits > end ||
      !/^[0-9a-fA-F]+$/.test(hex) ||
      hex.length !== digits
    ) {
      return undefined;
    }
    const code = parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      return undefined;
    }
    value += String.fromCodePoint(code);
    position += 2 + digits;
  }
  return undefined;
}
