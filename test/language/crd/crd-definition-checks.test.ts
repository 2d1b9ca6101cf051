/**
 * A CustomResourceDefinition as the API server validates it on create (ValidateCustomResourceDefinition,
 * apiextensions-apiserver v0.35). Rows name the upstream function, or the case of TestValidateCustomResourceDefinition
 * (pkg/apis/apiextensions/validation/validation_test.go) or of pkg/apiserver/schema/validation_test.go, they follow;
 * the CRDs are written here, in the v1 form a user applies (defaulted and converted as the API server does).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkCrdDefinition } from '../../../server/src/language/crd/crd-definition-checks';
import { checkCustomResourceDefinition } from '../../../server/src/language/crd/crd-definition-rule';
import { runRule, yaml } from '../rules/rule-harness';
import { crdLines } from '../../support/crd-yaml';

type Plain = Record<string, unknown>;

const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const TYPES = 'supported values: "array", "boolean", "integer", "number", "object", "string"';
const ROOT = 'spec.validation.openAPIV3Schema';

/** A valid CRD of widgets.example.com with one version; `schema` replaces that version's openAPIV3Schema. */
function crd(spec: Plain = {}, schema?: unknown, metadata: Plain = {}): Plain {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com', ...metadata },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [version('v1', true, schema)],
      ...spec,
    },
  };
}

function version(name: string, storage: boolean, schema?: unknown): Plain {
  return {
    name,
    served: true,
    storage,
    schema: { openAPIV3Schema: schema ?? { type: 'object', properties: { spec: { type: 'object' } } } },
  };
}

/** A schema whose spec has these properties. */
function specWith(properties: Plain): Plain {
  return { type: 'object', properties: { spec: { type: 'object', properties } } };
}

