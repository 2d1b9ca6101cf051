/**
 * The checks the API server makes on each openAPIV3Schema of a CustomResourceDefinition before it accepts the
 * CRD: ValidateCustomResourceDefinitionOpenAPISchema and specStandardValidatorV3.validate of
 * apiextensions-apiserver v0.35 (pkg/apis/apiextensions/validation/validation.go): the OpenAPI v3 types, the
 * keywords it does not support, additionalProperties beside properties, defaults in the resource's metadata,
 * and the x-kubernetes-* extensions (crd-extension-checks.ts). The structural-schema rules are in
 * crd-structural-checks.ts. Left out: the defaults validated against their schema, and the root restrictions
 * when the status subresource is enabled.
 */
import type { CrdIssue, CrdSite } from './definition-issue';
import { entryOf, fieldOf, issueAt, itemOf, supportedValues, stringOrEmpty } from './definition-issue';
import { checkExtensionKeywords } from './crd-extension-checks';
import { isRecord } from '../../engine/model/objects';
import { appendAll } from '../../../../protocol/collections';

type SchemaRecord = Record<string, unknown>;

/** openapiV3Types, as sets.List sorts them. */
const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
/** The fields of the resource's own type and object metadata (metaFields). */
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);
/** Keywords the API server refuses wherever they appear (specStandardValidatorV3.validate). */
const UNSUPPORTED_KEYWORDS = ['additionalItems', 'patternProperties', 'definitions', 'dependencies', '$ref'];
/** Deeper schemas are not checked. */
const MAX_DEPTH = 100;

/** What applies below a point of the walk (specStandardValidatorV3's options). */
interface WalkState {
  /** Set when defaults are refused here, with the reason upstream appends. */
  readonly forbiddenDefaults?: string;
  readonly insideResourceMeta: boolean;
  readonly depth: number;
}

/** The issues of one openAPIV3Schema; the site is the schema itself (`spec.validation.openAPIV3Schema`). */
export function checkOpenApiSchema(schema: unknown, site: CrdSite): CrdIssue[] {
  if (!isRecord(schema)) {
    return [];
  }
  const issues: CrdIssue[] = [];
  if (schema['nullable'] === true) {
    issues.push(
      issueAt(fieldOf(site, 'nullable'), 'Forbidden', undefined, 'nullable cannot be true at the root'),
    );
  }
  visit(schema, site, { insideResourceMeta: false, depth: 0 }, true, issues);
  return issues;
}

