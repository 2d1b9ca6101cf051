/**
 * What every workload kind reads the same way: its identity, its pod template, its selector and its counts,
 * with the API server's validation of them. A workload with an error finding is one `kubectl apply` would be
 * refused, so it creates no pods.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/apps/validation/validation.go
 */
import type { ObjectSource } from '../model/source';
import { WORKLOAD_MESSAGES, describeWorkload } from './findings';
import { hasErrors } from '../../../../protocol/finding';
import { seededUid } from './hash';
import type { JsonObject } from '../model/json';
import { asObject, isJsonObject, readString, readStringMap } from '../model/json';
import { parseLabelSelector } from './label-selector';
import type { WorkloadOwner } from './types';
import type { Finding } from '../../../../protocol/finding';
import { engineFinding } from '../model/findings';

/** The namespace of objects that name none. */
export const DEFAULT_NAMESPACE = 'default';

/** A workload object, read. */
export interface Workload {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  /** metadata.uid when given (an exported object), else a stable stand-in. */
  readonly uid: string;
  readonly metadata: JsonObject;
  readonly spec: JsonObject;
  readonly source: ObjectSource;
  /** `Deployment "web"`, for messages. */
  readonly label: string;
  /** Findings about this workload (the caller collects them). */
  readonly findings: Finding[];
}

/** Reads a workload's identity; a workload without a name is reported (into `findings`) and skipped. */
export function readWorkload(object: JsonObject, source: ObjectSource, findings: Finding[]): Workload | null {
  const kind = readString(object['kind']) ?? 'Object';
  const metadata = asObject(object['metadata']);
  const name = readString(metadata['name']);
  if (name === undefined) {
    findings.push(
      engineFinding('workload-missing-name', source, ['metadata'], WORKLOAD_MESSAGES.missingName(kind)),
    );
    return null;
  }
  const namespace = readString(metadata['namespace']) ?? DEFAULT_NAMESPACE;
  return {
    apiVersion: readString(object['apiVersion']) ?? '',
    kind,
    name,
    namespace,
    uid: readString(metadata['uid']) ?? seededUid(`${kind}/${namespace}/${name}`),
    metadata,
    spec: asObject(object['spec']),
    source,
    label: describeWorkload(kind, name),
    findings: [],
  };
}

/** The pod template at `path` inside the object (['spec', 'template']), or null after a finding. */
export function readTemplate(workload: Workload, path: readonly string[]): JsonObject | null {
  let value: unknown = { spec: workload.spec };
  for (const key of path) {
    value = asObject(value)[key];
  }
  if (!isJsonObject(value)) {
    const message = WORKLOAD_MESSAGES.missingTemplate(workload.label, path.join('.'));
    workload.findings.push(engineFinding('workload-missing-template', workload.source, path, message));
    return null;
  }
  return value;
}

/** The source of the pods made from the template at `path`. */
export function templateSource(workload: Workload, path: readonly string[]): ObjectSource {
  return { ...workload.source, path: [...workload.source.path, ...path] };
}

/** The labels of a pod template. */
export function templateLabels(template: JsonObject): Record<string, string> {
  return readStringMap(asObject(template['metadata'])['labels']);
}

/** How a kind's selector is validated. */
interface SelectorRule {
  /** Path of the selector inside the object. */
  readonly selectorPath: readonly string[];
  /** Path of the template's labels inside the object. */
  readonly labelsPath: readonly string[];
  /** Whether a missing selector is an error (apps/v1 kinds) or defaults to the template labels. */
  readonly isRequired: boolean;
  /** ReplicationController selectors are plain maps rather than LabelSelector objects. */
  readonly isPlainMap?: boolean;
}

/** Validates a selector against the template's labels; returns false (with a finding) when the API rejects it. */
export function checkSelector(workload: Workload, template: JsonObject, rule: SelectorRule): boolean {
  let value: unknown = { spec: workload.spec };
  for (const key of rule.selectorPath) {
    value = asObject(value)[key];
  }
  const { findings, source, label } = workload;
  if (value === undefined || value === null) {
    if (rule.isRequired) {
      findings.push(
        engineFinding(
          'workload-missing-selector',
          source,
          ['spec'],
          WORKLOAD_MESSAGES.missingSelector(label),
        ),
      );
      return false;
    }
    return true;
  }
  const parsed = parseLabelSelector(rule.isPlainMap === true ? { matchLabels: value } : value);
  if (!parsed.ok) {
    const path = [...rule.selectorPath, ...parsed.path];
    findings.push(
      engineFinding(
        'workload-invalid-selector',
        source,
        path,
        WORKLOAD_MESSAGES.invalidSelector(label, parsed.message),
      ),
    );
    return false;
  }
  if (parsed.selector.isEmpty) {
    if (rule.isPlainMap === true) {
      return true;
    }
    const message = WORKLOAD_MESSAGES.emptySelector(label, workload.kind);
    findings.push(engineFinding('workload-empty-selector', source, rule.selectorPath, message));
    return false;
  }
  const labels = templateLabels(template);
  if (!parsed.selector.matches(labels)) {
    const message = WORKLOAD_MESSAGES.selectorMismatch(label, labels, rule.labelsPath.join('.'));
    findings.push(engineFinding('workload-selector-mismatch', source, rule.labelsPath, message));
    return false;
  }
  return true;
}

/**
 * A non-negative integer field of the spec (replicas, parallelism…), `fallback` when absent. Returns null after
 * a finding when the value is negative or not an integer.
 */
export function readCount(workload: Workload, path: readonly string[], fallback: number): number | null {
  let value: unknown = { spec: workload.spec };
  for (const key of path) {
    value = asObject(value)[key];
  }
  const field = path.join('.');
  if (value === undefined || value === null) {
    return fallback;
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    const message = WORKLOAD_MESSAGES.invalidField(workload.label, field, 'an integer', value);
    workload.findings.push(engineFinding('workload-invalid-field', workload.source, path, message));
    return null;
  }
  if (value < 0) {
    const message = WORKLOAD_MESSAGES.negativeCount(workload.label, field, value);
    workload.findings.push(engineFinding('workload-negative-count', workload.source, path, message));
    return null;
  }
  return value;
}

/** The workload as the owner of its pods (ExpandedPod.owner). */
export function ownerOf(workload: Workload): WorkloadOwner {
  return { kind: workload.kind, name: workload.name, namespace: workload.namespace };
}

/** Whether any error was reported about this workload (it is then rejected and creates nothing). */
export function isWorkloadRejected(workload: Workload): boolean {
  return hasErrors(workload.findings);
}
