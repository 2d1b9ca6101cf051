/**
 * Evaluates the x-kubernetes-validations rules of a CRD version's schema on a custom resource being created, as
 * the API server's CEL validator does (staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/
 * validation.go): each non-null value is checked by the rules of its schema node (and of that node's allOf
 * branches), then its items, properties and additionalProperties values in turn. A rule that reads oldSelf is a
 * transition rule and does not apply on create, unless optionalOldSelf is set: then oldSelf is optional.none().
 * A false rule is a field error on the node, or on its fieldPath, worded by reason; a rule that fails with
 * "no such key" is an error as upstream words it. A rule we cannot evaluate (a function we lack, a syntax the
 * parser refuses, a runtime error our evaluator may not share with cel-go, a cost beyond the budget) is never an
 * error: it is reported once per resource as not evaluated.
 * Cost: upstream meters each call at run time (PerCallLimit 1,000,000, RuntimeCELCostBudget 10,000,000 per
 * resource). We bound a rule's cost before running it by its syntax tree size times (values under self + 1) to
 * the power of its comprehension nesting, skip a rule whose bound passes the per-call limit, and stop when the
 * bounds add up past the resource budget. Regular expressions run on JavaScript's engine, not RE2.
 */
import { Optional } from '@marcbachmann/cel-js';
import type { FieldErrorType, FieldIssue, FieldStep } from '../field-error';
import { formatFieldError } from '../field-error';
import { toCelValue } from './cel-values';
import { compileRule } from './rule-program';
import { parseRuleFieldPath } from './rule-field-path';
import { appendAll } from '../../../../../protocol/collections';

type SchemaRecord = Record<string, unknown>;

/** What rule evaluation found: failures (errors) and rules it could not evaluate (notes). */
export interface RuleOutcome {
  readonly failures: FieldIssue[];
  readonly notEvaluated: FieldIssue[];
  /** How many rule evaluations ran to a verdict. */
  evaluated: number;
}

/** cel-go's per-call cost limit (staging/src/k8s.io/apiserver/pkg/apis/cel/config.go PerCallLimit). */
export const PER_CALL_COST_LIMIT = 1_000_000;
/** The cost budget of one custom resource (RuntimeCELCostBudget). */
export const RESOURCE_COST_BUDGET = 10_000_000;
/** How many values of self are counted for the cost bound. */
const MAX_COUNTED_VALUES = 100_000;
const MAX_DEPTH = 200;

interface Walk {
  readonly outcome: RuleOutcome;
  budget: number;
  /** Rules already reported as not evaluated (one note per rule text per resource). */
  readonly noted: Set<string>;
}

function isRecord(value: unknown): value is SchemaRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Evaluates every rule of a schema on a (defaulted) custom resource. */
export function evaluateRules(schema: unknown, value: unknown): RuleOutcome {
  const walk: Walk = {
    outcome: { failures: [], notEvaluated: [], evaluated: 0 },
    budget: RESOURCE_COST_BUDGET,
    noted: new Set(),
  };
  visit(schema, value, [], walk, true);
  return walk.outcome;
}

function visit(schema: unknown, value: unknown, path: FieldStep[], walk: Walk, isRoot: boolean): void {
  if (
    !isRecord(schema) ||
    value === null ||
    value === undefined ||
    path.length > MAX_DEPTH ||
    walk.budget < 0
  ) {
    return;
  }
  const type = isRoot ? 'object' : typeof schema['type'] === 'string' ? schema['type'] : '';
  checkNode(schema, type, value, path, walk);
  if (Array.isArray(schema['allOf'])) {
    for (const branch of schema['allOf']) {
      checkNode(branch, type, value, path, walk);
    }
  }
  if (Array.isArray(value)) {
    value.forEach((item: unknown, index) =>
      visit(schema['items'], item, [...path, { kind: 'index', index }], walk, false),
    );
  } else if (isRecord(value)) {
    const properties = isRecord(schema['properties']) ? schema['properties'] : undefined;
    const additional = schema['additionalProperties'];
    for (const [key, child] of Object.entries(value)) {
      if (properties !== undefined && key in properties) {
        visit(properties[key], child, [...path, { kind: 'field', name: key }], walk, false);
      } else if (isRecord(additional)) {
        visit(additional, child, [...path, { kind: 'key', name: key }], walk, false);
      }
    }
  }
}

/** Runs the rules of one schema node on its value. */
function checkNode(schema: unknown, type: string, value: unknown, path: FieldStep[], walk: Walk): void {
  const rules = isRecord(schema) ? schema['x-kubernetes-validations'] : undefined;
  if (!Array.isArray(rules) || rules.length === 0 || !isRecord(schema)) {
    return;
  }
  const self = toCelValue(schema, value);
  const values = countValues(value);
  for (const rule of rules) {
    if (!isRecord(rule) || typeof rule['rule'] !== 'string' || walk.budget < 0) {
      continue;
    }
    checkRule(rule, rule['rule'], { schema, type, self, values, path }, walk);
  }
}

