/**
 * invalid-port-name: container port names, and Service targetPorts given by name, must be IANA service names
 * (at most 15 characters of a-z, 0-9 and '-', with a letter, no leading, trailing or doubled '-'); within one
 * container a port name may appear once. Upstream: validateContainerPorts and ValidateService (targetPort) in
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go, with
 * IsValidPortName from k8s.io/apimachinery/pkg/util/validation.
 */
import type { ObjectRule } from '../analyzer';
import type { TextFinding } from '../findings';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { rangeForValue } from '../yaml/node-at-path';
import { checkPortName } from './name-formats';
import { containerEntries } from './pod-containers';
import { duplicateValue, findingAt, invalidValue, listAt } from './rule-support';
import { isRecord } from '../../engine/model/objects';
import { appendAll } from '../../../../protocol/collections';

/** Checks container port names and Service targetPort names. */
export const checkPortNames: ObjectRule = (object) => {
  const findings = checkContainerPortNames(object);
  if (object.apiVersion === 'v1' && object.kind === 'Service') {
    appendAll(findings, checkTargetPortNames(object));
  }
  return findings;
};

function checkContainerPortNames(object: ManifestObject): TextFinding[] {
  const findings: TextFinding[] = [];
  for (const entry of containerEntries(object)) {
    const seen = new Set<string>();
    listAt(entry.container, ['ports']).forEach((port, index) => {
      const name = isRecord(port) ? port['name'] : undefined;
      if (typeof name !== 'string' || name === '') {
        return;
      }
      const path = [...entry.path, 'ports', index, 'name'];
      const range = rangeForValue(object.node, path);
      const messages = checkPortName(name);
      if (messages.length > 0) {
        for (const message of messages) {
          appendAll(findings, findingAt(range, 'invalid-port-name', invalidValue(path, name, message)));
        }
      } else if (seen.has(name)) {
        appendAll(findings, findingAt(range, 'invalid-port-name', duplicateValue(path, name)));
      } else {
        seen.add(name);
      }
    });
  }
  return findings;
}

function checkTargetPortNames(object: ManifestObject): TextFinding[] {
  const findings: TextFinding[] = [];
  listAt(object.value, ['spec', 'ports']).forEach((port, index) => {
    const targetPort = isRecord(port) ? port['targetPort'] : undefined;
    if (typeof targetPort !== 'string' || targetPort === '') {
      return;
    }
    const path = ['spec', 'ports', index, 'targetPort'];
    const range = rangeForValue(object.node, path);
    for (const message of checkPortName(targetPort)) {
      appendAll(findings, findingAt(range, 'invalid-port-name', invalidValue(path, targetPort, message)));
    }
  });
  return findings;
}
