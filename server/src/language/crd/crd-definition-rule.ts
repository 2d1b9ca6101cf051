/**
 * The rule that reports a CustomResourceDefinition the API server would refuse (crd-definition-checks.ts), each
 * problem on the field it names: a forbidden keyword on its key, a bad value on the value, a missing field on
 * the key of the object that lacks it.
 */
import type { ObjectRule } from '../analyzer';
import { findingAt } from '../rules/rule-support';
import { rangeForKey, rangeForValue } from '../yaml/node-at-path';
import { isCrdObject } from './crd-definitions';
import { checkCrdDefinition } from './crd-definition-checks';

/** Checks an apiextensions.k8s.io/v1 CustomResourceDefinition as ValidateCustomResourceDefinition does. */
export const checkCustomResourceDefinition: ObjectRule = (object) => {
  if (!isCrdObject(object)) {
    return [];
  }
  return checkCrdDefinition(object.value).flatMap((issue) =>
    findingAt(
      issue.onKey ? rangeForKey(object.node, issue.at) : rangeForValue(object.node, issue.at),
      'crd-definition-invalid',
      issue.message,
    ),
  );
};
