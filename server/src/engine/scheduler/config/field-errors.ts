import { formatFieldPath } from '../../../../../protocol/finding';
/**
 * kube-scheduler reports configuration errors as apimachinery field errors ("profiles[0].plugins.score.enabled[1]:
 * Invalid value: ..."); these helpers word ours the same way, so a user can search for the upstream message.
 * https://github.com/kubernetes/apimachinery/blob/master/pkg/util/validation/field/errors.go
 * Paths are formatted by model/findings.ts's formatFieldPath, as field.Path.String() does:
 * profiles[0].pluginConfig[1].args.
 */

/** A path inside the configuration object: ['profiles', 0, 'pluginConfig', 1, 'args']. */
export type ConfigPath = readonly (string | number)[];

/** How a bad value is printed: strings quoted, everything else as JSON. */
function printValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
}

/** field.Invalid(path, value, detail). */
export function fieldInvalid(path: ConfigPath, value: unknown, detail: string): string {
  return `${formatFieldPath(path)}: Invalid value: ${printValue(value)}: ${detail}`;
}

/** field.Required(path, detail). */
export function fieldRequired(path: ConfigPath, detail = ''): string {
  return `${formatFieldPath(path)}: Required value${detail === '' ? '' : `: ${detail}`}`;
}

/** field.NotSupported(path, value, supported). */
export function fieldNotSupported(path: ConfigPath, value: unknown, supported: readonly string[]): string {
  const list = supported.map((entry) => JSON.stringify(entry)).join(', ');
  return `${formatFieldPath(path)}: Unsupported value: ${printValue(value)}: supported values: ${list}`;
}

/** field.Duplicate(path, value). */
export function fieldDuplicate(path: ConfigPath, value: unknown): string {
  return `${formatFieldPath(path)}: Duplicate value: ${printValue(value)}`;
}

/** field.Forbidden(path, detail). */
export function fieldForbidden(path: ConfigPath, detail: string): string {
  return `${formatFieldPath(path)}: Forbidden: ${detail}`;
}
