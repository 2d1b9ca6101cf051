/**
 * kube-scheduler reports configuration errors as apimachinery field errors ("profiles[0].plugins.score.enabled[1]:
 * Invalid value: ..."); these helpers word ours the same way, so a user can search for the upstream message.
 * https://github.com/kubernetes/apimachinery/blob/master/pkg/util/validation/field/errors.go
 */

/** A path inside the configuration object: ['profiles', 0, 'pluginConfig', 1, 'args']. */
export type ConfigPath = readonly (string | number)[];

/** Formats a path the way field.Path.String() does: profiles[0].pluginConfig[1].args. */
export function fieldPath(path: ConfigPath): string {
  let text = '';
  for (const part of path) {
    text += typeof part === 'number' ? `[${part}]` : text === '' ? part : `.${part}`;
  }
  return text;
}

/** How a bad value is printed: strings quoted, everything else as JSON. */
function printValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
}

/** field.Invalid(path, value, detail). */
export function invalidValue(path: ConfigPath, value: unknown, detail: string): string {
  return `${fieldPath(path)}: Invalid value: ${printValue(value)}: ${detail}`;
}

/** field.Required(path, detail). */
export function requiredValue(path: ConfigPath, detail = ''): string {
  return `${fieldPath(path)}: Required value${detail === '' ? '' : `: ${detail}`}`;
}

/** field.NotSupported(path, value, supported). */
export function unsupportedValue(path: ConfigPath, value: unknown, supported: readonly string[]): string {
  const list = supported.map((entry) => JSON.stringify(entry)).join(', ');
  return `${fieldPath(path)}: Unsupported value: ${printValue(value)}: supported values: ${list}`;
}

/** field.Duplicate(path, value). */
export function duplicateValue(path: ConfigPath, value: unknown): string {
  return `${fieldPath(path)}: Duplicate value: ${printValue(value)}`;
}

/** field.Forbidden(path, detail). */
export function forbiddenValue(path: ConfigPath, detail: string): string {
  return `${fieldPath(path)}: Forbidden: ${detail}`;
}
