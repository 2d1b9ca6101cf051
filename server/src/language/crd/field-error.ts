/**
 * Field errors of custom resource validation, worded as the API server's field.Error prints them
 * (staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go and path.go):
 * `<path>: <type>[: <value>][: <detail>]`, where the path joins fields with ".", indexes as `[0]` and map keys
 * as `[key]`, the root (a nil path) prints `<nil>`, and a bad value prints with Go's `%v` for scalars, `%q` for
 * strings and `%#v` for maps and lists (`map[string]interface {}{"name":"a"}`).
 */

/** One step of a field path: a field of an object, a key of a map (additionalProperties), or a list index. */
export type FieldStep =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly name: string }
  | { readonly kind: 'index'; readonly index: number };

/** The error types custom resource validation produces (field.ErrorType, by their printed names). */
export type FieldErrorType = 'Invalid value' | 'Forbidden' | 'Required value' | 'Duplicate value';

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

/** How errors.go prints a bad value: `%v` for numbers and booleans, `%q` for strings, `%#v` otherwise. */
export function formatBadValue(value: unknown): string {
  if (value === null || value === undefined) {
    return '"null"';
  }
  if (typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return formatGoNumberOrBool(value);
  }
  return goSyntax(value);
}

/** Go's `%#v` of a value decoded from JSON into interface{} (maps print with sorted keys). */
export function goSyntax(value: unknown): string {
  if (value === null || value === undefined) {
    return 'interface {}(nil)';
  }
  if (typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return formatGoNumberOrBool(value);
  }
  if (Array.isArray(value)) {
    return `[]interface {}{${value.map((item) => goSyntax(item)).join(', ')}}`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${goSyntax(item)}`);
    return `map[string]interface {}{${entries.join(', ')}}`;
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
