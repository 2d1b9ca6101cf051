/**
 * What the API server checks on a custom resource beyond the OpenAPI value validations ajv does: unknown fields
 * as kubectl's strict field validation words them (`unknown field "spec.foo"`), then, on the value defaulted from
 * the schema as the API server defaults it (the caller defaults it), list-type set and map uniqueness (list-type.ts) and the CRD's
 * x-kubernetes-validations rules (cel/rule-validator.ts). Each problem is placed on its field's key, or on the
 * kind for the resource root.
 */
import type { ErrorObject } from 'ajv';
import type { Node } from 'yaml';
import type { DiagnosticCode, TextFinding } from '../findings';
import { findingAt } from '../rules/rule-support';
import { closestMatch } from '../schema/closest-match';
import { rangeForKey, rangeForValue } from '../yaml/node-at-path';
import { evaluateRules } from './cel/rule-validator';
import type { FieldIssue, FieldStep } from './field-error';
import { formatFieldSteps, instancePathOf } from './field-error';
import { checkListTypes } from './list-type';
import { appendAll } from '../../../../protocol/collections';

/** How many rules ran and how many could not be evaluated, for one resource. */
export interface RuleCounts {
  readonly evaluated: number;
  readonly notEvaluated: number;
}

/**
 * The list-type and CEL rule findings of a custom resource against its version's structural schema; the value
 * is the resource defaulted from the schema (schema-defaults.ts).
 */
export function checkListsAndRules(
  schema: unknown,
  defaulted: unknown,
  node: Node | undefined,
  hasRules: boolean,
): { findings: TextFinding[]; counts: RuleCounts } {
  const findings = place(checkListTypes(schema, defaulted), 'crd-list-duplicate', node);
  if (!hasRules) {
    return { findings, counts: { evaluated: 0, notEvaluated: 0 } };
  }
  const outcome = evaluateRules(schema, defaulted);
  appendAll(findings, [
    ...place(outcome.failures, 'crd-validation-rule', node),
    ...place(outcome.notEvaluated, 'crd-rule-not-evaluated', node),
  ]);
  return { findings, counts: { evaluated: outcome.evaluated, notEvaluated: outcome.notEvaluated.length } };
}

function place(issues: readonly FieldIssue[], code: DiagnosticCode, node: Node | undefined): TextFinding[] {
  return issues.flatMap((issue) => findingAt(rangeOf(issue.path, node), code, issue.message));
}

function rangeOf(path: readonly FieldStep[], node: Node | undefined): readonly [number, number] | undefined {
  return path.length === 0 ? rangeForValue(node, ['kind']) : rangeForKey(node, instancePathOf(path));
}

/**
 * ajv's additionalProperties errors as kubectl prints a strict decoding error (`strict decoding error: unknown
 * field "spec.foo"`), with the nearest known name as a fix.
 */
export function unknownFieldFindings(
  errors: readonly ErrorObject[],
  value: unknown,
  node: Node | undefined,
): TextFinding[] {
  return errors.flatMap((error) => {
    const field = String((error.params as { additionalProperty?: unknown }).additionalProperty);
    const path: FieldStep[] = [...stepsOf(error.instancePath, value), { kind: 'field', name: field }];
    const properties = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)
      ?.properties;
    const suggestion = closestMatch(field, Object.keys(properties ?? {}));
    return findingAt(
      rangeForKey(node, instancePathOf(path)),
      'schema-unknown-field',
      `unknown field "${formatFieldSteps(path)}"` +
        (suggestion === undefined ? '' : `; did you mean "${suggestion}"?`),
      suggestion === undefined ? undefined : { replacement: suggestion, title: `Change to "${suggestion}"` },
    );
  });
}

/** A JSON pointer into a value as field steps (indexes where the value is a list). */
function stepsOf(pointer: string, value: unknown): FieldStep[] {
  const steps: FieldStep[] = [];
  let current: unknown = value;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      steps.push({ kind: 'index', index: Number(segment) });
      current = current[Number(segment)];
    } else {
      steps.push({ kind: 'field', name: segment });
      current =
        typeof current === 'object' && current !== null
          ? (current as Record<string, unknown>)[segment]
          : undefined;
    }
  }
  return steps;
}
