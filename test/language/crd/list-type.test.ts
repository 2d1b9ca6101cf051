import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkListTypes } from '../../../server/src/language/crd/list-type';
import { applySchemaDefaults } from '../../../server/src/language/crd/schema-defaults';

const set = (items: Record<string, unknown> = { type: 'string' }): Record<string, unknown> => ({
  type: 'array',
  'x-kubernetes-list-type': 'set',
  items,
});
const mapList = (
  keys: string[],
  items: Record<string, unknown> = { type: 'object' },
): Record<string, unknown> => ({
  type: 'array',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': keys,
  items,
});
const object = (properties: Record<string, unknown>): Record<string, unknown> => ({
  type: 'object',
  properties,
});

/** Rows follow TestValidateListSetsAndMaps (apiextensions-apiserver/pkg/apiserver/schema/listtype/validation_test.go). */
const cases: { name: string; schema: unknown; value: unknown; expected: string[] }[] = [
  {
    name: 'list without items (upstream "list without items"): a plain list may repeat values',
    schema: object({ array: { type: 'array' } }),
    value: { array: ['a', 'b', 'a'] },
    expected: [],
  },
  {
    name: 'set list with one item, and with two different items (upstream): no duplicate',
    schema: object({ one: set(), two: set() }),
    value: { one: ['a'], two: ['a', 'b'] },
    expected: [],
  },
  {
    name: 'set list with two equal items (upstream): the second is a duplicate',
    schema: object({ array: set() }),
    value: { array: ['a', 'a'] },
    expected: ['array[1]: Duplicate value: "a"'],
  },
  {
    name: 'set list with multiple duplicated items (upstream): each repeated value once, at its first repetition',
    schema: object({ array: set() }),
    value: { array: ['a', 'a', 'b', 'c', 'd', 'c'] },
    expected: ['array[1]: Duplicate value: "a"', 'array[5]: Duplicate value: "c"'],
  },
  {
    name: 'set list with items under additionalProperties (upstream): the path names the map key in brackets',
    schema: { type: 'object', additionalProperties: set() },
    value: { array: ['a', 'b', 'a'] },
    expected: ['[array][2]: Duplicate value: "a"'],
  },
  {
    name: 'set list with items under items (upstream): inner sets are checked per item',
    schema: object({ array: { type: 'array', items: set() } }),
    value: {
      array: [
        ['a', 'b', 'a'],
        ['b', 'b', 'a'],
      ],
    },
    expected: ['array[0][2]: Duplicate value: "a"', 'array[1][1]: Duplicate value: "b"'],
  },
  {
    name: 'set list with compound map items (upstream): integers, booleans, nulls, maps and lists compare by value',
    schema: object({
      integers: set({ type: 'integer' }),
      booleans: set({ type: 'boolean' }),
      nil: set({ type: 'string', nullable: true }),
      maps: set({ type: 'object', additionalProperties: { type: 'string' } }),
      array: set({ type: 'array', items: { type: 'string' } }),
    }),
    value: {
      integers: [1, 2, 1],
      booleans: [false, true, true],
      nil: ['a', null, null],
      maps: [{ a: 'b' }, { a: 'c' }, { a: 'b' }],
      array: [[], ['a'], ['b'], ['a']],
    },
    expected: [
      'integers[2]: Duplicate value: 1',
      'booleans[2]: Duplicate value: true',
      'nil[2]: Duplicate value: null',
      'maps[2]: Duplicate value: {"a":"b"}',
      'array[3]: Duplicate value: ["a"]',
    ],
  },
  {
    name: 'map list with one key (upstream "one key"): items with the same key collide, printed as the key map',
    schema: object({ list: mapList(['a']) }),
    value: { list: [{ a: '0', c: '2' }, { a: '1', c: '1' }, { a: '1', c: '2' }, {}] },
    expected: ['list[2]: Duplicate value: {"a":"1"}'],
  },
  {
    name: 'map list with two keys (upstream "two keys"): only items equal on both keys collide',
    schema: object({ list: mapList(['a', 'b']) }),
    value: { list: [{ a: '1', b: '1', c: '1' }, { a: '1', b: '2', c: '2' }, { a: '1', b: '2', c: '3' }, {}] },
    expected: ['list[2]: Duplicate value: {"a":"1","b":"2"}'],
  },
  {
    name: 'map list with an undefined key (upstream "undefined key"): a missing key field counts as unspecified',
    schema: object({ list: mapList(['a', 'b']) }),
    value: { list: [{ a: '1', b: '1', c: '1' }, { a: '1', c: '2' }, { a: '1', c: '3' }, {}] },
    expected: ['list[2]: Duplicate value: {"a":"1"}'],
  },
  {
    name: 'map list with a nil item (upstream "nil item"): a null item and an item without the key collide',
    schema: object({ list: mapList(['a']) }),
    value: { list: [null, { a: '0', c: '1' }, { a: null }, { c: '1' }] },
    expected: ['list[3]: Duplicate value: {}'],
  },
  {
    name: 'a duplicate key map prints as encoding/json writes it since 1.34 (PR #132314): <, > and & escaped',
    schema: object({ list: mapList(['a']) }),
    value: { list: [{ a: 'x<y>&z' }, { a: 'x<y>&z' }] },
    expected: ['list[1]: Duplicate value: {"a":"x\\u003cy\\u003e\\u0026z"}'],
  },
  {
    name: 'map list of non-objects (upstream "strings"): refused as not an object',
    schema: object({ list: mapList(['a']) }),
    value: { list: ['a'] },
    expected: ['list[0]: Invalid value: "a": must be an object for an array of list-type map'],
  },
  {
    name: 'defaults apply to the keys before the check: two ports without protocol both default to TCP',
    schema: object({
      ports: mapList(['port', 'protocol'], {
        type: 'object',
        properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } },
      }),
    }),
    value: { ports: [{ port: 80 }, { port: 80, protocol: 'TCP' }, { port: 80, protocol: 'UDP' }] },
    expected: ['ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}'],
  },
];

void describe('checkListTypes', () => {
  for (const row of cases) {
    void test(row.name, () => {
      const issues = checkListTypes(row.schema, applySchemaDefaults(row.schema, row.value));
      assert.deepEqual(
        issues.map((issue) => issue.message),
        row.expected,
      );
    });
  }

  void test('defaulting leaves the input unchanged and does not replace a null the schema declares nullable', () => {
    const schema = object({
      a: { type: 'string', default: 'x' },
      b: { type: 'string', nullable: true, default: 'y' },
    });
    const input = { b: null };
    assert.deepEqual(applySchemaDefaults(schema, input), { a: 'x', b: null });
    assert.deepEqual(input, { b: null });
  });
});
