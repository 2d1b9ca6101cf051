import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldShapes, shapeChanges } from '../../scripts/schemas/field-shapes';
import type { JsonObject } from '../../scripts/schemas/json';

const ref = (name: string): JsonObject => ({ $ref: `#/definitions/${name}` });
const str: JsonObject = { type: ['string', 'null'] };
const int: JsonObject = { type: ['integer', 'null'] };

/** A kind "Thing" whose spec is given, with status and metadata that the comparison ignores. */
function thing(spec: JsonObject, status: JsonObject = { type: 'object' }): Record<string, JsonObject> {
  return {
    Thing: {
      type: 'object',
      properties: { metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), spec, status },
    },
    'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { type: 'object', properties: { name: str } },
  };
}

function changes(before: JsonObject, after: JsonObject): string[] {
  const roots = new Set(['Thing']);
  return shapeChanges(
    fieldShapes(thing(before), 'Thing', roots),
    fieldShapes(thing(after), 'Thing', roots),
    'x/v1',
  );
}

void describe('shapeChanges', () => {
  const cases: { name: string; before: JsonObject; after: JsonObject; expected: string[] }[] = [
    {
      name: 'identical shapes need no change',
      before: { type: 'object', properties: { replicas: int } },
      after: { type: 'object', properties: { replicas: int } },
      expected: [],
    },
    {
      name: 'fields added by the new version need no change',
      before: { type: 'object', properties: { replicas: int } },
      after: { type: 'object', properties: { replicas: int, paused: { type: 'boolean' } } },
      expected: [],
    },
    {
      name: 'a field the new version lacks is named once, at the top of its subtree',
      before: { type: 'object', properties: { topology: { type: 'object', properties: { zone: str } } } },
      after: { type: 'object', properties: { zone: str } },
      expected: ['spec.topology does not exist in x/v1'],
    },
    {
      name: 'a field the new version requires is named',
      before: { type: 'object', properties: { selector: str } },
      after: { type: 'object', properties: { selector: str }, required: ['selector'] },
      expected: ['spec.selector is required in x/v1'],
    },
    {
      name: 'a narrower type is named, and integer still fits a number',
      before: { type: 'object', properties: { port: { type: ['integer', 'string'] }, weight: int } },
      after: { type: 'object', properties: { port: int, weight: { type: 'number' } } },
      expected: ['spec.port is integer in x/v1, was integer or string'],
    },
    {
      name: 'list items are compared under "[]"',
      before: { type: 'array', items: { type: 'object', properties: { ip: str } } },
      after: { type: 'array', items: { type: 'object', properties: { address: str } } },
      expected: ['spec[].ip does not exist in x/v1'],
    },
  ];
  for (const { name, before, after, expected } of cases) {
    void test(name, () => {
      assert.deepEqual(changes(before, after), expected);
    });
  }

  void test('status and metadata are not compared', () => {
    const roots = new Set(['Thing']);
    const before = fieldShapes(thing(int, { type: 'object', properties: { old: str } }), 'Thing', roots);
    const after = fieldShapes(thing(int, { type: 'object' }), 'Thing', roots);
    assert.deepEqual([...before.keys()], ['metadata', 'spec']);
    assert.deepEqual(shapeChanges(before, after, 'x/v1'), []);
  });

  void test('a recursive type is walked once instead of forever', () => {
    const definitions: Record<string, JsonObject> = {
      Thing: { type: 'object', properties: { schema: ref('Props') } },
      Props: {
        type: ['object', 'null'],
        properties: { properties: { type: 'object', additionalProperties: ref('Props') } },
      },
    };
    const shapes = fieldShapes(definitions, 'Thing', new Set(['Thing']));
    assert.deepEqual([...shapes.keys()], ['schema', 'schema.properties', 'schema.properties{}']);
  });
});
