/**
 * invalid-name: metadata.name (and generateName and namespace) as the API server checks them on create. Each
 * kind passes its own name rule to ValidateObjectMeta; most use a DNS-1123 subdomain, a few something else:
 * - Namespace: DNS-1123 label (ValidateNamespaceName, apimachinery pkg/api/validation/generic.go);
 * - Service: DNS-1035 label (ValidateServiceName, pkg/apis/core/validation/validation.go; the
 *   RelaxedServiceNameValidation gate, alpha and off by default through 1.35, is not modelled);
 * - StatefulSet: DNS-1123 label from 1.27 (kubernetes/kubernetes#114172), a subdomain before;
 * - CronJob: a subdomain of at most 52 characters (ValidateCronJobCreate leaves room for the Job suffix);
 * - Role, ClusterRole, RoleBinding, ClusterRoleBinding (ValidateRBACName), PodDisruptionBudget (no rule of its
 *   own) and the kinds we have not confirmed: only the path segment check every create gets from
 *   rest.BeforeCreate (no '/', no '%', not '.' or '..');
 * - CustomResourceDefinition: a subdomain equal to spec.names.plural + "." + spec.group.
 * With generateName the API server validates the prefix after masking a trailing '-' (maskTrailingDash).
 */
import type { ObjectRule } from '../analyzer';
import type { TextFinding } from '../findings';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { isListKind } from '../kubernetes/manifest-object';
import { groupOf } from '../kubernetes/pod-spec-paths';
import { rangeForKey, rangeForValue } from '../yaml/node-at-path';
import {
  byteLength,
  checkDns1035Label,
  checkDns1123Label,
  checkDns1123Subdomain,
  checkPathSegmentName,
} from './name-formats';
import { findingAt, invalidValue, minorVersionOf, recordAt, requiredValue } from './rule-support';
import { isRecord } from '../../engine/model/objects';
import { appendAll } from '../../../../protocol/collections';

/** The name rules the API server applies, by kind. */
export type NameFormat = 'dns1123-subdomain' | 'dns1123-label' | 'dns1035-label' | 'path-segment';

const RBAC = 'rbac.authorization.k8s.io';

/** Kinds whose names are not DNS-1123 subdomains, by "<group>/<kind>". */
const NAME_FORMATS: Readonly<Record<string, NameFormat>> = {
  '/Namespace': 'dns1123-label',
  '/Service': 'dns1035-label',
  'apps/StatefulSet': 'dns1123-label',
  [`${RBAC}/Role`]: 'path-segment',
  [`${RBAC}/ClusterRole`]: 'path-segment',
  [`${RBAC}/RoleBinding`]: 'path-segment',
  [`${RBAC}/ClusterRoleBinding`]: 'path-segment',
  'policy/PodDisruptionBudget': 'path-segment',
  'certificates.k8s.io/CertificateSigningRequest': 'path-segment',
  // The name of an IPAddress must be the address itself; we only check what every name must satisfy.
  'networking.k8s.io/IPAddress': 'path-segment',
};

/**
 * Review kinds are answered, never stored: the API server does not validate their metadata, and they are
 * usually written without a name.
 */
const UNSTORED_KINDS = new Set([
  'authentication.k8s.io/TokenReview',
  'authentication.k8s.io/SelfSubjectReview',
  'authorization.k8s.io/SubjectAccessReview',
  'authorization.k8s.io/SelfSubjectAccessReview',
  'authorization.k8s.io/SelfSubjectRulesReview',
  'authorization.k8s.io/LocalSubjectAccessReview',
]);

/** The first minor version that validates StatefulSet names as DNS labels. */
const STATEFULSET_LABEL_SINCE_MINOR = 27;
/** CronJob names leave room for the 11-character suffix of the Jobs they create (63 − 11). */
const CRON_JOB_NAME_MAX_LENGTH = 52;

/** The name rule of a kind in a Kubernetes version. */
export function nameFormatOf(apiVersion: string, kind: string, kubernetesVersion: string): NameFormat {
  const key = `${groupOf(apiVersion)}/${kind}`;
  if (key === 'apps/StatefulSet') {
    const minor = minorVersionOf(kubernetesVersion);
    return minor !== undefined && minor < STATEFULSET_LABEL_SINCE_MINOR
      ? 'dns1123-subdomain'
      : 'dns1123-label';
  }
  return NAME_FORMATS[key] ?? 'dns1123-subdomain';
}