interface Subject {
  readonly schema: SchemaRecord;
  readonly type: string;
  readonly self: unknown;
  readonly values: number;
  readonly path: FieldStep[];
}

function checkRule(rule: SchemaRecord, text: string, subject: Subject, walk: Walk): void {
  const program = compileRule(text);
  if (!program.ok) {
    note(walk, subject.path, text, program.reason);
    return;
  }
  const optionalOldSelf = rule['optionalOldSelf'] === true;
  if (program.usesOldSelf && !optionalOldSelf) {
    return; // a transition rule: nothing to compare with on create
  }
  const cost = program.size * Math.pow(subject.values + 1, program.loopDepth);
  if (cost > PER_CALL_COST_LIMIT) {
    note(
      walk,
      subject.path,
      text,
      `its cost bound (${formatCost(cost)}) is over the per-call limit of ${formatCost(PER_CALL_COST_LIMIT)}`,
    );
    return;
  }
  walk.budget -= cost;
  if (walk.budget < 0) {
    note(
      walk,
      subject.path,
      text,
      'the cost budget of the resource is spent; no further rules are evaluated',
    );
    return;
  }
  const bindings = optionalOldSelf
    ? { self: subject.self, oldSelf: Optional.none() }
    : { self: subject.self };
  let result: unknown;
  try {
    result = program.run(bindings);
  } catch (error: unknown) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    const missingKey = /^No such key: (.*)$/i.exec(message);
    if (missingKey !== null) {
      walk.outcome.evaluated++;
      const detail = `no such key: ${missingKey[1] ?? ''} evaluating rule: ${ruleErrorString(rule, text)}`;
      walk.outcome.failures.push({
        path: subject.path,
        message: formatFieldError(subject.path, 'Invalid value', subject.type, detail),
      });
    } else {
      note(walk, subject.path, text, `it failed here with "${message}"`);
    }
    return;
  }
  if (typeof result !== 'boolean') {
    note(walk, subject.path, text, 'it did not evaluate to a boolean here');
    return;
  }
  walk.outcome.evaluated++;
  if (!result) {
    walk.outcome.failures.push(failureOf(rule, text, subject, bindings));
  }
}

/** The field error of a false rule (fieldErrorForReason, with the message or messageExpression). */
function failureOf(
  rule: SchemaRecord,
  text: string,
  subject: Subject,
  bindings: Record<string, unknown>,
): FieldIssue {
  const relative =
    typeof rule['fieldPath'] === 'string' ? parseRuleFieldPath(rule['fieldPath'], subject.schema) : [];
  const path = [...subject.path, ...(relative ?? [])];
  const detail = messageOf(rule, bindings) ?? ruleMessageOrDefault(rule, text);
  const reason = rule['reason'];
  const type: FieldErrorType =
    reason === 'FieldValueForbidden'
      ? 'Forbidden'
      : reason === 'FieldValueRequired'
        ? 'Required value'
        : reason === 'FieldValueDuplicate'
          ? 'Duplicate value'
          : 'Invalid value';
  return {
    path,
    message: formatFieldError(path, type, subject.type, type === 'Duplicate value' ? '' : detail),
  };
}

/** The messageExpression's text, when it evaluates to a non-empty single line (else the message is used). */
function messageOf(rule: SchemaRecord, bindings: Record<string, unknown>): string | undefined {
  const expression = rule['messageExpression'];
  if (typeof expression !== 'string') {
    return undefined;
  }
  const program = compileRule(expression);
  if (!program.ok) {
    return undefined;
  }
  try {
    const text: unknown = program.run(bindings);
    const trimmed = typeof text === 'string' ? text.trim() : '';
    return trimmed === '' || trimmed.includes('\n') || trimmed.length > 5 * 1024 ? undefined : trimmed;
  } catch {
    return undefined;
  }
}

function ruleMessageOrDefault(rule: SchemaRecord, text: string): string {
  const message = typeof rule['message'] === 'string' ? rule['message'].trim() : '';
  return message === '' ? `failed rule: ${text.trim()}` : message;
}

function ruleErrorString(rule: SchemaRecord, text: string): string {
  const message = typeof rule['message'] === 'string' ? rule['message'].trim() : '';
  return message === '' ? text.trim() : message;
}

function note(walk: Walk, path: FieldStep[], text: string, reason: string): void {
  if (walk.noted.has(text)) {
    return;
  }
  walk.noted.add(text);
  walk.outcome.notEvaluated.push({
    path,
    message: `x-kubernetes-validations rule not evaluated: ${reason}: ${text.trim()}`,
  });
}

/** How many JSON values a value holds (itself included), up to a cap. */
function countValues(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count < MAX_COUNTED_VALUES) {
    const current = stack.pop();
    count++;
    if (Array.isArray(current)) {
      appendAll(stack, current as unknown[]);
    } else if (isRecord(current)) {
      appendAll(stack, Object.values(current));
    }
  }
  return count;
}

function formatCost(cost: number): string {
  return cost >= 1e15 ? cost.toExponential(1) : Math.round(cost).toLocaleString('en-US');
}
