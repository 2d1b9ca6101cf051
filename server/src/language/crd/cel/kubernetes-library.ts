/**
 * The Kubernetes CEL libraries CRD rules use that @marcbachmann/cel-js does not have, registered on its
 * Environment, and the names of every function a rule may call. Modelled on
 * staging/src/k8s.io/apiserver/pkg/cel/library/ (lists.go, regex.go, quantity.go, ip.go, urls.go in
 * url-library.ts) and cel-go's
 * ext/strings.go. Left out (a rule calling them is not evaluated, and says so): format.*, semver, cidr,
 * ip() objects, authz, sets and math extensions, strings.quote/format/reverse.
 * Quantities compare by their value in thousandths rounded up (engine/model/quantity), so two quantities that
 * differ below a milli-unit compare equal.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { parseQuantity } from '../../../engine/model/quantity';
import { CelUrl, escapedPathOf, hostnameOf, parseRequestUri, portOf, queryOf } from './url-library';

/** A parsed Kubernetes quantity as a CEL value (type Quantity). */
export class CelQuantity {
  constructor(
    /** The text as written. */
    readonly text: string,
    /** The value in thousandths, rounded up. */
    readonly milli: number,
  ) {}
}

/** The error cel-go reports for a bad argument; thrown errors become the rule's evaluation error. */
function fail(message: string): never {
  throw new Error(message);
}

function toQuantity(text: string): CelQuantity {
  const parsed = parseQuantity(text);
  return parsed.ok
    ? new CelQuantity(text, parsed.quantity.milli)
    : fail(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'string' && typeof b === 'string') {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') {
    return Number(a) - Number(b);
  }
  return fail('no such overload');
}

function sumOf(list: readonly unknown[]): unknown {
  if (list.length === 0) {
    return 0n;
  }
  if (list.every((item) => typeof item === 'bigint')) {
    return (list as bigint[]).reduce((total, item) => total + item, 0n);
  }
  if (list.every((item) => typeof item === 'number')) {
    return (list as number[]).reduce((total, item) => total + item, 0);
  }
  return fail('no such overload');
}

function extremeOf(list: readonly unknown[], sign: 1 | -1, name: string): unknown {
  if (list.length === 0) {
    return fail(`${name} called on empty list`);
  }
  return list.reduce((best, item) => (compareValues(item, best) * sign > 0 ? item : best));
}

function indexOfValue(list: readonly unknown[], value: unknown, fromEnd: boolean): bigint {
  let found = -1;
  list.forEach((item, index) => {
    if ((found < 0 || fromEnd) && isSameValue(item, value)) {
      found = index;
    }
  });
  return BigInt(found);
}

function isSameValue(a: unknown, b: unknown): boolean {
  return typeof a === typeof b && JSON.stringify(a, bigintReplacer) === JSON.stringify(b, bigintReplacer);
}

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value}n` : value;
}

/** Go's net/netip ParseAddr as ip.go uses it: IPv4 dotted quads without leading zeros, IPv6 without zones. */
export function isIpAddress(text: string): boolean {
  const v4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
  if (v4.test(text)) {
    return true;
  }
  if (!text.includes(':') || text.includes('%')) {
    return false;
  }
  try {
    return new URL(`http://[${text}]/`).hostname !== '';
  } catch {
    return false;
  }
}