/** The API server's messages for a name in a format; `isPrefix` for generateName. */
export function checkName(name: string, format: NameFormat, isPrefix: boolean): string[] {
  if (format === 'path-segment') {
    return checkPathSegmentName(name, isPrefix);
  }
  const masked = isPrefix ? maskTrailingDash(name) : name;
  switch (format) {
    case 'dns1123-subdomain':
      return checkDns1123Subdomain(masked);
    case 'dns1123-label':
      return checkDns1123Label(masked);
    case 'dns1035-label':
      return checkDns1035Label(masked);
  }
}

/**
 * maskTrailingDash as upstream writes it: a trailing '-' is allowed in a generateName, which upstream checks by
 * replacing the last two characters with "a" (not just the dash); reproduced so that the same prefixes pass.
 */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/** Checks metadata.name, metadata.generateName and metadata.namespace. */
export const checkObjectName: ObjectRule = (object, context) => {
  if (isListKind(object.kind) || UNSTORED_KINDS.has(`${groupOf(object.apiVersion)}/${object.kind}`)) {
    return [];
  }
  const format = nameFormatOf(object.apiVersion, object.kind, context.store.kubernetesVersion);
  return [...checkNameFields(object, format), ...checkNamespaceField(object)];
};

/** The name findings of an object with a given name rule (also used for custom resources). */
export function checkNameFields(object: ManifestObject, format: NameFormat): TextFinding[] {
  const metadata = recordAt(object.value, ['metadata']);
  const name = metadata?.['name'];
  const generateName = metadata?.['generateName'];
  const findings: TextFinding[] = [];
  if (typeof generateName === 'string' && generateName !== '') {
    const range = rangeForValue(object.node, ['metadata', 'generateName']);
    for (const message of checkName(generateName, format, true)) {
      appendAll(
        findings,
        findingAt(range, 'invalid-name', invalidValue(['metadata', 'generateName'], generateName, message)),
      );
    }
  }
  if (typeof name === 'string' && name !== '') {
    appendAll(findings, nameFindings(object, name, format));
  } else if (
    (name === undefined || name === '') &&
    (typeof generateName !== 'string' || generateName === '')
  ) {
    // kubectl lists (items of a List) are read back from a cluster, never created as they are.
    if (object.path.length === 0) {
      const range = isRecord(object.value['metadata'])
        ? rangeForKey(object.node, ['metadata'])
        : rangeForValue(object.node, ['kind']);
      appendAll(
        findings,
        findingAt(
          range,
          'invalid-name',
          requiredValue(['metadata', 'name'], 'name or generateName is required'),
        ),
      );
    }
  }
  return findings;
}

function nameFindings(object: ManifestObject, name: string, format: NameFormat): TextFinding[] {
  const range = rangeForValue(object.node, ['metadata', 'name']);
  const path = ['metadata', 'name'];
  const findings = checkName(name, format, false).flatMap((message) =>
    findingAt(range, 'invalid-name', invalidValue(path, name, message)),
  );
  const key = `${groupOf(object.apiVersion)}/${object.kind}`;
  if (key === 'batch/CronJob' && byteLength(name) > CRON_JOB_NAME_MAX_LENGTH) {
    appendAll(
      findings,
      findingAt(
        range,
        'invalid-name',
        invalidValue(path, name, `must be no more than ${CRON_JOB_NAME_MAX_LENGTH} characters`),
      ),
    );
  }
  if (key === 'apiextensions.k8s.io/CustomResourceDefinition') {
    const plural = recordAt(object.value, ['spec', 'names'])?.['plural'];
    const group = recordAt(object.value, ['spec'])?.['group'];
    const required =
      typeof plural === 'string' && typeof group === 'string' ? `${plural}.${group}` : undefined;
    if (required === undefined || name !== required) {
      appendAll(
        findings,
        findingAt(
          range,
          'invalid-name',
          invalidValue(path, name, 'must be spec.names.plural+"."+spec.group'),
          required === undefined ? undefined : { replacement: required, title: `Change to ${required}` },
        ),
      );
    }
  }
  return findings;
}

function checkNamespaceField(object: ManifestObject): TextFinding[] {
  const namespace = object.namespace;
  if (namespace === undefined || namespace === '') {
    return [];
  }
  const range = rangeForValue(object.node, ['metadata', 'namespace']);
  return checkDns1123Label(namespace).flatMap((message) =>
    findingAt(range, 'invalid-name', invalidValue(['metadata', 'namespace'], namespace, message)),
  );
}
