/**
 * Uniqueness of `x-kubernetes-list-type: set` and `map` lists in a custom resource, as the API server checks it
 * (staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype/validation.go): in a set, every item
 * after the first of a repeated value is a `Duplicate value: <item>`; in a map list, items are compared by their
 * x-kubernetes-list-map-keys (a missing key counts as unspecified, so two items without it collide) and the
 * duplicate prints the key map (`{"name":"a"}`, as JSON since 1.34: field-error.ts); an item of a map list that is not an
 * object is `Invalid value: ...: must be an object for an array of list-type map`. Run it on the defaulted value,
 * since the API server defaults key fields before it validates.
 */
import type { FieldIssue, FieldStep } from './field-error';
import { formatFieldError } from './field-error';

type SchemaRecord = Record<string, unknown>;

/** How deep the walk goes; deeper lists are not checked. */
const MAX_DEPTH = 200;

function isRecord(value: unknown): value is SchemaRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The duplicate and non-object items of set and map lists anywhere in a custom resource. */
export function checkListTypes(schema: unknown, value: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  visit(schema, value, [], issues);
  return issues;
}

function visit(schema: unknown, value: unknown, path: FieldStep[], issues: FieldIssue[]): void {
  if (!isRecord(schema) || path.length > MAX_DEPTH) {
    return;
  }
  if (Array.isArray(value)) {
    checkArray(schema, value, path, issues);
    value.forEach((item: unknown, index) => {
      visit(schema['items'], item, [...path, { kind: 'index', index }], issues);
    });
    return;
  }
  if (!isRecord(value)) {
    return;
  }
  const properties = isRecord(schema['properties']) ? schema['properties'] : undefined;
  const additional = isRecord(schema['additionalProperties']) ? schema['additionalProperties'] : undefined;
  for (const [key, child] of Object.entries(value)) {
    if (additional !== undefined) {
      visit(additional, child, [...path, { kind: 'key', name: key }], issues);
    }
    if (properties !== undefined && isRecord(properties[key])) {
      visit(properties[key], child, [...path, { kind: 'field', name: key }], issues);
    }
  }
}

function checkArray(
  schema: SchemaRecord,
  items: readonly unknown[],
  path: FieldStep[],
  issues: FieldIssue[],
): void {
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'set') {
    for (const index of repeatedIndexes(items)) {
      issues.push(duplicate([...path, { kind: 'index', index }], items[index]));
    }
  } else if (listType === 'map') {
    const keyFields = Array.isArray(schema['x-kubernetes-list-map-keys'])
      ? schema['x-kubernetes-list-map-keys'].filter((key): key is string => typeof key === 'string')
      : [];
    checkMapList(keyFields, items, path, issues);
  }
}

function checkMapList(
  keyFields: readonly string[],
  items: readonly unknown[],
  path: FieldStep[],
  issues: FieldIssue[],
): void {
  const notObject = items.findIndex((item) => item !== null && !isRecord(item));
  if (notObject >= 0) {
    const itemPath: FieldStep[] = [...path, { kind: 'index', index: notObject }];
    issues.push({
      path: itemPath,
      message: formatFieldError(
        itemPath,
        'Invalid value',
        items[notObject],
        'must be an object for an array of list-type map',
      ),
    });
    return;
  }
  // The key of each item: only the key fields it has (a missing field, or a null item, leaves it out).
  const keys = items.map((item) => {
    const key: SchemaRecord = {};
    for (const field of keyFields) {
      if (isRecord(item) && field in item) {
        key[field] = item[field];
      }
    }
    return key;
  });
  for (const index of repeatedIndexes(keys)) {
    issues.push(duplicate([...path, { kind: 'index', index }], keys[index]));
  }
}

/**
 * The index of the second occurrence of each repeated value (listtype's validateListSet reports each repeated
 * value once, at its first repetition).
 */
function repeatedIndexes(items: readonly unknown[]): number[] {
  const seen = new Map<string, number>();
  const repeated: number[] = [];
  items.forEach((item, index) => {
    const identity = identityOf(item);
    const times = seen.get(identity) ?? 0;
    seen.set(identity, times + 1);
    if (times === 1) {
      repeated.push(index);
    }
  });
  return repeated;
}

/** A text equal for equal values: Go compares scalars by type and value, and compounds by their JSON. */
function identityOf(item: unknown): string {
  return `${typeof item}:${canonicalJson(item)}`;
}

/** JSON with map keys sorted, as Go's json.Marshal writes maps. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  }
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function duplicate(path: FieldStep[], value: unknown): FieldIssue {
  return { path, message: formatFieldError(path, 'Duplicate value', value, '') };
}
