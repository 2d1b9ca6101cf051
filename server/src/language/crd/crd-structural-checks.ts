/**
 * The structural-schema rules an apiextensions.k8s.io/v1 CRD's schemas must follow (v1 always requires them):
 * ValidateStructural of apiextensions-apiserver v0.35 (pkg/apiserver/schema/validation.go), over the schema as
 * NewStructural reads it (convert.go). A type at the root, on every property, item and additionalProperties
 * unless x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields stands in; object at the root;
 * items on arrays; metadata limited to name and generateName; nothing but value validations inside allOf, anyOf,
 * oneOf and not (crd-nested-value-checks.ts). A schema NewStructural cannot read (id, $schema,
 * $ref, patternProperties, dependencies, additionalItems, definitions, a list of items) is not checked here:
 * crd-schema-checks.ts reports those keywords. Left out: RE2 pattern compilation.
 * https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#specifying-a-structural-schema
 */
import type { CrdIssue, CrdSite } from './definition-issue';
import { entryOf, fieldOf, issueAt } from './definition-issue';
import { checkValueValidations } from './crd-nested-value-checks';
import { isRecord } from '../../engine/model/objects';
import { appendAll } from '../../../../protocol/collections';

type SchemaRecord = Record<string, unknown>;
type Level = 'root' | 'item' | 'field';

/** The keywords that keep NewStructural from reading a schema, with its error text. */
const UNREADABLE_KEYWORDS: readonly [string, string][] = [
  ['id', 'id'],
  ['$schema', 'schema'],
  ['$ref', '$ref'],
  ['patternProperties', 'patternProperties'],
  ['dependencies', 'dependencies'],
  ['additionalItems', 'additionalItems'],
  ['definitions', 'definitions'],
];
/** What metadata at the root may carry besides name and generateName properties (NewStructural drops the rest). */
const METADATA_ALLOWED = new Set(['type', 'default', 'properties', 'example', 'externalDocs']);
/** Deeper schemas are not checked. */
const MAX_DEPTH = 100;

function typeOf(schema: SchemaRecord): string {
  return typeof schema['type'] === 'string' ? schema['type'] : '';
}

/**
 * NewStructural's error for a schema it cannot read (`OpenAPIV3Schema '$ref' is not supported`), or undefined.
 * The API server shows it only when no other check of the schema failed.
 */
export function unreadableSchemaError(schema: unknown, depth = 0): string | undefined {
  if (!isRecord(schema) || depth > MAX_DEPTH) {
    return undefined;
  }
  for (const [keyword, name] of UNREADABLE_KEYWORDS) {
    const value = schema[keyword];
    const isSet = isRecord(value)
      ? Object.keys(value).length > 0
      : value !== undefined && value !== null && value !== '';
    if (isSet) {
      return `OpenAPIV3Schema '${name}' is not supported`;
    }
  }
  if (Array.isArray(schema['items'])) {
    return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  }
  const children: unknown[] = [schema['items'], schema['not'], schema['additionalProperties']];
  for (const junctor of ['allOf', 'anyOf', 'oneOf']) {
    const branches = schema[junctor];
    appendAll(children, Array.isArray(branches) ? (branches as unknown[]) : []);
  }
  appendAll(children, Object.values(isRecord(schema['properties']) ? schema['properties'] : {}));
  for (const child of children) {
    const error = unreadableSchemaError(child, depth + 1);
    if (error !== undefined) {
      return error;
    }
  }
  return undefined;
}

/** The structural-schema issues of one openAPIV3Schema (the site is the schema itself). */
export function checkStructuralSchema(schema: unknown, site: CrdSite): CrdIssue[] {
  const issues: CrdIssue[] = [];
  if (isRecord(schema)) {
    visit(schema, 'root', site, 0, issues);
  }
  return issues;
}