/** Registers the functions, and returns the environment for chaining. */
export function registerKubernetesLibrary(env: Environment): Environment {
  return env
    .registerType('Quantity', CelQuantity)
    .registerFunction('list.isSorted(): bool', (list: unknown[]) =>
      list.every((item, index) => index === 0 || compareValues(list[index - 1], item) <= 0),
    )
    .registerFunction('list.sum(): dyn', (list: unknown[]) => sumOf(list))
    .registerFunction('list.min(): dyn', (list: unknown[]) => extremeOf(list, -1, 'min'))
    .registerFunction('list.max(): dyn', (list: unknown[]) => extremeOf(list, 1, 'max'))
    .registerFunction('list.indexOf(dyn): int', (list: unknown[], value: unknown) =>
      indexOfValue(list, value, false),
    )
    .registerFunction('list.lastIndexOf(dyn): int', (list: unknown[], value: unknown) =>
      indexOfValue(list, value, true),
    )
    .registerFunction('string.charAt(int): string', (text: string, index: bigint) =>
      index < 0n || index > BigInt([...text].length)
        ? fail(`index out of range: ${index}`)
        : ([...text][Number(index)] ?? ''),
    )
    .registerFunction('string.replace(string, string): string', (text: string, from: string, to: string) =>
      text.split(from).join(to),
    )
    .registerFunction(
      'string.replace(string, string, int): string',
      (text: string, from: string, to: string, n: bigint) => replaceN(text, from, to, n),
    )
    .registerFunction(
      'string.find(string): string',
      (text: string, pattern: string) => re2Pattern(pattern, '').exec(text)?.[0] ?? '',
    )
    .registerFunction('string.findAll(string): list<string>', (text: string, pattern: string) =>
      [...text.matchAll(re2Pattern(pattern, 'g'))].map((match) => match[0]),
    )
    .registerFunction('string.re2Matches(string): bool', (text: string, pattern: string) =>
      re2Pattern(pattern, '').test(text),
    )
    .registerType('URL', CelUrl)
    .registerFunction('isURL(string): bool', (text: string) => typeof parseRequestUri(text) !== 'string')
    .registerFunction('url(string): URL', (text: string) => {
      const url = parseRequestUri(text);
      return typeof url === 'string' ? fail(url) : url;
    })
    .registerFunction('URL.getScheme(): string', (url: CelUrl) => url.scheme)
    .registerFunction('URL.getHost(): string', (url: CelUrl) => url.host)
    .registerFunction('URL.getHostname(): string', (url: CelUrl) => hostnameOf(url))
    .registerFunction('URL.getPort(): string', (url: CelUrl) => portOf(url))
    .registerFunction('URL.getEscapedPath(): string', (url: CelUrl) => escapedPathOf(url))
    .registerFunction('URL.getQuery(): map<string, list<string>>', (url: CelUrl) => queryOf(url))
    .registerFunction('isIP(string): bool', (text: string) => isIpAddress(text))
    .registerFunction('isQuantity(string): bool', (text: string) => parseQuantity(text).ok)
    .registerFunction('quantity(string): Quantity', (text: string) => toQuantity(text))
    .registerFunction('Quantity.compareTo(Quantity): int', (a: CelQuantity, b: CelQuantity) =>
      BigInt(Math.sign(a.milli - b.milli)),
    )
    .registerFunction(
      'Quantity.isLessThan(Quantity): bool',
      (a: CelQuantity, b: CelQuantity) => a.milli < b.milli,
    )
    .registerFunction(
      'Quantity.isGreaterThan(Quantity): bool',
      (a: CelQuantity, b: CelQuantity) => a.milli > b.milli,
    )
    .registerFunction('Quantity.sign(): int', (a: CelQuantity) => BigInt(Math.sign(a.milli)))
    .registerFunction('Quantity.isInteger(): bool', (a: CelQuantity) => a.milli % 1000 === 0)
    .registerFunction('Quantity.asInteger(): int', (a: CelQuantity) =>
      a.milli % 1000 === 0 ? BigInt(a.milli / 1000) : fail('cannot convert value to integer'),
    )
    .registerFunction('Quantity.asApproximateFloat(): double', (a: CelQuantity) => a.milli / 1000);
}

/**
 * An RE2 pattern as a JavaScript RegExp: leading flags `(?i)`, `(?s)`, `(?m)` (and their combinations, also right after `^`) become
 * RegExp flags; anything else RE2 reads differently (inline groups `(?i:…)`, `\z`, `\C`) fails to compile and the
 * rule is reported as not evaluated.
 */
function re2Pattern(pattern: string, extraFlags: string): RegExp {
  const leading = /^(\^?)\(\?([ims]+)\)/.exec(pattern);
  const flags = [...new Set((leading?.[2] ?? '').split(''))].join('') + extraFlags;
  const body = leading === null ? pattern : (leading[1] ?? '') + pattern.slice(leading[0].length);
  return new RegExp(body, flags);
}

function replaceN(text: string, from: string, to: string, n: bigint): string {
  if (n < 0n) {
    return text.split(from).join(to);
  }
  let out = text;
  let start = 0;
  for (let count = 0n; count < n; count++) {
    const at = out.indexOf(from, start);
    if (at < 0) {
      break;
    }
    out = out.slice(0, at) + to + out.slice(at + from.length);
    start = at + to.length + (from === '' ? 1 : 0);
  }
  return out;
}

/** Macros and keywords the parser handles itself (not in getDefinitions()). */
const MACROS = ['has', 'all', 'exists', 'exists_one', 'map', 'filter', 'optMap', 'optFlatMap', 'bind'];

/** The names of every function a rule may call in this environment. */
export function supportedFunctionNames(env: Environment): ReadonlySet<string> {
  const names = new Set<string>(MACROS);
  for (const fn of env.getDefinitions().functions) {
    names.add(fn.name);
  }
  return names;
}
