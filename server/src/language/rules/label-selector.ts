/**
 * Label selectors (metav1.LabelSelector: matchLabels and matchExpressions) as the API server reads them: which
 * requirement a set of labels fails, and which selectors are malformed (an unknown operator, In without values).
 * Semantics from k8s.io/apimachinery/pkg/labels/selector.go (Requirement.Matches) and the structural checks from
 * ValidateLabelSelectorRequirement in
 * https://github.com/kubernetes/apimachinery/blob/v0.35.0/pkg/apis/meta/v1/validation/validation.go.
 */
import { formatPath } from '../schema/validate-object';
import type { InstancePath } from '../yaml/node-at-path';
import { checkLabelKey, checkLabelValue } from './name-formats';
import type { PlainRecord } from './rule-support';
import { listAt, labelEntriesAt } from './rule-support';
import { isRecord } from '../../engine/model/objects';

/** The operators a LabelSelectorRequirement may use. */
const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

/** A problem with one selector requirement, located by a path relative to the object. */
export interface SelectorProblem {
  /** The YAML node to report on. */
  readonly path: InstancePath;
  /** Whether to report on the key at the path rather than its value. */
  readonly onKey: boolean;
  readonly message: string;
  /** When set, writing this label value at the path makes the requirement hold. */
  readonly replacementValue?: string;
}

/** The findings of reading a selector: malformed requirements, and which requirements labels fail. */
interface SelectorReading {
  /** Malformed requirements (the API server rejects the selector before matching it). */
  readonly malformed: SelectorProblem[];
  /** Whether the selector has neither matchLabels nor matchExpressions. */
  readonly isEmpty: boolean;
  /** Whether a key or value is not valid label syntax (reported by the label rule; matching is skipped). */
  readonly hasInvalidLabels: boolean;
}

/** Reads a LabelSelector at a path of an object for structural problems. */
export function readSelector(selector: PlainRecord, selectorPath: InstancePath): SelectorReading {
  const malformed: SelectorProblem[] = [];
  const matchLabels = labelEntriesAt(selector, ['matchLabels']);
  const expressions = listAt(selector, ['matchExpressions']);
  let hasInvalidLabels = matchLabels.some(
    ([key, value]) => checkLabelKey(key).length > 0 || checkLabelValue(value).length > 0,
  );
  expressions.forEach((expression, index) => {
    if (!isRecord(expression)) {
      return;
    }
    const path = [...selectorPath, 'matchExpressions', index];
    const operator = expression['operator'];
    const values = Array.isArray(expression['values']) ? expression['values'] : [];
    const key = expression['key'];
    if (typeof key === 'string' && checkLabelKey(key).length > 0) {
      hasInvalidLabels = true;
    }
    if (values.some((value) => typeof value === 'string' && checkLabelValue(value).length > 0)) {
      hasInvalidLabels = true;
    }
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) {
        malformed.push({
          path: [...path, 'operator'],
          onKey: false,
          message: `${formatPath([...path, 'values'])}: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
        });
      }
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length > 0) {
        malformed.push({
          path: [...path, 'values'],
          onKey: true,
          message: `${formatPath([...path, 'values'])}: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
        });
      }
    } else if (typeof operator === 'string') {
      const fixed = SELECTOR_OPERATORS.find((known) => known.toLowerCase() === operator.toLowerCase());
      malformed.push({
        path: [...path, 'operator'],
        onKey: false,
        message: `${formatPath([...path, 'operator'])}: Invalid value: ${JSON.stringify(operator)}: not a valid selector operator`,
        ...(fixed === undefined ? {} : { replacementValue: fixed }),
      });
    }
  });
  return { malformed, isEmpty: matchLabels.length === 0 && expressions.length === 0, hasInvalidLabels };
}

/**
 * The requirements of a well-formed selector that a set of labels does not meet, each with a sentence naming
 * the label ("the selector requires app=web, but the pod template has app=api").
 */
export function unmetRequirements(
  selector: PlainRecord,
  selectorPath: InstancePath,
  labels: ReadonlyMap<string, string>,
  subject: string,
): SelectorProblem[] {
  const problems: SelectorProblem[] = [];
  for (const [key, wanted] of labelEntriesAt(selector, ['matchLabels'])) {
    const actual = labels.get(key);
    const path = [...selectorPath, 'matchLabels', key];
    if (actual === undefined) {
      problems.push({
        path,
        onKey: true,
        message: `the selector requires ${key}=${wanted}, but ${subject} has no label ${key}.`,
      });
    } else if (actual !== wanted) {
      problems.push({
        path,
        onKey: false,
        message: `the selector requires ${key}=${wanted}, but ${subject} has ${key}=${actual}.`,
        replacementValue: actual,
      });
    }
  }
  listAt(selector, ['matchExpressions']).forEach((expression, index) => {
    if (isRecord(expression) && typeof expression['key'] === 'string') {
      const problem = unmetExpression(
        expression,
        expression['key'],
        [...selectorPath, 'matchExpressions', index],
        labels,
        subject,
      );
      if (problem !== undefined) {
        problems.push(problem);
      }
    }
  });
  return problems;
}

function unmetExpression(
  expression: PlainRecord,
  key: string,
  path: InstancePath,
  labels: ReadonlyMap<string, string>,
  subject: string,
): SelectorProblem | undefined {
  const values = listAt(expression, ['values']).filter((value): value is string => typeof value === 'string');
  const actual = labels.get(key);
  const has = actual === undefined ? `has no label ${key}` : `has ${key}=${actual}`;
  const list = `(${values.join(', ')})`;
  switch (expression['operator']) {
    case 'In':
      if (actual !== undefined && values.includes(actual)) {
        return undefined;
      }
      return {
        path: actual === undefined ? [...path, 'key'] : [...path, 'values'],
        onKey: false,
        message: `the selector requires ${key} in ${list}, but ${subject} ${has}.`,
      };
    case 'NotIn': {
      const index = actual === undefined ? -1 : values.indexOf(actual);
      if (index === -1) {
        return undefined;
      }
      return {
        path: [...path, 'values', listAt(expression, ['values']).indexOf(actual)],
        onKey: false,
        message: `the selector requires ${key} notin ${list}, but ${subject} ${has}.`,
      };
    }
    case 'Exists':
      return actual !== undefined
        ? undefined
        : {
            path: [...path, 'key'],
            onKey: false,
            message: `the selector requires the label ${key}, but ${subject} ${has}.`,
          };
    case 'DoesNotExist':
      return actual === undefined
        ? undefined
        : {
            path: [...path, 'key'],
            onKey: false,
            message: `the selector requires no label ${key}, but ${subject} ${has}.`,
          };
    default:
      return undefined;
  }
}

/** Whether labels satisfy a map selector (Service, ReplicationController): every pair present and equal. */
export function mapSelectorMatches(
  selector: readonly [string, string][],
  labels: ReadonlyMap<string, string>,
): boolean {
  return selector.every(([key, value]) => labels.get(key) === value);
}

/** The string labels of the mapping at a path, as a map. */
export function labelsAt(value: unknown, path: InstancePath): Map<string, string> {
  return new Map(labelEntriesAt(value, path));
}