const cases: { name: string; crd: Plain; expected: string[] }[] = [
  {
    name: 'a well-formed CRD with its defaults (singular, listKind) left out is accepted',
    crd: crd(),
    expected: [],
  },
  {
    name: 'TestValidateCustomResourceDefinition "mismatched name": metadata.name must be plural.group',
    crd: crd({}, undefined, { name: 'widget.example.com' }),
    expected: [
      'metadata.name: Invalid value: "widget.example.com": must be spec.names.plural+"."+spec.group',
    ],
  },
  {
    name: 'TestValidateCustomResourceDefinition "invalid types disallowed": a misspelt type is an unsupported value',
    crd: crd({}, specWith({ message: { type: 'strign' } })),
    expected: [`${ROOT}.properties[spec].properties[message].type: Unsupported value: "strign": ${TYPES}`],
  },
  {
    name: 'v1 conversion: schemas that differ between versions are checked where each is written',
    crd: crd({ versions: [version('v1', true, specWith({ a: { type: 'strign' } })), version('v2', false)] }),
    expected: [
      `spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[a].type: Unsupported value: "strign": ${TYPES}`,
    ],
  },
  {
    name: 'TestValidateCustomResourceDefinition "bad names 01": group without a dot, unsupported scope, bad names',
    crd: {
      ...crd(),
      metadata: { name: 'pl()*ural.group' },
      spec: {
        group: 'group',
        scope: 'foo',
        names: { plural: 'pl()*ural', singular: 'value()*a', kind: 'value()*a', listKind: 'value()*a' },
        versions: [version('v1', true)],
      },
    },
    expected: [
      'spec.group: Invalid value: "group": should be a domain with at least one dot',
      'spec.scope: Unsupported value: "foo": supported values: "Cluster", "Namespaced"',
      `spec.names.plural: Invalid value: "pl()*ural": ${DNS1035}`,
      `spec.names.singular: Invalid value: "value()*a": ${DNS1035}`,
      `spec.names.kind: Invalid value: "value()*a": may have mixed case, but should otherwise match: ${DNS1035}`,
      `spec.names.listKind: Invalid value: "value()*a": may have mixed case, but should otherwise match: ${DNS1035}`,
      'spec.names.listKind: Invalid value: "value()*a": kind and listKind may not be the same',
    ],
  },
  {
    name: 'TestValidateCustomResourceDefinition "missing values": group, scope, plural and kind are required',
    crd: { ...crd(), metadata: { name: 'widgets.example.com' }, spec: { versions: [version('v1', true)] } },
    expected: [
      'metadata.name: Invalid value: "widgets.example.com": must be spec.names.plural+"."+spec.group',
      'spec.group: Required value',
      'spec.scope: Required value',
      'spec.names.plural: Required value',
      'spec.names.singular: Required value',
      'spec.names.kind: Required value',
      'spec.names.listKind: Required value',
    ],
  },
  {
    name: 'TestValidateCustomResourceDefinition "no_storage_version": one version must be the storage version',
    crd: crd({ versions: [version('v1', false)] }),
    expected: [
      'spec.versions: Invalid value: must have exactly one version marked as storage version',
      'status.storedVersions: Invalid value: null: must have at least one stored version',
    ],
  },
  {
    name: 'TestValidateCustomResourceDefinition "multiple_storage_version", and a repeated version name',
    crd: crd({ versions: [version('v1', true), version('v1', true)] }),
    expected: [
      'spec.versions: Invalid value: must contain unique version names',
      'spec.versions: Invalid value: must have exactly one version marked as storage version',
    ],
  },
  {
    name: 'TestValidateCustomResourceDefinition "schema is required": a version without openAPIV3Schema',
    crd: crd({ versions: [{ name: 'v1', served: true, storage: true }] }),
    expected: ['spec.versions[0].schema.openAPIV3Schema: Required value'],
  },
  {
    name: 'TestValidateCustomResourceDefinition "preserveUnknownFields: true" is refused in v1',
    crd: crd({ preserveUnknownFields: true }),
    expected: [
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ],
  },
  {
    name: 'validateAPIApproval: a *.k8s.io group needs the api-approved.kubernetes.io annotation',
    crd: crd({ group: 'widgets.k8s.io' }, undefined, { name: 'widgets.widgets.k8s.io' }),
    expected: [
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ],
  },
  {
    name: 'validateAPIApproval: a URL or an "unapproved" reason satisfies it; other text does not',
    crd: crd({ group: 'widgets.k8s.io' }, undefined, {
      name: 'widgets.widgets.k8s.io',
      annotations: { 'api-approved.kubernetes.io': 'yes' },
    }),
    expected: [
      'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "yes": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
    ],
  },
  {
    name: 'TestValidateCustomResourceDefinition "additionalProperties and properties forbidden"',
    crd: crd(
      {},
      specWith({
        labels: {
          type: 'object',
          properties: { a: { type: 'string' } },
          additionalProperties: { type: 'string' },
        },
      }),
    ),
    expected: [
      `${ROOT}.properties[spec].properties[labels].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    ],
  },
  {
    name: 'TestValidateCustomResourceDefinition "additionalProperties without properties allowed (map[string]string)"',
    crd: crd({}, specWith({ labels: { type: 'object', additionalProperties: { type: 'string' } } })),
    expected: [],
  },
  {
    name: 'TestValidateCustomResourceDefinition "x-kubernetes-preserve-unknown-field: false" is refused',
    crd: crd({}, specWith({ raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false } })),
    expected: [
      `${ROOT}.properties[spec].properties[raw].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
    ],
  },
  {
    name: 'TestValidateCustomResourceDefinition "additionalProperties at resource root" (ValidateStructural)',
    crd: crd({}, { type: 'object', additionalProperties: { type: 'string' } }),
    expected: [`${ROOT}.additionalProperties: Forbidden: must not be used at the root`],
  },
  {
    name: 'TestValidateCustomResourceDefinition "top-level metadata default": defaults are refused in metadata',
    crd: crd({}, { type: 'object', properties: { metadata: { type: 'object', default: {} } } }),
    expected: [`${ROOT}.properties[metadata].default: Forbidden: must not be set in top-level metadata`],
  },
  {
    name: 'TestValidateStructuralMetadataInvariants: metadata at the root may name only name and generateName',
    crd: crd(
      {},
      {
        type: 'object',
        properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } },
      },
    ),
    expected: [
      `${ROOT}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ],
  },
  {
    name: 'TestValidateStructuralMetadataInvariants: name and generateName may be constrained',
    crd: crd(
      {},
      {
        type: 'object',
        properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } } },
      },
    ),
    expected: [],
  },
  {
    name: 'TestValidateStructuralCompleteness: every property, item and the root name a type',
    crd: crd(
      {},
      { properties: { spec: { properties: { list: { type: 'array', items: { description: 'x' } } } } } },
    ),
    expected: [
      `${ROOT}.type: Required value: must not be empty at the root`,
      `${ROOT}.properties[spec].type: Required value: must not be empty for specified object fields`,
      `${ROOT}.properties[spec].properties[list].items.type: Required value: must not be empty for specified array items`,
    ],
  },
  {
    name: 'ValidateStructural: int-or-string and preserve-unknown-fields stand in for a type; arrays need items',
    crd: crd(
      {},
      specWith({
        port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        raw: { 'x-kubernetes-preserve-unknown-fields': true },
        list: { type: 'array' },
      }),
    ),
    expected: [`${ROOT}.properties[spec].properties[list].items: Required value: must be specified`],
  },
  {
    name: 'ValidateStructural: the root is an object, and kind and apiVersion are strings',
    crd: crd({}, { type: 'array', items: { type: 'string' }, properties: { kind: { type: 'integer' } } }),
    expected: [
      `${ROOT}.type: Invalid value: "array": must be object at the root`,
      `${ROOT}.properties[kind].type: Invalid value: "integer": must be string`,
    ],
  },
  {
    name: 'TestValidateNestedValueValidationComplete: inside anyOf, no type, description or default',
    crd: crd(
      {},
      specWith({ mode: { type: 'string', anyOf: [{ type: 'string', description: 'd' }, { enum: ['a'] }] } }),
    ),
    expected: [
      `${ROOT}.properties[spec].properties[mode].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${ROOT}.properties[spec].properties[mode].anyOf[0].description: Forbidden: must be empty to be structural`,
    ],
  },
  {
    name: 'TestValidateCustomResourceDefinition "x-kubernetes-validations should be forbidden under oneOf/anyOf/allOf/not"',
    crd: crd(
      {},
      specWith({ a: { type: 'string', allOf: [{ 'x-kubernetes-validations': [{ rule: 'true' }] }] } }),
    ),
    expected: [
      `${ROOT}.properties[spec].properties[a].allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
    ],
  },
  {
    name: 'TestValidateCustomResourceDefinition "x-kubernetes-validations should have valid reason and fieldPath"',
    crd: crd(
      {},
      specWith({
        a: { type: 'string', 'x-kubernetes-validations': [{ rule: 'true', reason: 'Bad', fieldPath: ' ' }] },
      }),
    ),
    expected: [
      `${ROOT}.properties[spec].properties[a].x-kubernetes-validations[0].reason: Unsupported value: "Bad": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      `${ROOT}.properties[spec].properties[a].x-kubernetes-validations[0].fieldPath: Invalid value: " ": must be non-empty if specified`,
    ],
  },
  {
    name: 'ValidateCustomResourceDefinitionOpenAPISchema: a map list needs object items whose keys are required or defaulted',
    crd: crd(
      {},
      specWith({
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'missing'],
          items: { type: 'object', properties: { port: { type: 'integer' } } },
        },
      }),
    ),
    expected: [
      `${ROOT}.properties[spec].properties[ports].x-kubernetes-list-map-keys: Invalid value: ["port","missing"]: entries must all be names of item properties`,
      `${ROOT}.properties[spec].properties[ports].items.properties[port].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ],
  },
  {
    name: 'ValidateCustomResourceDefinitionOpenAPISchema: list and map types only on arrays and objects',
    crd: crd(
      {},
      specWith({
        a: { type: 'string', 'x-kubernetes-list-type': 'sett', 'x-kubernetes-map-type': 'atomic' },
      }),
    ),
    expected: [
      `${ROOT}.properties[spec].properties[a].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
      `${ROOT}.properties[spec].properties[a].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
      `${ROOT}.properties[spec].properties[a].x-kubernetes-list-type: Unsupported value: "sett": supported values: "atomic", "set", "map"`,
    ],
  },
  {
    name: 'specStandardValidatorV3.validate: $ref, uniqueItems and a null type are refused',
    crd: crd(
      {},
      specWith({
        a: { $ref: '#/definitions/x' },
        b: { type: 'array', uniqueItems: true, items: { type: 'string' } },
        c: { type: 'null' },
      }),
    ),
    expected: [
      `${ROOT}.properties[spec].properties[a].$ref: Forbidden: $ref is not supported`,
      `${ROOT}.properties[spec].properties[b].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      `${ROOT}.properties[spec].properties[c].type: Unsupported value: "null": ${TYPES}`,
      `${ROOT}.properties[spec].properties[c].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
    ],
  },
];

