/**
 * Node affinity's matchFields, as the API server validates them (validateNodeFieldSelectorRequirement): the only
 * field is metadata.name, the operator In or NotIn, with exactly one value. The schema allows any key, operator
 * and list; the API server rejects the pod, and the scheduler would treat such a term as matching no node.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go
 */
import type { ObjectRule } from '../analyzer';
import type { TextFinding } from '../findings';
import { podSpecPaths } from '../kubernetes/pod-spec-paths';
import type { InstancePath } from '../yaml/node-at-path';
import { rangeForKey, rangeForValue } from '../yaml/node-at-path';
import { findingAt, invalidValue, listAt, requiredValue } from './rule-support';
import { isRecord } from '../../engine/model/objects';
import { appendAll } from '../../../../protocol/collections';

const REQUIRED_TERMS = [
  'affinity',
  'nodeAffinity',
  'requiredDuringSchedulingIgnoredDuringExecution',
  'nodeSelectorTerms',
];
const PREFERRED_TERMS = ['affinity', 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution'];

/** The matchFields requirements of a pod spec's node affinity (required terms and preferences), with paths. */
function fieldRequirements(
  value: unknown,
  specPath: InstancePath,
): { path: InstancePath; requirement: unknown }[] {
  const found: { path: InstancePath; requirement: unknown }[] = [];
  const collect = (termPath: InstancePath): void => {
    listAt(value, [...termPath, 'matchFields']).forEach((requirement, index) => {
      found.push({ path: [...termPath, 'matchFields', index], requirement });
    });
  };
  listAt(value, [...specPath, ...REQUIRED_TERMS]).forEach((_, index) => {
    collect([...specPath, ...REQUIRED_TERMS, index]);
  });
  listAt(value, [...specPath, ...PREFERRED_TERMS]).forEach((_, index) => {
    collect([...specPath, ...PREFERRED_TERMS, index, 'preference']);
  });
  return found;
}

/** Reports each matchFields requirement the API server would reject, on the key, operator or values. */
export const checkNodeFieldSelectors: ObjectRule = (object) => {
  const findings: TextFinding[] = [];
  for (const specPath of podSpecPaths(object)) {
    for (const { path, requirement } of fieldRequirements(object.value, specPath)) {
      if (!isRecord(requirement)) {
        continue;
      }
      const { key, operator, values } = requirement;
      if (operator === 'In' || operator === 'NotIn') {
        if (!Array.isArray(values) || values.length !== 1) {
          appendAll(
            findings,
            findingAt(
              (values === undefined ? rangeForKey : rangeForValue)(
                object.node,
                values === undefined ? path : [...path, 'values'],
              ),
              'schema-constraint',
              requiredValue(
                [...path, 'values'],
                "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
              ),
            ),
          );
        }
      } else if (typeof operator === 'string') {
        appendAll(
          findings,
          findingAt(
            rangeForValue(object.node, [...path, 'operator']),
            'schema-constraint',
            invalidValue([...path, 'operator'], operator, 'not a valid selector operator'),
          ),
        );
      }
      if (typeof key === 'string' && key !== 'metadata.name') {
        appendAll(
          findings,
          findingAt(
            rangeForValue(object.node, [...path, 'key']),
            'schema-constraint',
            `${invalidValue([...path, 'key'], key, 'not a valid field selector key')}; the only node field is metadata.name`,
          ),
        );
      }
    }
  }
  return findings;
};
