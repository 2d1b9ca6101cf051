/**
 * The value validations of a structural schema node (allOf, anyOf, oneOf, not), as validateValueValidation and
 * validateNestedValueValidation of apiextensions-apiserver v0.35 check them (pkg/apiserver/schema/validation.go):
 * inside them only value validations, no type (except the int-or-string `anyOf: [{type: integer}, {type:
 * string}]`), description, default, additionalProperties, x-kubernetes-* extension or metadata property.
 */
import type { CrdIssue, CrdSite } from './definition-issue';
import { entryOf, fieldOf, issueAt, itemOf } from './definition-issue';
import { isRecord } from '../../engine/model/objects';

type SchemaRecord = Record<string, unknown>;

/** Keywords a nested value validation must not carry, with the detail upstream gives. */
const NESTED_FORBIDDEN: readonly [string, (value: unknown) => boolean, string][] = [
  ['type', (value) => typeof value === 'string' && value !== '', 'must be empty to be structural'],
  [
    'additionalProperties',
    (value) => value !== undefined && value !== null,
    'must be undefined to be structural',
  ],
  ['default', (value) => value !== undefined && value !== null, 'must be undefined to be structural'],
  ['title', (value) => typeof value === 'string' && value !== '', 'must be empty to be structural'],
  ['description', (value) => typeof value === 'string' && value !== '', 'must be empty to be structural'],
  ['nullable', (value) => value === true, 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', (value) => value === true, 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', (value) => value === true, 'must be false to be structural'],
  ['x-kubernetes-int-or-string', (value) => value === true, 'must be false to be structural'],
  [
    'x-kubernetes-list-map-keys',
    (value) => Array.isArray(value) && value.length > 0,
    'must be empty to be structural',
  ],
  [
    'x-kubernetes-list-type',
    (value) => value !== undefined && value !== null,
    'must be undefined to be structural',
  ],
  [
    'x-kubernetes-map-type',
    (value) => value !== undefined && value !== null,
    'must be undefined to be structural',
  ],
  [
    'x-kubernetes-validations',
    (value) => Array.isArray(value) && value.length > 0,
    'must be empty to be structural',
  ],
];
/** Deeper schemas are not checked. */
const MAX_DEPTH = 100;

/** The value validations of a node: allOf, anyOf, oneOf and not, each checked as a nested value validation. */
export function checkValueValidations(
  schema: SchemaRecord,
  site: CrdSite,
  depth: number,
  issues: CrdIssue[],
): void {
  const anyOf = Array.isArray(schema['anyOf']) ? (schema['anyOf'] as unknown[]) : [];
  const allOf = Array.isArray(schema['allOf']) ? (schema['allOf'] as unknown[]) : [];
  if (!isIntOrStringPattern(anyOf)) {
    anyOf.forEach((branch, index) => checkNested(branch, itemOf(site, 'anyOf', index), depth, issues));
  }
  allOf.forEach((branch, index) => {
    const skipsAnyOf =
      index === 0 &&
      isRecord(branch) &&
      Array.isArray(branch['anyOf']) &&
      isIntOrStringPattern(branch['anyOf'] as unknown[]);
    checkNested(branch, itemOf(site, 'allOf', index), depth, issues, skipsAnyOf);
  });
  const oneOf = Array.isArray(schema['oneOf']) ? (schema['oneOf'] as unknown[]) : [];
  oneOf.forEach((branch, index) => checkNested(branch, itemOf(site, 'oneOf', index), depth, issues));
  checkNested(schema['not'], fieldOf(site, 'not'), depth, issues);
}

/** `anyOf: [{type: integer}, {type: string}]` exactly: the int-or-string form allowed to name types. */
function isIntOrStringPattern(anyOf: readonly unknown[]): boolean {
  const [first, second] = anyOf;
  const isBareType = (branch: unknown, type: string): boolean =>
    isRecord(branch) && Object.keys(branch).length === 1 && branch['type'] === type;
  return anyOf.length === 2 && isBareType(first, 'integer') && isBareType(second, 'string');
}

function checkNested(
  node: unknown,
  site: CrdSite,
  depth: number,
  issues: CrdIssue[],
  skipsAnyOf = false,
): void {
  if (!isRecord(node) || depth > MAX_DEPTH) {
    return;
  }
  const nested = skipsAnyOf ? { ...node, anyOf: undefined } : node;
  checkValueValidations(nested, site, depth + 1, issues);
  checkNested(node['items'], fieldOf(site, 'items'), depth + 1, issues);
  const properties = isRecord(node['properties']) ? node['properties'] : {};
  for (const [name, property] of Object.entries(properties)) {
    checkNested(property, entryOf(site, 'properties', name), depth + 1, issues);
  }
  for (const [keyword, isSet, detail] of NESTED_FORBIDDEN) {
    if (isSet(node[keyword])) {
      issues.push(issueAt(fieldOf(site, keyword), 'Forbidden', undefined, detail));
    }
  }
  if ('metadata' in properties) {
    issues.push(
      issueAt(
        entryOf(site, 'properties', 'metadata'),
        'Forbidden',
        undefined,
        'must not be specified in a nested context',
      ),
    );
  }
}
