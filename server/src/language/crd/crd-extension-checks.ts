/**
 * The x-kubernetes-* extensions of a CRD schema node, as ValidateCustomResourceDefinitionOpenAPISchema of
 * apiextensions-apiserver v0.35 checks them (pkg/apis/apiextensions/validation/validation.go):
 * x-kubernetes-preserve-unknown-fields only true, x-kubernetes-map-type on objects, x-kubernetes-list-type on
 * arrays with the items a set or a map list needs (validateMapListKeysMapSet: keys required or defaulted, never
 * nullable), and the shape of each x-kubernetes-validations rule. Left out: compiling the rules (CEL), their
 * cost estimates, and resolving their fieldPath.
 */
import type { CrdIssue, CrdSite } from './definition-issue';
import { fieldOf, issueAt, itemOf, supportedValues, stringOrEmpty } from './definition-issue';
import { checkMapListKeysAndSets, checkMapListShape } from './crd-list-map-checks';
import { isRecord } from '../../engine/model/objects';
import { appendAll } from '../../../../protocol/collections';

type SchemaRecord = Record<string, unknown>;

/** supportedValidationReason of x-kubernetes-validations, sorted. */
const VALIDATION_REASONS = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
];

/** The issues of the extensions of one schema node (not of the nodes below it). */
export function checkExtensionKeywords(schema: SchemaRecord, site: CrdSite): CrdIssue[] {
  const issues: CrdIssue[] = [];
  checkPreserveAndMapType(schema, site, issues);
  appendAll(issues, [...checkListType(schema, site), ...checkMapListKeysAndSets(schema, site)]);
  appendAll(issues, checkValidationRules(schema, site));
  return issues;
}

/** x-kubernetes-preserve-unknown-fields: false, and x-kubernetes-map-type on a non-object or unknown. */
function checkPreserveAndMapType(schema: SchemaRecord, site: CrdSite, issues: CrdIssue[]): void {
  if (schema['x-kubernetes-preserve-unknown-fields'] === false) {
    issues.push(
      issueAt(
        fieldOf(site, 'x-kubernetes-preserve-unknown-fields'),
        'Invalid value',
        false,
        'must be true or undefined',
      ),
    );
  }
  const mapType = schema['x-kubernetes-map-type'];
  if (typeof mapType !== 'string') {
    return;
  }
  const type = stringOrEmpty(schema['type']);
  if (type !== 'object') {
    issues.push(
      type === ''
        ? issueAt(
            fieldOf(site, 'type'),
            'Required value',
            undefined,
            'must be object if x-kubernetes-map-type is specified',
          )
        : issueAt(
            fieldOf(site, 'type'),
            'Invalid value',
            type,
            'must be object if x-kubernetes-map-type is specified',
          ),
    );
  }
  if (mapType !== 'atomic' && mapType !== 'granular') {
    issues.push(
      issueAt(
        fieldOf(site, 'x-kubernetes-map-type'),
        'Unsupported value',
        mapType,
        supportedValues(['atomic', 'granular']),
      ),
    );
  }
}

