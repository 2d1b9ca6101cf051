/**
 * The schema interpreter against ajv itself (compiled with the options custom resources were validated with
 * before): the same errors, field by field and in order, and the same schemas refused.
 * - Rows follow cases of the JSON Schema Test Suite's draft7 files that ajv runs (tests/draft7/<file>.json,
 *   named per row), on schemas shaped as structural-schema.ts writes them.
 * - Differential: every CustomResourceDefinition version in the test fixtures and in ../shared/corpus, each
 *   validated on values generated from its schema and then broken at random (seeded): wrong types, unknown and
 *   missing fields, values out of bounds, duplicates, nulls.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Ajv from 'ajv';
import { parseAllDocuments } from 'yaml';
import { compileSchemaInterpreter } from '../../../server/src/language/crd/schema-interpreter';
import { toAjvSchema } from '../../../server/src/language/crd/structural-schema';
import type { JsonSchema } from '../../../server/src/language/schema/schema-store';

const ajv = new Ajv({
  allErrors: true,
  verbose: true,
  strict: false,
  validateSchema: false,
  unicodeRegExp: false,
  logger: false,
});

type Outcome = { refused: true } | { refused: false; valid: boolean; errors: unknown[] };

function byAjv(schema: JsonSchema, values: readonly unknown[]): Outcome[] {
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch {
    return values.map(() => ({ refused: true }));
  }
  return values.map((value) => {
    const valid = validate(value);
    return { refused: false, valid, errors: [...(validate.errors ?? [])] };
  });
}

function byInterpreter(schema: JsonSchema, values: readonly unknown[]): Outcome[] {
  let validate;
  try {
    validate = compileSchemaInterpreter(schema);
  } catch {
    return values.map(() => ({ refused: true }));
  }
  return values.map((value) => {
    const valid = validate(value);
    return { refused: false, valid, errors: [...(validate.errors ?? [])] };
  });
}

function assertSame(schema: JsonSchema, values: readonly unknown[], label: string): void {
  const expected = byAjv(schema, values);
  const actual = byInterpreter(schema, values);
  values.forEach((value, index) =>
    assert.deepStrictEqual(actual[index], expected[index], `${label}: value ${JSON.stringify(value)}`),
  );
}

/** A schema as structural-schema.ts writes it for the root of a custom resource, with `spec` as given. */
function rootWith(spec: unknown): JsonSchema {
  return toAjvSchema({ type: 'object', properties: { spec } });
}

function resource(spec: unknown): unknown {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec };
}

