/**
 * invalid-label-key and invalid-label-value: label keys must be qualified names and values valid label values,
 * wherever the API server checks them: metadata.labels, pod template and job template labels, label selectors
 * (matchLabels, matchExpressions keys and values) and the map selectors of Services and ReplicationControllers.
 * Annotation keys are qualified names too (checked lowercased, as ValidateAnnotations does).
 * Upstream: ValidateLabels and ValidateLabelSelectorRequirement in
 * https://github.com/kubernetes/apimachinery/blob/v0.35.0/pkg/apis/meta/v1/validation/validation.go and
 * ValidateAnnotations in https://github.com/kubernetes/apimachinery/blob/v0.35.0/pkg/api/validation/objectmeta.go.
 * Left out: the 256 KiB limit on the total size of annotations.
 */
import type { ObjectRule } from '../analyzer';
import type { TextFinding } from '../findings';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { groupOf, isTemplateSpecPath, podMetadataPath, podSpecPaths } from '../kubernetes/pod-spec-paths';
import type { InstancePath } from '../yaml/node-at-path';
import { rangeForKey, rangeForValue } from '../yaml/node-at-path';
import { checkLabelKey, checkLabelValue } from './name-formats';
import { findingAt, invalidValue, listAt, recordAt } from './rule-support';
import { isRecord } from '../../engine/model/objects';
import { appendAll } from '../../../../protocol/collections';

/** Where an object carries label selectors, by "<group>/<kind>": LabelSelector objects or plain maps. */
const SELECTORS: Readonly<Record<string, { path: InstancePath; isMap: boolean }>> = {
  '/Service': { path: ['spec', 'selector'], isMap: true },
  '/ReplicationController': { path: ['spec', 'selector'], isMap: true },
  'apps/Deployment': { path: ['spec', 'selector'], isMap: false },
  'apps/ReplicaSet': { path: ['spec', 'selector'], isMap: false },
  'apps/StatefulSet': { path: ['spec', 'selector'], isMap: false },
  'apps/DaemonSet': { path: ['spec', 'selector'], isMap: false },
  'batch/Job': { path: ['spec', 'selector'], isMap: false },
  'policy/PodDisruptionBudget': { path: ['spec', 'selector'], isMap: false },
  'networking.k8s.io/NetworkPolicy': { path: ['spec', 'podSelector'], isMap: false },
};

/** Checks the syntax of label keys and values, and of annotation keys. */
export const checkLabelSyntax: ObjectRule = (object) => checkObjectLabels(object);

/** The label findings of an object (also used for custom resources, which have metadata only). */
export function checkObjectLabels(object: ManifestObject): TextFinding[] {
  const findings: TextFinding[] = [];
  for (const metadataPath of metadataPaths(object)) {
    appendAll(findings, checkLabelMap(object, [...metadataPath, 'labels']));
    appendAll(findings, checkAnnotationKeys(object, [...metadataPath, 'annotations']));
  }
  const selector = SELECTORS[`${groupOf(object.apiVersion)}/${object.kind}`];
  if (selector !== undefined) {
    appendAll(
      findings,
      selector.isMap ? checkLabelMap(object, selector.path) : checkLabelSelector(object, selector.path),
    );
  }
  return findings;
}

function metadataPaths(object: ManifestObject): InstancePath[] {
  const paths: InstancePath[] = [['metadata']];
  if (groupOf(object.apiVersion) === 'batch' && object.kind === 'CronJob') {
    paths.push(['spec', 'jobTemplate', 'metadata']);
  }
  for (const specPath of podSpecPaths(object)) {
    if (isTemplateSpecPath(specPath)) {
      paths.push(podMetadataPath(specPath));
    }
  }
  return paths;
}

function checkLabelMap(object: ManifestObject, path: InstancePath): TextFinding[] {
  const record = recordAt(object.value, path);
  if (record === undefined) {
    return [];
  }
  const findings: TextFinding[] = [];
  for (const [key, value] of Object.entries(record)) {
    appendAll(findings, keyFindings(object, path, key, checkLabelKey(key)));
    if (typeof value === 'string') {
      const range = rangeForValue(object.node, [...path, key]);
      for (const message of checkLabelValue(value)) {
        appendAll(findings, findingAt(range, 'invalid-label-value', invalidValue(path, value, message)));
      }
    }
  }
  return findings;
}

function checkAnnotationKeys(object: ManifestObject, path: InstancePath): TextFinding[] {
  const record = recordAt(object.value, path);
  if (record === undefined) {
    return [];
  }
  return Object.keys(record).flatMap((key) =>
    keyFindings(object, path, key, checkLabelKey(key.toLowerCase()), 'annotation'),
  );
}

function keyFindings(
  object: ManifestObject,
  path: InstancePath,
  key: string,
  messages: string[],
  what: 'label' | 'annotation' = 'label',
): TextFinding[] {
  const range = rangeForKey(object.node, [...path, key]);
  return messages.flatMap((message) =>
    findingAt(
      range,
      'invalid-label-key',
      `${invalidValue(path, key, message)}${what === 'annotation' ? ' (annotation key)' : ''}`,
    ),
  );
}

function checkLabelSelector(object: ManifestObject, path: InstancePath): TextFinding[] {
  if (recordAt(object.value, path) === undefined) {
    return [];
  }
  const findings = checkLabelMap(object, [...path, 'matchLabels']);
  listAt(object.value, [...path, 'matchExpressions']).forEach((expression, index) => {
    if (!isRecord(expression)) {
      return;
    }
    const expressionPath = [...path, 'matchExpressions', index];
    const key = expression['key'];
    if (typeof key === 'string') {
      const range = rangeForValue(object.node, [...expressionPath, 'key']);
      for (const message of checkLabelKey(key)) {
        appendAll(
          findings,
          findingAt(range, 'invalid-label-key', invalidValue([...expressionPath, 'key'], key, message)),
        );
      }
    }
    listAt(expression, ['values']).forEach((value, valueIndex) => {
      if (typeof value !== 'string') {
        return;
      }
      const valuePath = [...expressionPath, 'values', valueIndex];
      const range = rangeForValue(object.node, valuePath);
      for (const message of checkLabelValue(value)) {
        appendAll(findings, findingAt(range, 'invalid-label-value', invalidValue(valuePath, value, message)));
      }
    });
  });
  return findings;
}
