/**
 * A CustomResourceDefinition as the API server validates it on create: ValidateCustomResourceDefinition of
 * apiextensions-apiserver v0.35 (pkg/apis/apiextensions/validation/validation.go) on the object defaulted
 * (v1/defaults.go: singular from the kind, listKind = kind + "List") and converted to the internal version
 * (v1/conversion.go: when every version has the same schema, it moves to spec.validation, which is where the
 * errors then point). Checked: metadata.name = plural.group, the API approval of *.k8s.io and *.kubernetes.io
 * groups, the group, scope, versions (names, one storage version, a schema each), names (plural, singular, kind,
 * listKind, shortNames, categories), spec.preserveUnknownFields, and each schema (crd-schema-checks.ts,
 * crd-structural-checks.ts). Left out: conversion webhooks, subresources, printer columns, selectable fields,
 * deprecation warnings' characters, and the status.
 */
import type { CrdIssue, CrdSite } from './definition-issue';
import {
  entryOf,
  fieldOf,
  issueAt,
  itemOf,
  movedSite,
  siteOf,
  supportedValues,
  yamlPath,
  stringOrEmpty,
} from './definition-issue';
import { checkOpenApiSchema } from './crd-schema-checks';
import { checkStructuralSchema, unreadableSchemaError } from './crd-structural-checks';
import { checkDns1035Label, checkDns1123Subdomain } from '../rules/name-formats';
import { isRecord } from '../../engine/model/objects';
import { appendAll } from '../../../../protocol/collections';

type PlainRecord = Record<string, unknown>;

/** The annotation a CRD of a protected group needs (apiextensions v1 KubeAPIApprovedAnnotation). */
const API_APPROVED_ANNOTATION = 'api-approved.kubernetes.io';
const APPROVAL_ENHANCEMENT = 'https://github.com/kubernetes/enhancements/pull/1111';

