/**
 * Field errors of custom resource validation, worded as the API server's field.Error prints them
 * (staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go and path.go):
 * `<path>: <type>[: <value>][: <detail>]`, where the path joins fields with ".", indexes as `[0]` and map keys
 * as `[key]`, the root (a nil path) prints `<nil>`, and a bad value prints with Go's `%v` for numbers and
 * booleans, `%q` for strings and JSON for maps, lists and null (`{"name":"a"}`; see formatBadValue).
 */

/** One step of a field path: a field of an object, a key of a map (additionalProperties), or a list index. */
export type FieldStep =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly name: string }
  | { readonly kind: 'index'; readonly index: number };

/** The error types custom resource validation produces (field.ErrorType, by their printed names). */
export type FieldErrorType =
  'Invalid value' | 'Unsupported value' | 'Forbidden' | 'Required value' | 'Duplicate value';

/** A field error before it is placed on the YAML: where, what, and the API server's message. */
export interface FieldIssue {
  /** Where the problem is, as the API server names it. */
  readonly path: readonly FieldStep[];
  /** The full message, path included. */
  readonly message: string;
}

/** The steps as an instance path into the object's value (to find the YAML node). */
export function instancePathOf(path: readonly FieldStep[]): (string | number)[] {
  return path.map((step) => (step.kind === 'index' ? step.index : step.name));
}

/** field.Path.String(): `spec.ports[0].name`, `spec.labels[app]`, or `<nil>` for the root. */
export function formatFieldSteps(path: readonly FieldStep[]): string {
  if (path.length === 0) {
    return '<nil>';
  }
  let text = '';
  for (const step of path) {
    if (step.kind === 'field') {
      text += text === '' ? step.name : `.${step.name}`;
    } else if (step.kind === 'key') {
      text += `[${step.name}]`;
    } else {
      text += `[${step.index}]`;
    }
  }
  return text;
}

/**
 * The message of a field.Error. Required and Forbidden never print the value; the others print it (field.Invalid
 * of a CEL rule passes the schema type, "object" or "string", as the value).
 */
export function formatFieldError(
  path: readonly FieldStep[],
  type: FieldErrorType,
  value: unknown,
  detail: string,
): string {
  const body = type === 'Required value' || type === 'Forbidden' ? type : `${type}: ${formatBadValue(value)}`;
  return `${formatFieldSteps(path)}: ${body}${detail === '' ? '' : `: ${detail}`}`;
}

/**
 * How errors.go prints a bad value since Kubernetes 1.34 (kubernetes PR #132314, "Nicer value rendering in API
 * errors"): `%v` for numbers and booleans, `%q` for strings, and JSON for everything else, null included (1.33
 * and earlier printed maps and lists with Go's `%#v`, `map[string]interface {}{"name":"a"}`, and nil as "null").
 */
export function formatBadValue(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return formatGoNumberOrBool(value);
  }
  return goJson(value);
}

/**
 * Go's json.Marshal of a value decoded from JSON into interface{}: compact, map keys sorted, and `<`, `>`, `&`,
 * U+2028 and U+2029 escaped as encoding/json's HTML-safe default does.
 */
export function goJson(value: unknown): string {
  if (value === null || value === undefined) {
    return 'null';
  }
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => {
      return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
    });
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    // encoding/json writes floats as JavaScript does (1e-7, 1e+21), unlike %v's two-digit exponent.
    return String(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => goJson(item)).join(',')}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${goJson(key)}:${goJson(item)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A JSON number as Go prints it after decoding: integers are int64 (`1`), others float64 with %v (`1.5`,
 * `1e+21`).
 */
function formatGoNumberOrBool(value: number | boolean | bigint): string {
  if (typeof value !== 'number' || Number.isInteger(value)) {
    return String(value);
  }
  const text = String(value);
  return text.replace(/e([+-]?)(\d)$/, (_, sign: string, digit: string) => `e${sign || '+'}0${digit}`);
}
