/**
 * selector-mismatch: a workload whose selector does not select the pods of its own template. The API server
 * rejects these with "spec.template.metadata.labels: Invalid value: map[string]string{…}: `selector` does not
 * match template `labels`"; we say which label differs and put the finding on that part of the selector.
 * Upstream: ValidateDeploymentSpec, ValidateReplicaSetSpec, ValidateStatefulSetSpec, ValidateDaemonSetSpec in
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/apps/validation/validation.go,
 * ValidateReplicationControllerSpec in pkg/apis/core/validation/validation.go and validateJobSpec (manualSelector)
 * in pkg/apis/batch/validation/validation.go. Left out: Jobs without manualSelector (their selector is generated).
 */
import type { ObjectRule } from '../analyzer';
import type { TextFinding } from '../findings';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { groupOf } from '../kubernetes/pod-spec-paths';
import type { InstancePath } from '../yaml/node-at-path';
import { rangeForKey, rangeForValue } from '../yaml/node-at-path';
import type { SelectorProblem } from './label-selector';
import { labelsAt, readSelector, unmetRequirements } from './label-selector';
import { findingAt, recordAt, scalarReplacement, labelEntriesAt, valueAt } from './rule-support';
import { isRecord } from '../../engine/model/objects';

const MISMATCH = '`selector` does not match template `labels`';
const TEMPLATE_LABELS: InstancePath = ['spec', 'template', 'metadata', 'labels'];
const SELECTOR: InstancePath = ['spec', 'selector'];

/** Workloads of apps/v1 whose spec.selector must be non-empty and select the template. */
const APPS_WORKLOADS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet']);

/** Checks that a workload's selector selects its pod template. */
export const checkSelectorMatchesTemplate: ObjectRule = (object) => {
  const group = groupOf(object.apiVersion);
  if (group === 'apps' && APPS_WORKLOADS.has(object.kind)) {
    return checkLabelSelector(object, true);
  }
  if (
    group === 'batch' &&
    object.kind === 'Job' &&
    valueAt(object.value, ['spec', 'manualSelector']) === true
  ) {
    return checkLabelSelector(object, false);
  }
  if (group === '' && object.kind === 'ReplicationController') {
    return checkMapSelector(object);
  }
  return [];
};

function checkLabelSelector(object: ManifestObject, requiresNonEmpty: boolean): TextFinding[] {
  const selector = valueAt(object.value, SELECTOR);
  if (!isRecord(selector)) {
    // A missing selector is a schema finding (apps/v1 requires it); a Job with manualSelector needs one too.
    return requiresNonEmpty || selector !== undefined
      ? []
      : findingAt(
          rangeForKey(object.node, ['spec', 'manualSelector']),
          'selector-mismatch',
          'spec.selector: Required value: a Job with manualSelector: true must have a selector that matches its pod template labels.',
        );
  }
  const reading = readSelector(selector, SELECTOR);
  if (reading.malformed.length > 0) {
    return reading.malformed.flatMap((problem) => problemFinding(object, problem, problem.message, true));
  }
  if (reading.isEmpty) {
    // Upstream's text is "empty selector is invalid for <kind>" (ValidateReplicaSetSpec says "deployment";
    // we name the ReplicaSet's own kind).
    if (!requiresNonEmpty) {
      return [];
    }
    return findingAt(
      rangeForKey(object.node, SELECTOR),
      'selector-mismatch',
      `spec.selector: Invalid value: empty selector is invalid for ${object.kind.toLowerCase()}; ` +
        `a ${object.kind} needs matchLabels or matchExpressions that select its pod template's labels.`,
    );
  }
  if (reading.hasInvalidLabels) {
    return [];
  }
  return mismatchFindings(
    object,
    unmetRequirements(selector, SELECTOR, templateLabels(object), 'the pod template'),
  );
}

function checkMapSelector(object: ManifestObject): TextFinding[] {
  const entries = labelEntriesAt(object.value, SELECTOR);
  const labels = templateLabels(object);
  if (entries.length === 0) {
    // The API server defaults an empty selector to the template's labels; it must then have some.
    return labels.size > 0 || recordAt(object.value, ['spec', 'template']) === undefined
      ? []
      : findingAt(
          rangeForKey(object.node, TEMPLATE_LABELS),
          'selector-mismatch',
          'spec.selector: Required value: a ReplicationController without a selector uses its pod template labels, and the template has none.',
        );
  }
  const problems: SelectorProblem[] = [];
  for (const [key, wanted] of entries) {
    const actual = labels.get(key);
    if (actual !== wanted) {
      problems.push({
        path: [...SELECTOR, key],
        onKey: actual === undefined,
        message:
          actual === undefined
            ? `the selector requires ${key}=${wanted}, but the pod template has no label ${key}.`
            : `the selector requires ${key}=${wanted}, but the pod template has ${key}=${actual}.`,
        ...(actual === undefined ? {} : { replacementValue: actual }),
      });
    }
  }
  return mismatchFindings(object, problems);
}

function templateLabels(object: ManifestObject): Map<string, string> {
  return labelsAt(object.value, TEMPLATE_LABELS);
}

function mismatchFindings(object: ManifestObject, problems: SelectorProblem[]): TextFinding[] {
  if (problems.length === 0) {
    return [];
  }
  if (templateLabels(object).size === 0) {
    const wanted = labelEntriesAt(object.value, [...SELECTOR, 'matchLabels']).concat(
      object.kind === 'ReplicationController' ? labelEntriesAt(object.value, SELECTOR) : [],
    );
    const hint =
      wanted.length === 0
        ? 'add labels that the selector selects.'
        : `add ${wanted.map(([key, value]) => `${key}: ${value}`).join(', ')} under spec.template.metadata.labels.`;
    return findingAt(
      rangeForKey(object.node, TEMPLATE_LABELS),
      'selector-mismatch',
      `${MISMATCH}: the pod template has no labels; ${hint}`,
    );
  }
  const isSingle = problems.length === 1;
  return problems.flatMap((problem) =>
    problemFinding(object, problem, `${MISMATCH}: ${problem.message}`, isSingle),
  );
}

function problemFinding(
  object: ManifestObject,
  problem: SelectorProblem,
  message: string,
  mayFix: boolean,
): TextFinding[] {
  const range = problem.onKey
    ? rangeForKey(object.node, problem.path)
    : rangeForValue(object.node, problem.path);
  const value = problem.replacementValue;
  const isExact = value !== undefined && mayFix;
  return findingAt(
    range,
    'selector-mismatch',
    message,
    isExact
      ? {
          replacement: scalarReplacement(object.node, problem.path, value),
          title: `Change to ${value}`,
        }
      : undefined,
  );
}
