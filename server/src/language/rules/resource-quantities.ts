/**
 * negative-quantity: container resource requests and limits below zero, requests above their limit, and the
 * extended resources (and hugepages) whose request must equal their limit. Upstream:
 * ValidateContainerResourceRequirements in
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go, with
 * IsOvercommitAllowed from pkg/apis/core/helper. Malformed quantities are left to the schema (invalid-quantity).
 * Simplified: quantities are quoted as written, where the API server prints their canonical form ("1500m" for
 * "1.5"); pod-level resources (spec.resources) are not checked.
 */
import { parseQuantity } from '../../engine/model/quantity';
import type { Quantity } from '../../engine/model/quantity';
import type { ObjectRule } from '../analyzer';
import type { TextFinding } from '../findings';
import type { ManifestObject } from '../kubernetes/manifest-object';
import type { InstancePath } from '../yaml/node-at-path';
import { rangeForKey, rangeForValue } from '../yaml/node-at-path';
import { containerEntries } from './pod-containers';
import { fieldPath, findingAt, invalidValue, recordAt, requiredValue } from './rule-support';
import { appendAll } from '../../../../protocol/collections';

const NEGATIVE = 'must be greater than or equal to 0';

/** Checks every container's resources.requests and resources.limits. */
export const checkResourceQuantities: ObjectRule = (object) =>
  containerEntries(object).flatMap((entry) => checkRequirements(object, [...entry.path, 'resources']));

/**
 * Whether a request may be lower than its limit: native resources ("cpu", "memory", "kubernetes.io/…") except
 * hugepages; extended resources ("nvidia.com/gpu") cannot be overcommitted.
 */
export function isOvercommitAllowed(resourceName: string): boolean {
  const isNative = !resourceName.includes('/') || resourceName.includes('kubernetes.io/');
  return isNative && !resourceName.startsWith('hugepages-');
}

interface ReadQuantity {
  readonly text: string;
  readonly quantity: Quantity;
}

function readQuantities(object: ManifestObject, path: InstancePath): Map<string, ReadQuantity> {
  const read = new Map<string, ReadQuantity>();
  for (const [name, raw] of Object.entries(recordAt(object.value, path) ?? {})) {
    if (typeof raw !== 'string' && typeof raw !== 'number') {
      continue;
    }
    const parsed = parseQuantity(raw);
    if (parsed.ok) {
      read.set(name, { text: String(raw), quantity: parsed.quantity });
    }
  }
  return read;
}

/** Compares two quantities: negative, zero or positive as a is below, equal to or above b. */
function compareQuantities(a: Quantity, b: Quantity): number {
  // value and milli are both rounded up, so a difference in either is a real difference.
  return a.value - b.value || a.milli - b.milli;
}

function checkRequirements(object: ManifestObject, resourcesPath: InstancePath): TextFinding[] {
  const limitsPath = [...resourcesPath, 'limits'];
  const requestsPath = [...resourcesPath, 'requests'];
  const limits = readQuantities(object, limitsPath);
  const requests = readQuantities(object, requestsPath);
  const findings: TextFinding[] = [];
  for (const [name, limit] of limits) {
    if (limit.quantity.isNegative) {
      appendAll(findings, negativeFinding(object, limitsPath, name, limit.text));
    }
  }
  for (const [name, request] of requests) {
    const path = [...requestsPath, name];
    if (request.quantity.isNegative) {
      appendAll(findings, negativeFinding(object, requestsPath, name, request.text));
    }
    const limit = limits.get(name);
    const range = rangeForValue(object.node, path);
    if (limit === undefined) {
      if (!isOvercommitAllowed(name)) {
        appendAll(
          findings,
          findingAt(
            rangeForKey(object.node, path),
            'negative-quantity',
            `${requiredValue(limitsPath, 'Limit must be set for non overcommitable resources')} (${name} is requested without a limit).`,
          ),
        );
      }
      continue;
    }
    const order = compareQuantities(request.quantity, limit.quantity);
    if (order !== 0 && !isOvercommitAllowed(name)) {
      appendAll(
        findings,
        findingAt(
          range,
          'negative-quantity',
          invalidValue(requestsPath, request.text, `must be equal to ${name} limit of ${limit.text}`),
          { replacement: limit.text, title: `Change to ${limit.text}` },
        ),
      );
    } else if (order > 0) {
      appendAll(
        findings,
        findingAt(
          range,
          'negative-quantity',
          invalidValue(
            requestsPath,
            request.text,
            `must be less than or equal to ${name} limit of ${limit.text}`,
          ),
        ),
      );
    }
  }
  return findings;
}

function negativeFinding(
  object: ManifestObject,
  mapPath: InstancePath,
  name: string,
  text: string,
): TextFinding[] {
  return findingAt(
    rangeForValue(object.node, [...mapPath, name]),
    'negative-quantity',
    invalidValue(fieldPath(mapPath, name), text, NEGATIVE),
  );
}