void describe('checkCrdDefinition', () => {
  for (const row of cases) {
    void test(row.name, () => {
      const messages = checkCrdDefinition(row.crd).map((issue) => issue.message);
      assert.deepEqual([...messages].sort(), [...row.expected].sort());
    });
  }
});

void describe('checkCustomResourceDefinition (the rule)', () => {
  void test('places an unsupported schema type on its value, with the path the API server prints', () => {
    const text = yaml(
      ...crdLines({ kind: 'Widget' }, [
        'type: object',
        'properties:',
        '  spec:',
        '    type: object',
        '    properties:',
        '      message: { type: strign }',
      ]),
    );
    assert.deepEqual(runRule(checkCustomResourceDefinition, text), [
      {
        code: 'crd-definition-invalid',
        message: `${ROOT}.properties[spec].properties[message].type: Unsupported value: "strign": ${TYPES}`,
        at: 'strign',
        line: 19,
      },
    ]);
  });

  void test('places a forbidden keyword on its key, and leaves other kinds alone', () => {
    const text = yaml(
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
      'metadata: { name: widgets.example.com }',
      'spec:',
      '  group: example.com',
      '  scope: Namespaced',
      '  names: { plural: widgets, kind: Widget }',
      '  versions:',
      '    - { name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object, additionalProperties: true } } }',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: { name: settings }',
    );
    assert.deepEqual(runRule(checkCustomResourceDefinition, text), [
      {
        code: 'crd-definition-invalid',
        message: `${ROOT}.additionalProperties: Forbidden: must not be used at the root`,
        at: 'additionalProperties',
        line: 9,
      },
    ]);
  });
});