/** x-kubernetes-list-type and x-kubernetes-list-map-keys, and what a set's or a map list's items must be. */
function checkListType(schema: SchemaRecord, site: CrdSite): CrdIssue[] {
  const issues: CrdIssue[] = [];
  const listType =
    typeof schema['x-kubernetes-list-type'] === 'string' ? schema['x-kubernetes-list-type'] : undefined;
  const keys = Array.isArray(schema['x-kubernetes-list-map-keys'])
    ? (schema['x-kubernetes-list-map-keys'] as unknown[])
    : [];
  const type = stringOrEmpty(schema['type']);
  const items = schema['items'];
  const typeSite = fieldOf(site, 'type');
  if (listType !== undefined && type !== 'array') {
    const detail = 'must be array if x-kubernetes-list-type is specified';
    issues.push(
      type === ''
        ? issueAt(typeSite, 'Required value', undefined, detail)
        : issueAt(typeSite, 'Invalid value', type, detail),
    );
  } else if (listType === 'set' && isRecord(items)) {
    const detail = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    const itemListType = items['x-kubernetes-list-type'];
    if (items['type'] === 'array' && itemListType !== undefined && itemListType !== 'atomic') {
      issues.push(
        issueAt(
          fieldOf(fieldOf(site, 'items'), 'x-kubernetes-list-type'),
          'Invalid value',
          itemListType,
          detail,
        ),
      );
    }
    if (items['type'] === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      // Upstream passes the items' list type as the bad value here (nil, printed null, in practice).
      issues.push(
        issueAt(
          fieldOf(fieldOf(site, 'items'), 'x-kubernetes-map-type'),
          'Invalid value',
          itemListType ?? null,
          detail,
        ),
      );
    }
  }
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType)) {
    issues.push(
      issueAt(
        fieldOf(site, 'x-kubernetes-list-type'),
        'Unsupported value',
        listType,
        supportedValues(['atomic', 'set', 'map']),
      ),
    );
  }
  if (keys.length > 0 && listType !== 'map') {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    const listTypeSite = fieldOf(site, 'x-kubernetes-list-type');
    issues.push(
      listType === undefined
        ? issueAt(listTypeSite, 'Required value', undefined, detail)
        : issueAt(listTypeSite, 'Invalid value', listType, detail),
    );
  }
  if (listType === 'map') {
    appendAll(issues, checkMapListShape(keys, items, site));
  }
  return issues;
}

/** The shape of each x-kubernetes-validations rule (its CEL is not compiled here). */
function checkValidationRules(schema: SchemaRecord, site: CrdSite): CrdIssue[] {
  const rules = schema['x-kubernetes-validations'];
  if (!Array.isArray(rules)) {
    return [];
  }
  const issues: CrdIssue[] = [];
  rules.forEach((rule: unknown, index) => {
    if (!isRecord(rule)) {
      return;
    }
    const ruleSite = itemOf(site, 'x-kubernetes-validations', index);
    const ruleText = stringOrEmpty(rule['rule']).trim();
    const message = stringOrEmpty(rule['message']);
    const hasLineBreak = (value: string): boolean => /[\n\r]/.test(value);
    if (ruleText === '') {
      issues.push(issueAt(fieldOf(ruleSite, 'rule'), 'Required value', undefined, 'rule is not specified'));
    } else if (message.length > 0 && message.trim() === '') {
      issues.push(
        issueAt(fieldOf(ruleSite, 'message'), 'Invalid value', message, 'must be non-empty if specified'),
      );
    } else if (hasLineBreak(message.trim())) {
      issues.push(
        issueAt(fieldOf(ruleSite, 'message'), 'Invalid value', message, 'must not contain line breaks'),
      );
    } else if (hasLineBreak(ruleText) && message.trim() === '') {
      issues.push(
        issueAt(
          fieldOf(ruleSite, 'message'),
          'Required value',
          undefined,
          'message must be specified if rule contains line breaks',
        ),
      );
    }
    const messageExpression = stringOrEmpty(rule['messageExpression']);
    if (messageExpression.length > 0 && messageExpression.trim() === '') {
      issues.push(
        issueAt(
          fieldOf(ruleSite, 'messageExpression'),
          'Required value',
          undefined,
          'messageExpression must be non-empty if specified',
        ),
      );
    }
    const reason = rule['reason'];
    if (typeof reason === 'string' && !VALIDATION_REASONS.includes(reason)) {
      issues.push(
        issueAt(
          fieldOf(ruleSite, 'reason'),
          'Unsupported value',
          reason,
          supportedValues(VALIDATION_REASONS),
        ),
      );
    }
    const fieldPath = stringOrEmpty(rule['fieldPath']);
    if (fieldPath.length > 0 && fieldPath.trim() === '') {
      issues.push(
        issueAt(fieldOf(ruleSite, 'fieldPath'), 'Invalid value', fieldPath, 'must be non-empty if specified'),
      );
    }
    if (hasLineBreak(fieldPath)) {
      issues.push(
        issueAt(fieldOf(ruleSite, 'fieldPath'), 'Invalid value', fieldPath, 'must not contain line breaks'),
      );
    }
  });
  return issues;
}
