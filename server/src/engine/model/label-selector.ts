/**
 * Pod label selectors as the scheduler evaluates them (apimachinery's labels.Selector), compiled once and matched
 * many times: PodTopologySpread constraints, pod (anti-)affinity terms, namespace selectors, Service and workload
 * selectors, PodDisruptionBudgets.
 * https://github.com/kubernetes/apimachinery/blob/master/pkg/apis/meta/v1/helpers.go (LabelSelectorAsSelector)
 * https://github.com/kubernetes/apimachinery/blob/master/pkg/labels/selector.go
 *
 * A nil selector selects nothing, an empty one everything. A malformed selector (unknown operator, In without
 * values, Exists with values) is reported as not ok: upstream returns an error there. Label key and value syntax is
 * not checked (the API server rejects such objects first).
 */
import type { LabelSelectorObject } from './objects';
import { isRecord } from './objects';

/** A label requirement, after labels.Requirement. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values: readonly string[];
}

/** Labels of a pod, a node or a namespace. */
export type Labels = Readonly<Record<string, string>>;

/** A compiled selector. */
export interface PodLabelSelector {
  /** Whether it selects nothing at all (labels.Nothing(): a nil selector). */
  readonly isNothing: boolean;
  /** Whether it has no requirement (selector.Empty()); an empty selector that is not Nothing selects everything. */
  readonly isEmpty: boolean;
  readonly requirements: readonly LabelRequirement[];
  /** A canonical text, equal for equal selectors (requirements sorted), for cache keys. */
  readonly key: string;
  /** Whether the labels satisfy every requirement. */
  matches(labels: Labels): boolean;
}

/** The result of compiling a LabelSelector object. */
type SelectorCompilation =
  | { readonly ok: true; readonly selector: PodLabelSelector }
  | { readonly ok: false; readonly message: string };

/** labels.Nothing(). */
export const NOTHING_SELECTOR: PodLabelSelector = Object.freeze({
  isNothing: true,
  isEmpty: false,
  requirements: Object.freeze([]),
  key: '<nothing>',
  matches: () => false,
});

/** A selector from requirements (ANDed). */
export function selectorFromRequirements(requirements: readonly LabelRequirement[]): PodLabelSelector {
  const sorted = [...requirements].sort(compareRequirements);
  const key = sorted.map(requirementText).join(',');
  const checks = sorted.map(requirementCheck);
  return {
    isNothing: false,
    isEmpty: sorted.length === 0,
    requirements: sorted,
    key,
    matches: (labels) => {
      for (const check of checks) {
        if (!check(labels)) {
          return false;
        }
      }
      return true;
    },
  };
}

/** labels.SelectorFromSet: one equality requirement per pair. */
export function selectorFromSet(set: Labels): PodLabelSelector {
  return selectorFromRequirements(Object.keys(set).map((key) => equals(key, set[key] ?? '')));
}

/** selector.Add: the requirements of both (Nothing absorbs as upstream's nothingSelector.Add does). */
export function addRequirements(
  selector: PodLabelSelector,
  requirements: readonly LabelRequirement[],
): PodLabelSelector {
  if (selector.isNothing) {
    return selector;
  }
  return selectorFromRequirements([...selector.requirements, ...requirements]);
}

/** An equality requirement (key = value), as matchLabels entries become. */
export function equals(key: string, value: string): LabelRequirement {
  return { key, operator: 'In', values: [value] };
}

