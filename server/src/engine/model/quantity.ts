/**
 * Kubernetes resource quantities ("500m", "128Mi", "1e3", 2), parsed exactly with BigInt arithmetic.
 *
 * Follows the grammar of k8s.io/apimachinery/pkg/api/resource (ParseQuantity):
 *   <quantity> ::= <signedNumber><suffix>
 *   <suffix>   ::= <binarySI> | <decimalExponent> | <decimalSI>
 *   binarySI: Ki Mi Gi Ti Pi Ei; decimalSI: n u m "" k M G T P E; decimalExponent: e|E followed by a signed int.
 * https://github.com/kubernetes/apimachinery/blob/master/pkg/api/resource/quantity.go
 * Like Quantity.MilliValue() and Quantity.Value(), conversions round up (towards +infinity).
 * Left out: the 2^63-1 cap (we keep the exact value) and canonical re-serialisation.
 */

/** A successfully parsed quantity. */
export interface Quantity {
  /** The text as written. */
  readonly text: string;
  /** The value in thousandths, rounded up (MilliValue): cpu in millicores. */
  readonly milli: number;
  /** The value rounded up to an integer (Value): memory in bytes, counts. */
  readonly value: number;
  /** Whether the value is below zero. */
  readonly isNegative: boolean;
}

/** The outcome of parsing a quantity: the value, or why the text is not a quantity with a likely fix. */
type QuantityParse = { ok: true; quantity: Quantity } | { ok: false; message: string; suggestions: string[] };

const QUANTITY_PATTERN =
  /^([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;

const BINARY_POWERS: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const DECIMAL_EXPONENTS: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};

/**
 * Quantities already parsed, by text: a simulation reads the same few texts ("100m", "128Mi") for every pod in
 * every cycle, and each parse is BigInt arithmetic. The parse is a pure function of the text and its results are
 * frozen, so a remembered one is the one a fresh parse gives. Only successes are kept (a failure carries
 * suggestions and is rare); the map starts again when full, so a long session's memory stays bounded.
 */
const parsedQuantities = new Map<string, QuantityParse>();
const MAX_REMEMBERED_QUANTITIES = 4096;

/** Parses a quantity as the API server would accept it; numbers from YAML are accepted as their decimal text. */
export function parseQuantity(input: string | number): QuantityParse {
  const text = typeof input === 'number' ? numberToQuantityText(input) : input;
  const remembered = parsedQuantities.get(text);
  if (remembered !== undefined) {
    return remembered;
  }
  const parsed = parseQuantityText(text);
  if (parsed.ok) {
    if (parsedQuantities.size >= MAX_REMEMBERED_QUANTITIES) {
      parsedQuantities.clear();
    }
    Object.freeze(parsed.quantity);
    parsedQuantities.set(text, Object.freeze(parsed));
  }
  return parsed;
}

/** Forgets the remembered parses (tests compare remembered and fresh parses). */
export function forgetParsedQuantities(): void {
  parsedQuantities.clear();
}

function parseQuantityText(text: string): QuantityParse {
  const match = QUANTITY_PATTERN.exec(text);
  if (match === null) {
    return { ok: false, message: `"${text}" is not a quantity`, suggestions: suggestQuantityFixes(text) };
  }
  const sign = match[1] === '-' ? -1n : 1n;
  const numberText = match[2] ?? '0';
  const suffix = match[3] ?? '';
  const [whole = '', fraction = ''] = numberText.split('.');
  let numerator = BigInt((whole === '' ? '0' : whole) + fraction) * sign;
  let denominator = 10n ** BigInt(fraction.length);
  const binaryPower = BINARY_POWERS[suffix];
  if (binaryPower !== undefined) {
    numerator *= 1024n ** BigInt(binaryPower);
  } else {
    const exponent =
      suffix === ''
        ? 0
        : suffix[0] === 'e' || suffix[0] === 'E'
          ? Number(suffix.slice(1))
          : DECIMAL_EXPONENTS[suffix];
    if (exponent === undefined || !Number.isFinite(exponent) || Math.abs(exponent) > 400) {
      return { ok: false, message: `"${text}" is not a quantity: exponent out of range`, suggestions: [] };
    }
    if (exponent >= 0) {
      numerator *= 10n ** BigInt(exponent);
    } else {
      denominator *= 10n ** BigInt(-exponent);
    }
  }
  const quantity: Quantity = {
    text,
    milli: Number(ceilDivide(numerator * 1000n, denominator)),
    value: Number(ceilDivide(numerator, denominator)),
    isNegative: numerator < 0n,
  };
  return { ok: true, quantity };
}

/** Formats millicores the way kubectl does: "500m", "2", "1500m". */
export function formatMilli(milli: number): string {
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}

/** Formats a byte count with the largest binary suffix that divides it exactly, else in bytes: "128Mi", "1536Ki". */
export function formatBytes(bytes: number): string {
  const suffixes = ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki'];
  for (let i = 0; i < suffixes.length; i++) {
    const unit = 1024 ** (6 - i);
    if (bytes !== 0 && bytes % unit === 0) {
      return `${bytes / unit}${suffixes[i] ?? ''}`;
    }
  }
  return String(bytes);
}

function ceilDivide(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return numerator % denominator > 0n ? quotient + 1n : quotient;
}

function numberToQuantityText(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e21) {
    return value.toFixed(0);
  }
  return String(value).replace('e+', 'e');
}

/** A number with a unit written beside it, as people write sizes and cpu counts: "128mb", "2 cores", "100 m". */
const WRITTEN_UNIT_PATTERN = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]+)\s*$/;

/** The words for whole cores and for millicores that are not suffixes of a quantity. */
const CORE_WORDS = /^(?:cores?|v?cpus?)$/i;
const MILLICORE_WORDS = /^(?:millicores?|millicpus?|mcpus?)$/i;

/**
 * The quantities a malformed text most likely meant, each one that parses, most literal first: "2 cores" → 2,
 * "500 millicores" → 500m; "512mb" (megabytes) → 512M, then 512Mi (what memory sizes usually mean); "512MiB" →
 * 512Mi; "100 m" → 100m (the space alone was wrong).
 */
function suggestQuantityFixes(text: string): string[] {
  const match = WRITTEN_UNIT_PATTERN.exec(text);
  if (match === null) {
    return [];
  }
  const digits = match[1] ?? '';
  const unit = match[2] ?? '';
  const byteUnit = /^([kmgtpe])(i?)(b?)$/i.exec(unit);
  const candidates: string[] = [];
  if (CORE_WORDS.test(unit)) {
    candidates.push(digits);
  } else if (MILLICORE_WORDS.test(unit)) {
    candidates.push(`${digits}m`);
  } else if (byteUnit !== null) {
    const letter = (byteUnit[1] ?? '').toUpperCase();
    const binary = `${digits}${letter}i`;
    const decimal = `${digits}${letter === 'K' ? 'k' : letter}`;
    if ((byteUnit[2] ?? '') !== '') {
      candidates.push(binary);
    } else if ((byteUnit[3] ?? '') !== '') {
      candidates.push(decimal, binary);
    } else if (QUANTITY_PATTERN.test(`${digits}${unit}`)) {
      // "100 m", "2 G": a valid suffix, only apart from its number.
      candidates.push(`${digits}${unit}`);
    }
  }
  return candidates.filter((candidate) => candidate !== text && QUANTITY_PATTERN.test(candidate));
}