const ROWS: readonly { name: string; spec: unknown; values: unknown[] }[] = [
  {
    name: 'type.json: integer type matches integers (and 1.0; not 1.1, "1", null)',
    spec: { type: 'integer' },
    values: [1, 1.0, 1.1, '1', null, [], {}, Number.NaN, Number.POSITIVE_INFINITY],
  },
  {
    name: 'type.json: multiple types can be specified in an array (x-kubernetes-int-or-string)',
    spec: { 'x-kubernetes-int-or-string': true },
    values: [1, 'a', 1.5, null, true, []],
  },
  {
    name: 'type.json: type as array with null (nullable)',
    spec: { type: 'string', nullable: true, maxLength: 2 },
    values: ['ab', 'abc', null, 3],
  },
  {
    name: 'minimum.json / maximum.json / exclusiveMinimum.json: boundary points',
    spec: { type: 'number', minimum: 1, maximum: 10, exclusiveMaximum: true },
    values: [1, 0.9, 10, 9.99, 'x', Number.NaN],
  },
  {
    name: 'multipleOf.json: by int, by number, by small number',
    spec: {
      type: 'object',
      properties: {
        a: { type: 'integer', multipleOf: 2 },
        b: { type: 'number', multipleOf: 1.5 },
        c: { type: 'number', multipleOf: 0.0001 },
      },
    },
    values: [{ a: 10, b: 4.5, c: 0.0075 }, { a: 7, b: 35, c: 0.00751 }, { a: 1e21 }],
  },
  {
    name: 'maxLength.json / minLength.json: two supplementary Unicode code points is long enough',
    spec: { type: 'string', minLength: 2, maxLength: 3 },
    values: ['\u{1f4a9}\u{1f4a9}', '\u{1f4a9}', 'abcd', 'ab', 5],
  },
  {
    name: 'pattern.json: pattern validation; ignores non-strings',
    spec: { type: 'object', properties: { s: { type: 'string', pattern: '^a*$' }, n: { pattern: '^a*$' } } },
    values: [
      { s: 'aaa', n: 1 },
      { s: 'abc', n: 'abc' },
    ],
  },
  {
    name: 'enum.json: simple enum validation; enums in properties; heterogeneous enum with null',
    spec: {
      type: 'object',
      properties: {
        e: { type: 'string', enum: ['a', 'b'] },
        h: { enum: [6, 'foo', [], true, { foo: 12 }] },
        n: { type: 'string', enum: ['x'], nullable: true },
      },
    },
    values: [{ e: 'a', h: [], n: null }, { e: 'c', h: { foo: 12 }, n: 'y' }, { h: { foo: false } }, { e: 3 }],
  },
  {
    name: 'required.json: required validation; required with escaped characters',
    spec: { type: 'object', required: ['foo', 'bar/baz', 'q~r'], properties: { foo: { type: 'string' } } },
    values: [{ foo: 'x', 'bar/baz': 1, 'q~r': 1 }, {}, { foo: 1 }, 'not an object', []],
  },
  {
    name: 'additionalProperties.json: additionalProperties being false does not allow other properties',
    spec: { type: 'object', properties: { foo: {}, bar: { type: 'string' } } },
    values: [
      { foo: 1, bar: 'x' },
      { foo: 1, quux: 'boom', 'a/b': 2 },
      { bar: 2, extra: { deep: 1 } },
    ],
  },
  {
    name: 'additionalProperties.json: additionalProperties allows a schema which should validate (a map)',
    spec: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
    values: [
      { a: 1, b: 2 },
      { a: -1, 'x/y~z': 'no' },
    ],
  },
  {
    name: 'properties.json: object properties validation, more than 8 declared (hasOwnProperty lookup)',
    spec: {
      type: 'object',
      properties: Object.fromEntries('abcdefghij'.split('').map((name) => [name, { type: 'integer' }])),
    },
    values: [
      { a: 1, j: 2 },
      { a: 'x', k: 1, constructor: 1 },
    ],
  },
  {
    name: 'items.json: a schema given for items; ignores non-arrays',
    spec: {
      type: 'object',
      properties: { list: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'integer' } } },
    },
    values: [{ list: [1, 2] }, { list: [1, 'x', 3] }, { list: [] }, { list: { 0: 1 } }],
  },
  {
    name: 'uniqueItems.json: uniqueItems validation (primitives, mixed types, objects)',
    spec: {
      type: 'object',
      properties: {
        p: { type: 'array', uniqueItems: true, items: { type: 'integer' } },
        m: { type: 'array', uniqueItems: true, items: { 'x-kubernetes-int-or-string': true } },
        o: {
          type: 'array',
          uniqueItems: true,
          items: { type: 'object', properties: { a: { type: 'integer' } } },
        },
      },
    },
    values: [
      { p: [1, 2, 1], m: [1, '1', 1], o: [{ a: 1 }, { a: 1 }] },
      { p: [1, 2], m: ['1', 1], o: [{ a: 1 }, { a: 2 }] },
      { p: [1, 'x', 'x'] },
    ],
  },
  {
    name: 'minProperties.json / maxProperties.json: boundaries',
    spec: {
      type: 'object',
      minProperties: 1,
      maxProperties: 2,
      'x-kubernetes-preserve-unknown-fields': true,
    },
    values: [{}, { a: 1 }, { a: 1, b: 2, c: 3 }],
  },
  {
    name: 'anyOf.json: anyOf with base schema; the first valid branch ends it',
    spec: {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      anyOf: [{ required: ['a'] }, { required: ['b'] }],
    },
    values: [{ a: 'x' }, { b: 'y' }, {}, { a: 1 }],
  },
  {
    name: 'oneOf.json: oneOf with base schema; both oneOf valid; neither valid',
    spec: {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      oneOf: [{ required: ['a'] }, { required: ['b'] }, { properties: { a: { maxLength: 1 } } }],
    },
    values: [{ a: 'xy' }, { a: 'x' }, { a: 'xy', b: 'y' }, {}],
  },
  {
    name: 'allOf.json: allOf with base schema; not.json: not more complex schema',
    spec: {
      type: 'object',
      properties: { a: { type: 'integer' } },
      allOf: [
        { properties: { a: { minimum: 2 } } },
        { description: 'nothing' },
        { properties: { a: { maximum: 5 } } },
      ],
      not: { required: ['b'] },
    },
    values: [{ a: 3 }, { a: 1 }, { a: 9, b: 1 }, { b: 2 }],
  },
  {
    name: 'not.json: forbid everything with empty schema (always fails)',
    spec: { type: 'object', not: {} },
    values: [{}, { a: 1 }],
  },
  {
    name: 'anyOf.json: anyOf with boolean schemas, some true (an always valid branch: nothing checked)',
    spec: { type: 'object', anyOf: [{ description: 'anything' }, { required: ['never'] }] },
    values: [{}, 5],
  },
];

const REFUSED: readonly { name: string; spec: unknown }[] = [
  { name: 'an unknown type name', spec: { type: 'strign' } },
  { name: 'a number bound written as a string', spec: { type: 'integer', minimum: '1' } },
  { name: 'an empty enum', spec: { type: 'string', enum: [] } },
  { name: 'required as a string', spec: { type: 'object', required: 'a' } },
  { name: 'uniqueItems as a string', spec: { type: 'array', uniqueItems: 'yes' } },
  { name: 'an unknown type deep inside anyOf', spec: { anyOf: [{ type: 'x' }, { type: 'string' }] } },
];

