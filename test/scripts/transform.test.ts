import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../scripts/schemas/json';
import {
  INT_OR_STRING_DEFINITION,
  QUANTITY_DEFINITION,
  transformDefinition,
  transformSchema,
} from '../../scripts/schemas/transform';

const REF = '#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec';
const OUT_REF = '#/definitions/io.k8s.api.apps.v1.DeploymentSpec';

/** Translates a nested (nullable) schema node. */
function nested(schema: JsonObject): JsonObject {
  return transformSchema(schema, { where: 'test', nullable: true });
}

void describe('transformSchema', () => {
  const cases: { name: string; input: JsonObject; expected: JsonObject }[] = [
    {
      name: 'an allOf holding one $ref becomes a $ref that keeps the description and drops the default',
      input: { allOf: [{ $ref: REF }], default: {}, description: 'Spec.' },
      expected: { $ref: OUT_REF, description: 'Spec.' },
    },
    {
      name: 'a $ref with siblings keeps only the description beside the rewritten $ref',
      input: { $ref: REF, default: {}, description: 'Spec.', 'x-kubernetes-patch-strategy': 'retainKeys' },
      expected: { $ref: OUT_REF, description: 'Spec.' },
    },
    {
      name: 'a scalar type also admits null and loses its format',
      input: { type: 'integer', format: 'int32', description: 'Replicas.' },
      expected: { type: ['integer', 'null'], description: 'Replicas.' },
    },
    {
      name: 'an object with properties rejects unknown fields and its properties are translated',
      input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      expected: {
        type: ['object', 'null'],
        properties: { name: { type: ['string', 'null'] } },
        required: ['name'],
        additionalProperties: false,
      },
    },
    {
      name: 'a map keeps its additionalProperties schema and gets no restriction',
      input: { type: 'object', additionalProperties: { type: 'string', default: '' } },
      expected: { type: ['object', 'null'], additionalProperties: { type: ['string', 'null'] } },
    },
    {
      name: 'an object without properties stays open',
      input: { type: 'object', description: 'RawExtension.' },
      expected: { type: ['object', 'null'], description: 'RawExtension.' },
    },
    {
      name: 'an object preserving unknown fields gets no additionalProperties restriction',
      input: {
        type: 'object',
        properties: { a: { type: 'string' } },
        'x-kubernetes-preserve-unknown-fields': true,
      },
      expected: { type: ['object', 'null'], properties: { a: { type: ['string', 'null'] } } },
    },
    {
      name: 'an array translates its items and drops list extensions',
      input: {
        type: 'array',
        items: { allOf: [{ $ref: REF }], default: {} },
        'x-kubernetes-list-type': 'atomic',
      },
      expected: { type: ['array', 'null'], items: { $ref: OUT_REF } },
    },
    {
      name: 'a map list keeps x-kubernetes-list-type and its keys, for rules/list-map-duplicate.ts',
      input: {
        type: 'array',
        items: { allOf: [{ $ref: REF }], default: {} },
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
        'x-kubernetes-patch-merge-key': 'containerPort',
      },
      expected: {
        type: ['array', 'null'],
        items: { $ref: OUT_REF },
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
      },
    },
    {
      name: 'an inline int-or-string format becomes an integer-or-string union',
      input: { type: 'string', format: 'int-or-string', description: 'Port.' },
      expected: { type: ['integer', 'string', 'null'], description: 'Port.' },
    },
    {
      name: 'a oneOf of bare types becomes a union type with no oneOf left',
      input: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      expected: { type: ['string', 'number', 'null'] },
    },
    {
      name: 'an enum also admits null where the type does',
      input: { type: 'string', enum: ['Always', 'Never'] },
      expected: { type: ['string', 'null'], enum: ['Always', 'Never', null] },
    },
    {
      name: 'minimum and maximum are kept',
      input: { type: 'integer', minimum: 0, maximum: 10 },
      expected: { type: ['integer', 'null'], minimum: 0, maximum: 10 },
    },
    {
      name: 'a schema with no type (JSON) admits anything',
      input: { description: 'Any JSON value.' },
      expected: { description: 'Any JSON value.' },
    },
    {
      name: 'property names are data: a property called $ref or x-kubernetes-... is kept',
      input: {
        type: 'object',
        properties: { $ref: { type: 'string' }, 'x-kubernetes-preserve-unknown-fields': { type: 'boolean' } },
      },
      expected: {
        type: ['object', 'null'],
        properties: {
          $ref: { type: ['string', 'null'] },
          'x-kubernetes-preserve-unknown-fields': { type: ['boolean', 'null'] },
        },
        additionalProperties: false,
      },
    },
  ];
  for (const { name, input, expected } of cases) {
    void test(name, () => {
      assert.deepEqual(nested(input), expected);
    });
  }

  const failures: { name: string; input: JsonObject; message: RegExp }[] = [
    {
      name: 'an unknown keyword is refused rather than dropped',
      input: { type: 'string', pattern: '^a' },
      message: /pattern/,
    },
    {
      name: 'an allOf of two schemas is refused',
      input: { allOf: [{ $ref: REF }, { $ref: REF }] },
      message: /allOf/,
    },
    {
      name: 'a oneOf of structured branches is refused',
      input: { oneOf: [{ type: 'object', properties: {} }] },
      message: /oneOf/,
    },
    {
      name: 'a $ref outside components.schemas is refused',
      input: { $ref: 'other.json#/x' },
      message: /unexpected \$ref/,
    },
    {
      name: 'a type beside a $ref is refused',
      input: { $ref: REF, type: 'object' },
      message: /beside a \$ref/,
    },
  ];
  for (const { name, input, message } of failures) {
    void test(name, () => {
      assert.throws(() => nested(input), message);
    });
  }
});