/** Every issue the API server reports for a CRD (the object's plain value). */
export function checkCrdDefinition(crd: PlainRecord): CrdIssue[] {
  const metadata = isRecord(crd['metadata']) ? crd['metadata'] : {};
  const spec = isRecord(crd['spec']) ? crd['spec'] : {};
  const names = isRecord(spec['names']) ? spec['names'] : {};
  const group = stringOrEmpty(spec['group']);
  const issues: CrdIssue[] = [];
  const name = stringOrEmpty(metadata['name']);
  if (name !== '' && name !== `${stringOrEmpty(names['plural'])}.${group}`) {
    issues.push(
      issueAt(siteOf('metadata', 'name'), 'Invalid value', name, 'must be spec.names.plural+"."+spec.group'),
    );
  }
  appendAll(issues, [...checkGroup(group), ...checkScope(spec['scope']), ...checkVersions(spec)]);
  appendAll(issues, checkNames(names, siteOf('spec', 'names')));
  appendAll(issues, checkApproval(group, metadata));
  if (spec['preserveUnknownFields'] === true) {
    issues.push(
      issueAt(
        siteOf('spec', 'preserveUnknownFields'),
        'Invalid value',
        true,
        'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ),
    );
  }
  return issues;
}

function checkGroup(group: string): CrdIssue[] {
  const site = siteOf('spec', 'group');
  if (group === '') {
    return [issueAt(site, 'Required value', undefined, '')];
  }
  const errors = checkDns1123Subdomain(group);
  if (errors.length > 0) {
    return [issueAt(site, 'Invalid value', group, errors.join(','))];
  }
  return group.split('.').length < 2
    ? [issueAt(site, 'Invalid value', group, 'should be a domain with at least one dot')]
    : [];
}

function checkScope(scope: unknown): CrdIssue[] {
  const site = siteOf('spec', 'scope');
  const value = stringOrEmpty(scope);
  if (value === '') {
    return [issueAt(site, 'Required value', undefined, '')];
  }
  return value === 'Cluster' || value === 'Namespaced'
    ? []
    : [issueAt(site, 'Unsupported value', value, supportedValues(['Cluster', 'Namespaced']))];
}

/** validateCustomResourceDefinitionSpec's loop over versions, and the schema of each (or the shared one). */
function checkVersions(spec: PlainRecord): CrdIssue[] {
  const versions = (Array.isArray(spec['versions']) ? spec['versions'] : []).map((version: unknown) =>
    isRecord(version) ? version : {},
  );
  const issues: CrdIssue[] = [];
  const seen = new Set<string>();
  let unique = true;
  let storage = 0;
  versions.forEach((version, index) => {
    const name = stringOrEmpty(version['name']);
    unique &&= !seen.has(name);
    seen.add(name);
    storage += version['storage'] === true ? 1 : 0;
    const errors = checkDns1035Label(name);
    if (errors.length > 0) {
      issues.push(
        issueAt(
          fieldOf(itemOf(siteOf('spec'), 'versions', index), 'name'),
          'Invalid value',
          name,
          errors.join(','),
        ),
      );
    }
  });
  appendAll(issues, checkSchemas(versions));
  // The API server prints its internal list of versions as the value of these two; we leave the value out.
  const at = yamlPath(siteOf('spec', 'versions'));
  if (!unique) {
    issues.push({
      at,
      onKey: false,
      message: 'spec.versions: Invalid value: must contain unique version names',
    });
  }
  if (storage !== 1) {
    issues.push({
      at,
      onKey: false,
      message: 'spec.versions: Invalid value: must have exactly one version marked as storage version',
    });
  }
  if (storage === 0) {
    // The create strategy records the storage version in status.storedVersions; with none, there is none.
    issues.push({
      at,
      onKey: false,
      message: 'status.storedVersions: Invalid value: null: must have at least one stored version',
    });
  }
  return issues;
}

/**
 * Each version's schema, or the one schema every version shares: conversion to the internal version moves a
 * shared schema to spec.validation (the errors name it there; we place them on the first version's schema).
 */
function checkSchemas(versions: readonly PlainRecord[]): CrdIssue[] {
  const schemas = versions.map((version) => (isRecord(version['schema']) ? version['schema'] : undefined));
  const shared = schemas.every((schema, index) => index === 0 || isSameValue(schema, schemas[0]));
  const issues: CrdIssue[] = [];
  schemas.forEach((schema, index) => {
    const schemaSite = fieldOf(itemOf(siteOf('spec'), 'versions', index), 'schema');
    const openApi = schema?.['openAPIV3Schema'];
    if (!isRecord(openApi)) {
      issues.push(issueAt(fieldOf(schemaSite, 'openAPIV3Schema'), 'Required value', undefined, ''));
      return;
    }
    if (shared && index > 0) {
      return;
    }
    const printed = shared ? movedSite(siteOf('spec', 'validation'), schemaSite) : schemaSite;
    appendAll(issues, checkSchema(openApi, fieldOf(printed, 'openAPIV3Schema')));
  });
  return issues;
}

function checkSchema(schema: PlainRecord, site: CrdSite): CrdIssue[] {
  const unreadable = unreadableSchemaError(schema);
  const structural = unreadable === undefined ? checkStructuralSchema(schema, site) : [];
  const issues = [...structural, ...checkOpenApiSchema(schema, site)];
  if (issues.length === 0 && unreadable !== undefined) {
    issues.push(issueAt(site, 'Invalid value', '', unreadable));
  }
  return issues;
}

/** ValidateCustomResourceDefinitionNames, after defaulting, plus the names spec requires. */
function checkNames(names: PlainRecord, site: CrdSite): CrdIssue[] {
  const kind = stringOrEmpty(names['kind']);
  const plural = stringOrEmpty(names['plural']);
  const singular = stringOrEmpty(names['singular']) || kind.toLowerCase();
  const listKind = stringOrEmpty(names['listKind']) || (kind === '' ? '' : `${kind}List`);
  const issues: CrdIssue[] = [];
  for (const [field, value] of [
    ['plural', plural],
    ['singular', singular],
    ['kind', kind],
    ['listKind', listKind],
  ] as const) {
    if (value === '') {
      issues.push(issueAt(fieldOf(site, field), 'Required value', undefined, ''));
    }
  }
  for (const [field, value] of [
    ['plural', plural],
    ['singular', singular],
  ] as const) {
    const errors = value === '' ? [] : checkDns1035Label(value);
    if (errors.length > 0) {
      issues.push(issueAt(fieldOf(site, field), 'Invalid value', value, errors.join(',')));
    }
  }
  for (const [field, value] of [
    ['kind', kind],
    ['listKind', listKind],
  ] as const) {
    const errors = value === '' ? [] : checkDns1035Label(value.toLowerCase());
    if (errors.length > 0) {
      issues.push(
        issueAt(
          fieldOf(site, field),
          'Invalid value',
          value,
          `may have mixed case, but should otherwise match: ${errors.join(',')}`,
        ),
      );
    }
  }
  for (const list of ['shortNames', 'categories']) {
    const entries = Array.isArray(names[list]) ? (names[list] as unknown[]) : [];
    entries.forEach((entry, index) => {
      const errors = checkDns1035Label(stringOrEmpty(entry));
      if (errors.length > 0) {
        issues.push(
          issueAt(itemOf(site, list, index), 'Invalid value', stringOrEmpty(entry), errors.join(',')),
        );
      }
    });
  }
  if (kind !== '' && kind === listKind) {
    issues.push(
      issueAt(fieldOf(site, 'listKind'), 'Invalid value', listKind, 'kind and listKind may not be the same'),
    );
  }
  return issues;
}

/** validateAPIApproval: groups k8s.io and kubernetes.io (and their subdomains) need the approval annotation. */
function checkApproval(group: string, metadata: PlainRecord): CrdIssue[] {
  // IsProtectedCommunityGroup: k8s.io, kubernetes.io and their subdomains.
  const domain = `.${group}`;
  if (!domain.endsWith('.k8s.io') && !domain.endsWith('.kubernetes.io')) {
    return [];
  }
  const annotations = isRecord(metadata['annotations']) ? metadata['annotations'] : {};
  const value = stringOrEmpty(annotations[API_APPROVED_ANNOTATION]);
  const site = entryOf(siteOf('metadata'), 'annotations', API_APPROVED_ANNOTATION);
  if (value === '') {
    return [
      issueAt(
        site,
        'Required value',
        undefined,
        `protected groups must have approval annotation "${API_APPROVED_ANNOTATION}", see ${APPROVAL_ENHANCEMENT}`,
      ),
    ];
  }
  if (value.startsWith('unapproved') || isAbsoluteUrl(value)) {
    return [];
  }
  return [
    issueAt(
      site,
      'Invalid value',
      value,
      `protected groups must have approval annotation "${API_APPROVED_ANNOTATION}" with either a URL or a reason starting with "unapproved", see ${APPROVAL_ENHANCEMENT}`,
    ),
  ];
}

/** url.ParseRequestURI with a scheme and a host, approximately. */
function isAbsoluteUrl(value: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\s]+/.test(value);
}

/** apiequality.Semantic.DeepEqual of two schemas: the same JSON, in any key order. */
function isSameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b) || canonical(a) === canonical(b);
}

/** JSON with sorted keys: equal for equal values. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map((item) => canonical(item)).join(',')}]`;
  }
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