describe('schema interpreter: ajv errors, field by field (JSON Schema Test Suite draft7 cases)', () => {
  for (const row of ROWS) {
    test(row.name, () => {
      const schema = rootWith(row.spec);
      assertSame(schema, row.values.map(resource), row.name);
      assertSame(schema, [{ kind: 5, metadata: { lables: {} } }, null, 'x'], `${row.name}, the root`);
    });
  }
  for (const row of REFUSED) {
    test(`refused as ajv refuses it: ${row.name}`, () => {
      const schema = rootWith(row.spec);
      assert.deepStrictEqual(byAjv(schema, [{}]), [{ refused: true }]);
      assert.throws(() => compileSchemaInterpreter(schema));
    });
  }
  test('an always valid anyOf hides a bad branch from both', () => {
    const schema = rootWith({ anyOf: [{}, { type: 'x' }] });
    assertSame(schema, [resource(1)], 'anyOf');
  });
});

/** Every CRD version schema of the fixtures and the corpus. */
function crdSchemas(): { label: string; schema: unknown }[] {
  const roots = ['test/fixtures', join('..', 'shared', 'corpus')];
  const found: { label: string; schema: unknown }[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) {
        walk(path);
      } else if (/\.ya?ml$/.test(name)) {
        const text = readFileSync(path, 'utf8');
        if (!text.includes('CustomResourceDefinition')) {
          continue;
        }
        for (const document of parseAllDocuments(text)) {
          const value = 'toJS' in document ? (document.toJS() as Record<string, unknown> | null) : null;
          const versions = (value?.['spec'] as { versions?: unknown } | undefined)?.versions;
          if (value?.['kind'] !== 'CustomResourceDefinition' || !Array.isArray(versions)) {
            continue;
          }
          for (const version of versions as { name?: string; schema?: { openAPIV3Schema?: unknown } }[]) {
            if (version.schema?.openAPIV3Schema !== undefined) {
              found.push({
                label: `${path} ${String(version.name)}`,
                schema: version.schema.openAPIV3Schema,
              });
            }
          }
        }
      }
    }
  };
  roots.forEach((root) => {
    try {
      walk(root);
    } catch {
      // ../shared may be absent outside CI; the fixtures alone still run.
    }
  });
  return found;
}

/** A small seeded generator (mulberry32), so a failure is reproduced by its row. */
function randomOf(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_VALUES: readonly unknown[] = [null, 'x', '', 7, -1, 2.5, true, [], {}, [1, 1], '\u{1f4a9}', 1e21];

/** A value shaped by an OpenAPI schema node, broken here and there. */
function generate(schema: unknown, random: () => number, depth: number): unknown {
  const node = (schema ?? {}) as Record<string, unknown>;
  if (random() < 0.08 || depth > 8) {
    return ODD_VALUES[Math.floor(random() * ODD_VALUES.length)];
  }
  if (Array.isArray(node['enum']) && node['enum'].length > 0 && random() < 0.8) {
    return node['enum'][Math.floor(random() * node['enum'].length)];
  }
  const properties = node['properties'] as Record<string, unknown> | undefined;
  const type = node['type'] ?? (properties !== undefined ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const names = Object.keys(properties ?? {});
      for (const name of names) {
        if (random() < 0.6) {
          out[name] = generate(properties?.[name], random, depth + 1);
        }
      }
      const additional = node['additionalProperties'];
      if (typeof additional === 'object' && additional !== null && random() < 0.5) {
        out[`key${Math.floor(random() * 3)}`] = generate(additional, random, depth + 1);
      }
      if (random() < 0.1) {
        out[names.length > 0 && random() < 0.5 ? `${names[0]}x` : 'unknownField'] = 1;
      }
      return out;
    }
    case 'array': {
      const length = Math.floor(random() * 4);
      const items = Array.from({ length }, () => generate(node['items'], random, depth + 1));
      return random() < 0.1 && items.length > 0 ? [...items, items[0]] : items;
    }
    case 'integer':
      return Math.floor(random() * 200) - 50;
    case 'number':
      return random() * 200 - 50;
    case 'boolean':
      return random() < 0.5;
    case 'string': {
      const pattern = typeof node['pattern'] === 'string' && random() < 0.5 ? 'abc-1' : '';
      return pattern + 'x'.repeat(Math.floor(random() * 12));
    }
    default:
      return ODD_VALUES[Math.floor(random() * ODD_VALUES.length)];
  }
}

describe('schema interpreter: every CRD of the fixtures and the corpus, on generated values', () => {
  const schemas = crdSchemas();
  test('the fixtures hold CRDs to compare on', () => {
    assert.ok(schemas.length >= 5, `only ${schemas.length} CRD versions found`);
  });
  schemas.forEach(({ label, schema }, index) => {
    test(label, () => {
      const random = randomOf(index + 1);
      const converted = toAjvSchema(schema);
      const values = Array.from({ length: 60 }, () => ({
        apiVersion: 'x/v1',
        kind: 'X',
        metadata: random() < 0.2 ? { name: 'a', lables: {} } : { name: 'a' },
        ...(generate(schema, random, 0) as object),
      }));
      assertSame(converted, values, label);
    });
  });
});