/** metav1.LabelSelectorAsSelector for a LabelSelector object as written (unchecked JSON). */
export function compileLabelSelector(selector: LabelSelectorObject | null | undefined): SelectorCompilation {
  const raw: unknown = selector;
  if (raw === undefined || raw === null) {
    return { ok: true, selector: NOTHING_SELECTOR };
  }
  if (!isRecord(raw)) {
    return { ok: false, message: 'a label selector must be an object' };
  }
  const requirements: LabelRequirement[] = [];
  const matchLabels = raw['matchLabels'];
  if (matchLabels !== undefined && matchLabels !== null) {
    if (!isRecord(matchLabels)) {
      return { ok: false, message: 'matchLabels must be a map of strings' };
    }
    for (const [key, value] of Object.entries(matchLabels)) {
      requirements.push(equals(key, String(value)));
    }
  }
  const expressions = raw['matchExpressions'];
  for (const expression of Array.isArray(expressions) ? (expressions as unknown[]) : []) {
    const parsed = parseExpression(expression);
    if (typeof parsed === 'string') {
      return { ok: false, message: parsed };
    }
    requirements.push(parsed);
  }
  return { ok: true, selector: selectorFromRequirements(requirements) };
}

/** One matchExpressions entry, or why it is malformed (labels.NewRequirement's checks on operator and values). */
function parseExpression(expression: unknown): LabelRequirement | string {
  if (!isRecord(expression)) {
    return 'a match expression must be an object';
  }
  const operator = expression['operator'];
  const rawValues = expression['values'];
  const values = Array.isArray(rawValues) ? (rawValues as unknown[]).map(String) : [];
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length === 0) {
      return "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty";
    }
  } else if (operator === 'Exists' || operator === 'DoesNotExist') {
    if (values.length > 0) {
      return `values: Invalid value: ${JSON.stringify(values)}: values set must be empty for exists and does not exist`;
    }
  } else {
    return `"${String(operator)}" is not a valid label selector operator`;
  }
  return { key: String(expression['key']), operator, values };
}

/** Compiles a selector; a malformed one selects nothing (callers that must report errors use compileLabelSelector). */
export function compileOrNothing(selector: LabelSelectorObject | null | undefined): PodLabelSelector {
  const compiled = compileLabelSelector(selector);
  return compiled.ok ? compiled.selector : NOTHING_SELECTOR;
}

/**
 * A selector as written, compiled on its first read. ClusterObjects keeps every workload's selector though most are
 * never read (PodTopologySpread's default selector reads those of the pods it scores), and the engine loads the
 * manifests twice per simulation. The objects it reads are never changed (the input is read-only), so compiling
 * later gives what compiling at once gave.
 */
export class LazySelector {
  private compiled: PodLabelSelector | undefined;

  constructor(private readonly raw: LabelSelectorObject | null | undefined) {}

  /** compileOrNothing of the selector, made once. */
  get value(): PodLabelSelector {
    this.compiled ??= compileOrNothing(this.raw);
    return this.compiled;
  }
}

function requirementCheck(requirement: LabelRequirement): (labels: Labels) => boolean {
  const { key, values } = requirement;
  // Inherited properties of a labels object are never strings, so comparing with a string value needs no
  // own-property check (the hot path: pods matched against selectors for every change of the cluster).
  switch (requirement.operator) {
    case 'In':
      if (values.length === 1) {
        const only = values[0];
        return (labels) => labels[key] === only;
      }
      return (labels) => {
        const value = labels[key];
        return typeof value === 'string' && values.includes(value);
      };
    case 'NotIn':
      return (labels) => {
        const value = labels[key];
        return typeof value !== 'string' || !values.includes(value);
      };
    case 'Exists':
      return (labels) => Object.hasOwn(labels, key);
    case 'DoesNotExist':
      return (labels) => !Object.hasOwn(labels, key);
  }
}

function requirementText(requirement: LabelRequirement): string {
  const values = [...requirement.values].sort().join('|');
  return `${requirement.key} ${requirement.operator} (${values})`;
}

function compareRequirements(a: LabelRequirement, b: LabelRequirement): number {
  const x = requirementText(a);
  const y = requirementText(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The value of a label, or undefined when absent (never an inherited property of the labels object). */
export function labelValue(labels: Labels, key: string): string | undefined {
  const value = labels[key];
  return typeof value === 'string' ? value : undefined;
}
