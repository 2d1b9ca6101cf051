import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toAjvSchema } from '../../../server/src/language/crd/structural-schema';

/**
 * ObjectMeta's fields, from the pinned Kubernetes schema (not a copy of the list structural-schema.ts keeps):
 * any other under metadata is an unknown field.
 */
const OBJECT_META = Object.fromEntries(
  Object.keys(
    (
      JSON.parse(
        readFileSync(join(__dirname, '..', '..', '..', 'schemas', 'kubernetes', '1.35.json'), 'utf8'),
      ) as {
        definitions: Record<string, { properties: Record<string, unknown> }>;
      }
    ).definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']?.properties ?? {},
  )
    .sort()
    .map((field) => [field, {}]),
);

const ROOT_FIELDS = {
  apiVersion: { type: 'string' },
  kind: { type: 'string' },
  metadata: { type: 'object', properties: OBJECT_META, additionalProperties: false },
};

const cases: { name: string; input: unknown; expected: unknown }[] = [
  {
    name: 'objects forbid unknown fields at every level, and the root always allows apiVersion, kind and metadata',
    input: {
      type: 'object',
      properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
    },
    expected: {
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { size: { type: 'integer' } }, additionalProperties: false },
        ...ROOT_FIELDS,
      },
      additionalProperties: false,
    },
  },
  {
    name: 'x-kubernetes-preserve-unknown-fields keeps unknown fields allowed',
    input: {
      type: 'object',
      properties: { config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    },
    expected: {
      type: 'object',
      properties: { config: { type: 'object' }, ...ROOT_FIELDS },
      additionalProperties: false,
    },
  },
  {
    name: 'a map keeps its additionalProperties schema, converted',
    input: {
      type: 'object',
      properties: { env: { type: 'object', additionalProperties: { type: 'string' } } },
    },
    expected: {
      type: 'object',
      properties: { env: { type: 'object', additionalProperties: { type: 'string' } }, ...ROOT_FIELDS },
      additionalProperties: false,
    },
  },
  {
    name: 'int-or-string becomes integer or string, and nullable adds null to the type and the enum',
    input: {
      type: 'object',
      properties: {
        port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        mode: { type: 'string', enum: ['a', 'b'], nullable: true },
      },
    },
    expected: {
      type: 'object',
      properties: {
        port: { type: ['integer', 'string'], anyOf: [{ type: 'integer' }, { type: 'string' }] },
        mode: { type: ['string', 'null'], enum: ['a', 'b', null] },
        ...ROOT_FIELDS,
      },
      additionalProperties: false,
    },
  },
  {
    name: 'OpenAPI boolean exclusive bounds become numeric ones, and formats and defaults are dropped',
    input: {
      type: 'object',
      properties: {
        ratio: { type: 'number', minimum: 0, exclusiveMinimum: true, format: 'double', default: 1 },
      },
    },
    expected: {
      type: 'object',
      properties: { ratio: { type: 'number', exclusiveMinimum: 0 }, ...ROOT_FIELDS },
      additionalProperties: false,
    },
  },
  {
    name: 'branches of allOf and oneOf only add value checks, so they do not forbid unknown fields',
    input: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { a: { type: 'string' } },
          oneOf: [{ required: ['a'], properties: { a: { minLength: 1 } } }],
        },
      },
    },
    expected: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { a: { type: 'string' } },
          oneOf: [{ required: ['a'], properties: { a: { minLength: 1 } } }],
          additionalProperties: false,
        },
        ...ROOT_FIELDS,
      },
      additionalProperties: false,
    },
  },
  {
    name: 'an embedded resource allows apiVersion, kind and metadata beside its own fields',
    input: {
      type: 'object',
      properties: {
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object' } },
        },
      },
    },
    expected: {
      type: 'object',
      properties: {
        template: {
          type: 'object',
          properties: { spec: { type: 'object', additionalProperties: false }, ...ROOT_FIELDS },
          additionalProperties: false,
        },
        ...ROOT_FIELDS,
      },
      additionalProperties: false,
    },
  },
  {
    name: 'a pattern JavaScript cannot read is dropped rather than breaking the whole schema',
    input: {
      type: 'object',
      properties: { a: { type: 'string', pattern: '(?P<x>a)' }, b: { type: 'string', pattern: '^[a-z]+$' } },
    },
    expected: {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string', pattern: '^[a-z]+$' }, ...ROOT_FIELDS },
      additionalProperties: false,
    },
  },
];

void describe('toAjvSchema', () => {
  for (const { name, input, expected } of cases) {
    void test(name, () => {
      assert.deepEqual(toAjvSchema(input), expected);
    });
  }
});
