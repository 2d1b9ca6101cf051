/**
 * What an `x-kubernetes-list-type: map` list of a CRD schema needs, as ValidateCustomResourceDefinitionOpenAPISchema
 * and validateMapListKeysMapSet of apiextensions-apiserver v0.35 check it: keys, one object schema for the
 * items, keys that are scalar properties of the items, required or defaulted and never nullable; and items of
 * sets and map lists that are not nullable.
 */
import type { CrdIssue, CrdSite } from './definition-issue';
import { entryOf, fieldOf, issueAt, stringOrEmpty } from './definition-issue';
import { isRecord } from '../../engine/model/objects';

type SchemaRecord = Record<string, unknown>;

/** The keys and items of a map list. */
export function checkMapListShape(keys: readonly unknown[], items: unknown, site: CrdSite): CrdIssue[] {
  const issues: CrdIssue[] = [];
  const keysSite = fieldOf(site, 'x-kubernetes-list-map-keys');
  const itemsSite = fieldOf(site, 'items');
  if (keys.length === 0) {
    issues.push(
      issueAt(keysSite, 'Required value', undefined, 'must not be empty if x-kubernetes-list-type is map'),
    );
  }
  if (items === undefined || items === null) {
    issues.push(
      issueAt(itemsSite, 'Required value', undefined, 'must have a schema if x-kubernetes-list-type is map'),
    );
    return issues;
  }
  if (!isRecord(items)) {
    issues.push(
      issueAt(
        itemsSite,
        'Invalid value',
        items,
        'must only have a single schema if x-kubernetes-list-type is map',
      ),
    );
    return issues;
  }
  const itemType = stringOrEmpty(items['type']);
  if (itemType !== 'object') {
    issues.push(
      issueAt(
        fieldOf(itemsSite, 'type'),
        'Invalid value',
        itemType,
        "must be object if parent array's x-kubernetes-list-type is map",
      ),
    );
    return issues;
  }
  const properties = isRecord(items['properties']) ? items['properties'] : {};
  const seen = new Set<unknown>();
  for (const key of keys) {
    const property = typeof key === 'string' ? properties[key] : undefined;
    if (isRecord(property)) {
      if (property['type'] === 'array' || property['type'] === 'object') {
        // Upstream prints the items' type ("object") as the bad value.
        issues.push(
          issueAt(
            fieldOf(entryOf(itemsSite, 'properties', String(key)), 'type'),
            'Invalid value',
            itemType,
            "must be a scalar type if parent array's x-kubernetes-list-type is map",
          ),
        );
      }
    } else {
      issues.push(issueAt(keysSite, 'Invalid value', keys, 'entries must all be names of item properties'));
    }
    if (seen.has(key)) {
      issues.push(issueAt(keysSite, 'Invalid value', keys, 'must not contain duplicate entries'));
    }
    seen.add(key);
  }
  return issues;
}

/** validateMapListKeysMapSet: items of sets and map lists not nullable; map keys required or defaulted. */
export function checkMapListKeysAndSets(schema: SchemaRecord, site: CrdSite): CrdIssue[] {
  const listType = schema['x-kubernetes-list-type'];
  const items = schema['items'];
  if ((listType !== 'set' && listType !== 'map') || !isRecord(items)) {
    return [];
  }
  const issues: CrdIssue[] = [];
  const itemsSite = fieldOf(site, 'items');
  if (items['nullable'] === true) {
    issues.push(
      issueAt(
        fieldOf(itemsSite, 'nullable'),
        'Forbidden',
        undefined,
        `cannot be nullable when x-kubernetes-list-type is ${listType}`,
      ),
    );
  }
  if (listType !== 'map') {
    return issues;
  }
  const required = new Set(Array.isArray(items['required']) ? (items['required'] as unknown[]) : []);
  const properties = isRecord(items['properties']) ? items['properties'] : {};
  const keys = Array.isArray(schema['x-kubernetes-list-map-keys'])
    ? (schema['x-kubernetes-list-map-keys'] as unknown[])
    : [];
  for (const key of keys) {
    const property = typeof key === 'string' ? properties[key] : undefined;
    if (typeof key !== 'string' || !isRecord(property)) {
      continue;
    }
    const keySite = entryOf(itemsSite, 'properties', key);
    if (!required.has(key) && (property['default'] === undefined || property['default'] === null)) {
      issues.push(
        issueAt(
          fieldOf(keySite, 'default'),
          'Required value',
          undefined,
          'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
        ),
      );
    }
    if (property['nullable'] === true) {
      issues.push(
        issueAt(
          fieldOf(keySite, 'nullable'),
          'Forbidden',
          undefined,
          'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
        ),
      );
    }
  }
  return issues;
}