void describe('transformDefinition', () => {
  const cases: {
    name: string;
    definition: string;
    input: JsonObject;
    isKindRoot: boolean;
    expected: JsonObject;
  }[] = [
    {
      name: 'the top of a kind does not admit null',
      definition: 'io.k8s.api.core.v1.ConfigMap',
      input: {
        type: 'object',
        properties: { data: { type: 'object', additionalProperties: { type: 'string' } } },
      },
      isKindRoot: true,
      expected: {
        type: 'object',
        properties: {
          data: { type: ['object', 'null'], additionalProperties: { type: ['string', 'null'] } },
        },
        additionalProperties: false,
      },
    },
    {
      name: 'Quantity takes a string or a number and names the quantity format',
      definition: QUANTITY_DEFINITION,
      input: { description: 'Quantity.', oneOf: [{ type: 'string' }, { type: 'number' }] },
      isKindRoot: false,
      expected: { type: ['string', 'number', 'null'], format: 'quantity', description: 'Quantity.' },
    },
    {
      name: 'IntOrString in its 1.24+ oneOf form becomes an integer-or-string union',
      definition: INT_OR_STRING_DEFINITION,
      input: {
        description: 'IntOrString.',
        format: 'int-or-string',
        oneOf: [{ type: 'integer' }, { type: 'string' }],
      },
      isKindRoot: false,
      expected: { type: ['integer', 'string', 'null'], description: 'IntOrString.' },
    },
    {
      name: 'IntOrString in its 1.23 string form becomes the same union',
      definition: INT_OR_STRING_DEFINITION,
      input: { description: 'IntOrString.', format: 'int-or-string', type: 'string' },
      isKindRoot: false,
      expected: { type: ['integer', 'string', 'null'], description: 'IntOrString.' },
    },
  ];
  for (const { name, definition, input, isKindRoot, expected } of cases) {
    void test(name, () => {
      assert.deepEqual(transformDefinition(definition, input, isKindRoot), expected);
    });
  }
});