function visit(schema: SchemaRecord, level: Level, site: CrdSite, depth: number, issues: CrdIssue[]): void {
  if (depth > MAX_DEPTH) {
    return;
  }
  const type = typeOf(schema);
  const items = schema['items'];
  if (type === 'array' && (items === undefined || items === null)) {
    issues.push(issueAt(fieldOf(site, 'items'), 'Required value', undefined, 'must be specified'));
  }
  if (isRecord(items)) {
    visit(items, 'item', fieldOf(site, 'items'), depth + 1, issues);
  }
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  for (const [name, property] of Object.entries(properties)) {
    if (isRecord(property)) {
      visit(property, 'field', entryOf(site, 'properties', name), depth + 1, issues);
    }
  }
  const additional = schema['additionalProperties'];
  const hasAdditional = additional !== undefined && additional !== null;
  if (hasAdditional && level === 'root') {
    issues.push(
      issueAt(fieldOf(site, 'additionalProperties'), 'Forbidden', undefined, 'must not be used at the root'),
    );
  }
  if (isRecord(additional)) {
    visit(additional, 'field', fieldOf(site, 'additionalProperties'), depth + 1, issues);
  }
  checkExtensions(schema, site, issues);
  checkValueValidations(schema, site, depth, issues);
  const isIntOrString = schema['x-kubernetes-int-or-string'] === true;
  const preservesUnknown = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const isEmbedded = schema['x-kubernetes-embedded-resource'] === true;
  const typeSite = fieldOf(site, 'type');
  if (isEmbedded && type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    issues.push(
      type === ''
        ? issueAt(typeSite, 'Required value', undefined, detail)
        : issueAt(typeSite, 'Invalid value', type, detail),
    );
  } else if (type === '' && !isIntOrString && !preservesUnknown) {
    const where = {
      root: 'at the root',
      item: 'for specified array items',
      field: 'for specified object fields',
    }[level];
    issues.push(issueAt(typeSite, 'Required value', undefined, `must not be empty ${where}`));
  }
  if (isEmbedded && hasAdditional) {
    issues.push(
      issueAt(
        fieldOf(site, 'additionalProperties'),
        'Forbidden',
        undefined,
        'must not be used if x-kubernetes-embedded-resource is set',
      ),
    );
  }
  if (level === 'root' && type !== '' && type !== 'object') {
    issues.push(issueAt(typeSite, 'Invalid value', type, 'must be object at the root'));
  }
  const checksMetadata = level === 'root' || isEmbedded;
  for (const name of ['kind', 'apiVersion']) {
    const property = properties[name];
    if (checksMetadata && isRecord(property) && typeOf(property) !== 'string') {
      issues.push(
        issueAt(
          fieldOf(entryOf(site, 'properties', name), 'type'),
          'Invalid value',
          typeOf(property),
          'must be string',
        ),
      );
    }
  }
  const metadata = properties['metadata'];
  if (isRecord(metadata)) {
    appendAll(
      issues,
      checkMetadata(metadata, checksMetadata, level, entryOf(site, 'properties', 'metadata')),
    );
  }
  if (isEmbedded && !preservesUnknown && Object.keys(properties).length === 0) {
    issues.push(
      issueAt(
        fieldOf(site, 'properties'),
        'Required value',
        undefined,
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  }
}

/** validateExtensions: int-or-string excludes preserve-unknown-fields and embedded-resource. */
function checkExtensions(schema: SchemaRecord, site: CrdSite, issues: CrdIssue[]): void {
  if (schema['x-kubernetes-int-or-string'] !== true) {
    return;
  }
  for (const extension of ['x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource']) {
    if (schema[extension] === true) {
      issues.push(
        issueAt(
          fieldOf(site, extension),
          'Invalid value',
          true,
          'must be false if x-kubernetes-int-or-string is true',
        ),
      );
    }
  }
}

/** validateStructuralMetadataInvariants: an object; at the root, nothing but name and generateName. */
function checkMetadata(
  metadata: SchemaRecord,
  checksMetadata: boolean,
  level: Level,
  site: CrdSite,
): CrdIssue[] {
  const issues: CrdIssue[] = [];
  if (checksMetadata && typeOf(metadata) !== 'object') {
    issues.push(issueAt(fieldOf(site, 'type'), 'Invalid value', typeOf(metadata), 'must be object'));
  }
  if (level !== 'root') {
    return issues;
  }
  const properties = Object.keys(isRecord(metadata['properties']) ? metadata['properties'] : {});
  const onlyNames = properties.every((name) => name === 'name' || name === 'generateName');
  const hasOther = Object.entries(metadata).some(
    ([keyword, value]) => !METADATA_ALLOWED.has(keyword) && isMeaningful(value),
  );
  if (!onlyNames || hasOther) {
    issues.push(
      issueAt(
        site,
        'Forbidden',
        undefined,
        'must not specify anything other than name and generateName, but metadata is implicitly specified',
      ),
    );
  }
  return issues;
}

/** Whether a keyword's value differs from Go's zero value (false, "", an empty list or map, null). */
function isMeaningful(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '' || value === 0) {
    return false;
  }
  if (Array.isArray(value)) {
    return value.length > 0;
  }
  return !isRecord(value) || Object.keys(value).length > 0;
}