function visit(
  schema: SchemaRecord,
  site: CrdSite,
  state: WalkState,
  isRoot: boolean,
  issues: CrdIssue[],
): void {
  if (state.depth > MAX_DEPTH) {
    return;
  }
  checkStandard(schema, site, state, issues);
  if (schema['uniqueItems'] === true) {
    issues.push(
      issueAt(
        fieldOf(site, 'uniqueItems'),
        'Forbidden',
        undefined,
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  }
  const deeper = { ...state, depth: state.depth + 1 };
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const additional = schema['additionalProperties'];
  if (additional !== undefined && additional !== null) {
    if (Object.keys(properties).length > 0 && (additional === false || isRecord(additional))) {
      issues.push(
        issueAt(
          fieldOf(site, 'additionalProperties'),
          'Forbidden',
          undefined,
          'additionalProperties and properties are mutual exclusive',
        ),
      );
    }
    if (isRecord(additional)) {
      const inner = state.insideResourceMeta
        ? { ...deeper, forbiddenDefaults: 'inside additionalProperties applying to object metadata' }
        : deeper;
      visit(additional, fieldOf(site, 'additionalProperties'), inner, false, issues);
    }
  }
  for (const [name, property] of Object.entries(properties)) {
    if (!isRecord(property)) {
      continue;
    }
    let inner: WalkState = deeper;
    if ((isRoot || schema['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(name)) {
      inner = { ...inner, insideResourceMeta: true };
      if (isRoot) {
        inner = { ...inner, forbiddenDefaults: `in top-level ${name}` };
      }
    }
    visit(property, entryOf(site, 'properties', name), inner, false, issues);
  }
  visitNested(schema, site, deeper, issues);
  appendAll(issues, checkExtensionKeywords(schema, site));
}

/** not, allOf, oneOf, anyOf, definitions, items and dependencies, walked as upstream does. */
function visitNested(schema: SchemaRecord, site: CrdSite, state: WalkState, issues: CrdIssue[]): void {
  if (isRecord(schema['not'])) {
    visit(schema['not'], fieldOf(site, 'not'), state, false, issues);
  }
  for (const junctor of ['allOf', 'oneOf', 'anyOf']) {
    const branches = schema[junctor];
    if (Array.isArray(branches)) {
      branches.forEach((branch: unknown, index) => {
        if (isRecord(branch)) {
          visit(branch, itemOf(site, junctor, index), state, false, issues);
        }
      });
    }
  }
  for (const group of ['definitions', 'dependencies']) {
    const entries = schema[group];
    for (const [key, entry] of Object.entries(isRecord(entries) ? entries : {})) {
      if (isRecord(entry)) {
        visit(entry, entryOf(site, group, key), state, false, issues);
      }
    }
  }
  const items = schema['items'];
  if (isRecord(items)) {
    visit(items, fieldOf(site, 'items'), state, false, issues);
  } else if (Array.isArray(items)) {
    items.forEach((item: unknown, index) => {
      if (isRecord(item)) {
        visit(item, itemOf(site, 'items', index), state, false, issues);
      }
    });
  }
}

/** specStandardValidatorV3.validate: types, defaults where refused, unsupported keywords. */
function checkStandard(schema: SchemaRecord, site: CrdSite, state: WalkState, issues: CrdIssue[]): void {
  const type = stringOrEmpty(schema['type']);
  if (type !== '' && !OPENAPI_V3_TYPES.includes(type)) {
    issues.push(issueAt(fieldOf(site, 'type'), 'Unsupported value', type, supportedValues(OPENAPI_V3_TYPES)));
  }
  if (schema['default'] !== undefined && state.forbiddenDefaults !== undefined) {
    issues.push(
      issueAt(fieldOf(site, 'default'), 'Forbidden', undefined, `must not be set ${state.forbiddenDefaults}`),
    );
  }
  if (stringOrEmpty(schema['id']) !== '') {
    issues.push(issueAt(fieldOf(site, 'id'), 'Forbidden', undefined, 'id is not supported'));
  }
  for (const keyword of UNSUPPORTED_KEYWORDS) {
    const value = schema[keyword];
    // patternProperties and definitions count when they have entries; the others (pointers upstream) when set.
    const isMap = keyword === 'patternProperties' || keyword === 'definitions';
    const isSet = isMap
      ? isRecord(value) && Object.keys(value).length > 0
      : value !== undefined && value !== null;
    if (isSet) {
      issues.push(issueAt(fieldOf(site, keyword), 'Forbidden', undefined, `${keyword} is not supported`));
    }
  }
  if (type === 'null') {
    issues.push(
      issueAt(
        fieldOf(site, 'type'),
        'Forbidden',
        undefined,
        'type cannot be set to null, use nullable as an alternative',
      ),
    );
  }
  if (Array.isArray(schema['items']) && schema['items'].length > 0) {
    issues.push(
      issueAt(
        fieldOf(site, 'items'),
        'Forbidden',
        undefined,
        'items must be a schema object and not an array',
      ),
    );
  }
  if (state.insideResourceMeta && schema['x-kubernetes-embedded-resource'] === true) {
    issues.push(
      issueAt(
        fieldOf(site, 'x-kubernetes-embedded-resource'),
        'Forbidden',
        undefined,
        'must not be used inside of resource meta',
      ),
    );
  }
}
