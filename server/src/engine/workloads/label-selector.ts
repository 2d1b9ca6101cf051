/**
 * Label selectors (metav1.LabelSelector: matchLabels and matchExpressions), as workload controllers and the API
 * server's validation read them: every matchLabels pair and every expression must hold. An empty selector
 * matches everything (LabelSelectorAsSelector), which is why workload validation rejects it.
 * https://github.com/kubernetes/apimachinery/blob/master/pkg/apis/meta/v1/helpers.go
 */
import { asArray, asObject, isJsonObject, readStringMap } from '../model/json';

/** A parsed selector, or why it is malformed (with the path of the bad part inside the selector). */
type LabelSelectorParse =
  | { readonly ok: true; readonly selector: LabelSelector }
  | { readonly ok: false; readonly message: string; readonly path: readonly (string | number)[] };

/** A usable selector. */
export interface LabelSelector {
  /** Whether it has no requirement at all (and so would select every pod). */
  readonly isEmpty: boolean;
  /** Whether a set of labels satisfies it. */
  matches(labels: Readonly<Record<string, string>>): boolean;
}

interface Requirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values: readonly string[];
}

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/** Parses a LabelSelector object (matchLabels, matchExpressions). */
export function parseLabelSelector(value: unknown): LabelSelectorParse {
  const selector = asObject(value);
  const matchLabels = readStringMap(selector['matchLabels']);
  const requirements: Requirement[] = [];
  const expressions = asArray(selector['matchExpressions']);
  for (const [index, item] of expressions.entries()) {
    const path = ['matchExpressions', index];
    if (!isJsonObject(item) || typeof item['key'] !== 'string' || item['key'] === '') {
      return { ok: false, message: 'a match expression needs a key', path };
    }
    const operator = item['operator'];
    if (typeof operator !== 'string' || !OPERATORS.has(operator)) {
      return {
        ok: false,
        message: `${JSON.stringify(operator)} is not a valid label selector operator`,
        path,
      };
    }
    const values = asArray(item['values']).filter((v): v is string => typeof v === 'string');
    const needsValues = operator === 'In' || operator === 'NotIn';
    if (needsValues && values.length === 0) {
      return { ok: false, message: "values must be specified when `operator` is 'In' or 'NotIn'", path };
    }
    if (!needsValues && values.length > 0) {
      return {
        ok: false,
        message: "values may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        path,
      };
    }
    requirements.push({ key: item['key'], operator: operator as Requirement['operator'], values });
  }
  const isEmpty = Object.keys(matchLabels).length === 0 && requirements.length === 0;
  const matches = (labels: Readonly<Record<string, string>>): boolean =>
    Object.entries(matchLabels).every(([key, wanted]) => labels[key] === wanted) &&
    requirements.every((requirement) => matchesRequirement(requirement, labels));
  return { ok: true, selector: { isEmpty, matches } };
}

function matchesRequirement(requirement: Requirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, requirement.key);
  const value = labels[requirement.key];
  switch (requirement.operator) {
    case 'In':
      return has && value !== undefined && requirement.values.includes(value);
    case 'NotIn':
      return !has || value === undefined || !requirement.values.includes(value);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
  }
}
