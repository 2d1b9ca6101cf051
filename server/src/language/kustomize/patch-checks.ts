/**
 * Checks of kustomize patch files. A strategic-merge patch is a partial object: its fields must exist at their
 * paths for its kind, with the right types, but none is required, and the patch directives of
 * https://github.com/kubernetes/community/blob/master/contributors/devel/sig-api-machinery/strategic-merge-patch.md
 * are allowed. A JSON6902 patch (RFC 6902) is a list of operations, checked for its shape only: whether a path
 * exists in the target is known after rendering, which is left out.
 */
import type { Node } from 'yaml';
import type { FindingCode } from '../../../../protocol/finding-codes';
import type { TextFinding } from '../findings';
import { rangeForValue } from '../yaml/node-at-path';
import { severityOf } from '../findings';

/** Keys of strategic-merge patch directives ($patch, $retainKeys, $setElementOrder/…, $deleteFromPrimitiveList/…). */
const DIRECTIVE_PATTERN = /^\$(?:patch|retainKeys|setElementOrder\/|deleteFromPrimitiveList\/)/;

/** A copy of a strategic-merge patch's value without its directives, so that the schema sees fields only. */
export function withoutPatchDirectives(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((item: unknown) => withoutPatchDirectives(item));
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (!DIRECTIVE_PATTERN.test(key)) {
      copy[key] = withoutPatchDirectives(child);
    }
  }
  return copy;
}

/** The operations of RFC 6902 and the field each needs besides op and path. */
const OPERATIONS: Readonly<Record<string, 'value' | 'from' | undefined>> = {
  add: 'value',
  remove: undefined,
  replace: 'value',
  move: 'from',
  copy: 'from',
  test: 'value',
};

/** A JSON pointer (RFC 6901): empty, or "/" segments with ~ escaped as ~0 or ~1. */
const POINTER_PATTERN = /^(?:\/(?:[^~/]|~[01])*)*$/;

/** Checks a JSON6902 patch: each item an operation with a known op, a JSON pointer path and its value or from. */
export function checkJsonPatch(value: readonly unknown[], node: Node | undefined): TextFinding[] {
  const findings: TextFinding[] = [];
  const report = (code: FindingCode, path: (string | number)[], message: string): void => {
    const range = rangeForValue(node, path);
    if (range !== undefined) {
      findings.push({ code, severity: severityOf(code), message, start: range[0], end: range[1] });
    }
  };
  value.forEach((item: unknown, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      report(
        'schema-type',
        [index],
        `Operation ${index + 1} of this JSON patch must be a mapping with op and path.`,
      );
      return;
    }
    const operation = item as Record<string, unknown>;
    const op = operation['op'];
    if (typeof op !== 'string' || !Object.hasOwn(OPERATIONS, op)) {
      report(
        op === undefined ? 'schema-required' : 'schema-enum',
        op === undefined ? [index] : [index, 'op'],
        `Unsupported JSON patch op ${op === undefined ? '(missing)' : JSON.stringify(op)}: supported values: ${Object.keys(
          OPERATIONS,
        )
          .map((name) => `"${name}"`)
          .join(', ')}`,
      );
      return;
    }
    for (const field of ['path', ...(OPERATIONS[op] === 'from' ? ['from'] : [])]) {
      const pointer = operation[field];
      if (typeof pointer !== 'string' || !POINTER_PATTERN.test(pointer)) {
        report(
          pointer === undefined ? 'schema-required' : 'schema-constraint',
          pointer === undefined ? [index] : [index, field],
          `"${field}" of a JSON patch "${op}" must be a JSON pointer such as /spec/replicas${pointer === undefined ? '; it is missing' : `, not ${JSON.stringify(pointer)}`}.`,
        );
      }
    }
    if (OPERATIONS[op] === 'value' && !Object.hasOwn(operation, 'value')) {
      report('schema-required', [index], `A JSON patch "${op}" needs a "value".`);
    }
  });
  return findings;
}
