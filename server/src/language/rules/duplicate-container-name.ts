/**
 * duplicate-container-name: container names must be unique across a pod's containers, initContainers and
 * ephemeralContainers. The schema cannot say so (the lists are maps keyed by name only within each list).
 * Upstream: validateContainers, validateInitContainers and validateEphemeralContainers in
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go, which report the
 * later container with field.Duplicate.
 */
import type { ObjectRule } from '../analyzer';
import type { TextFinding } from '../findings';
import { formatPath } from '../schema/validate-object';
import type { InstancePath } from '../yaml/node-at-path';
import { rangeForValue } from '../yaml/node-at-path';
import { containerEntries } from './pod-containers';
import { duplicateValue, findingAt } from './rule-support';
import { appendAll } from '../../../../protocol/collections';

/** Reports every container whose name an earlier container of the same pod already uses. */
export const checkDuplicateContainerNames: ObjectRule = (object) => {
  const findings: TextFinding[] = [];
  const firstUse = new Map<string, InstancePath>();
  for (const entry of containerEntries(object)) {
    const name = entry.container['name'];
    if (typeof name !== 'string' || name === '') {
      continue;
    }
    const key = `${formatPath(entry.specPath)}\u0000${name}`;
    const earlier = firstUse.get(key);
    const namePath = [...entry.path, 'name'];
    if (earlier === undefined) {
      firstUse.set(key, entry.path);
      continue;
    }
    appendAll(
      findings,
      findingAt(
        rangeForValue(object.node, namePath),
        'duplicate-container-name',
        `${duplicateValue(namePath, name)}: ${formatPath(earlier)} already has this name; container names must be ` +
          'unique across containers, initContainers and ephemeralContainers.',
      ),
    );
  }
  return findings;
};
