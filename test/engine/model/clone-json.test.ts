/**
 * cloneJson copies without the JSON text in between, and must give exactly what JSON.parse(JSON.stringify(value))
 * gives: the same values, key order and prototypes, the same treatment of what JSON cannot write, and the same
 * errors. Each case and a sweep of generated values compare the two.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { cloneJson } from '../../../server/src/engine/model/json';

/** What cloneJson must equal. */
function viaJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** Equal values, prototypes and -0 (deepStrictEqual), and equal key order (the JSON text). */
function assertSameAsJson(value: unknown): void {
  const copy = cloneJson(value);
  const expected = viaJson(value);
  assert.deepStrictEqual(copy, expected);
  assert.equal(JSON.stringify(copy), JSON.stringify(expected));
}

const sparse: unknown[] = [1];
sparse[3] = 'x';

const CASES: { name: string; value: unknown }[] = [
  {
    name: 'a pod template is copied key for key',
    value: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'app', resources: { requests: { cpu: '100m' } } }], replicas: 3 },
    },
  },
  { name: 'integer-like keys come first, as JSON orders them', value: { b: 1, 10: 'ten', a: 2, 2: 'two' } },
  { name: 'non-finite numbers become null, -0 becomes 0', value: [Infinity, -Infinity, NaN, -0, { z: -0 }] },
  {
    name: 'undefined, function and symbol properties are left out; in arrays they are null',
    value: { a: undefined, f: () => 1, s: Symbol('s'), list: [undefined, () => 1, Symbol('t')] },
  },
  { name: 'holes of a sparse array are null', value: sparse },
  { name: 'a __proto__ key stays an own property', value: JSON.parse('{"__proto__": {"polluted": true}}') },
  { name: 'a Date goes through its toJSON', value: { at: new Date(0) } },
  { name: 'an own toJSON method is called', value: { nested: { toJSON: () => ({ replaced: true }) } } },
  { name: 'a toJSON that is not a function is plain data', value: { toJSON: 'text' } },
  {
    name: "an array's own toJSON is called",
    value: { list: Object.assign([1, 2], { toJSON: () => 'list' }) },
  },
  {
    name: 'a Map and a typed array copy as JSON copies them',
    value: { map: new Map([[1, 2]]), bytes: new Uint8Array([1]) },
  },
  {
    name: 'an object without prototype is copied',
    value: Object.assign(Object.create(null) as object, { a: [1] }),
  },
  { name: 'shared references are copied apart', value: ((shared) => ({ a: shared, b: shared }))({ x: 1 }) },
  { name: 'null, strings and booleans stand for themselves', value: [null, '', 'ü \ud800', true, false] },
];

function nested(depth: number): unknown {
  let value: unknown = { leaf: true };
  for (let level = 0; level < depth; level++) {
    value = level % 2 === 0 ? { next: value } : [value];
  }
  return value;
}

describe('cloneJson (a deep copy equal to a JSON round trip)', () => {
  for (const entry of CASES) {
    test(entry.name, () => {
      assertSameAsJson(entry.value);
    });
  }

  test('data nested deeper than the copy recurses goes through JSON', () => {
    // Compared as text: deepStrictEqual itself recurses too deep for it.
    const value = nested(1500);
    assert.equal(JSON.stringify(cloneJson(value)), JSON.stringify(viaJson(value)));
  });

  test('undefined is returned as is', () => {
    assert.equal(cloneJson(undefined), undefined);
  });

  test('the copy shares no object with the original', () => {
    const original = { spec: { containers: [{ name: 'a' }] } };
    const copy = cloneJson(original);
    copy.spec.containers[0]!.name = 'b';
    assert.equal(original.spec.containers[0]!.name, 'a');
  });

  test('what JSON refuses is refused alike: a cycle, a bigint', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    for (const value of [cyclic, { n: 1n }, [2n]]) {
      assert.throws(
        () => cloneJson(value),
        (error: unknown) => {
          assert.throws(() => viaJson(value), {
            name: (error as Error).name,
            message: (error as Error).message,
          });
          return true;
        },
      );
    }
  });

  test('over generated values, with the numbers JSON cannot write, the copy equals the round trip', () => {
    const special = fc.constantFrom(-0, Infinity, -Infinity, NaN, undefined);
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.jsonValue(), special, fc.double()),
      node: fc.oneof(
        { depthSize: 'small' },
        tie('leaf'),
        fc.array(tie('node')),
        fc.sparseArray(tie('node')),
        fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', '1', '01', 'toJSON')), tie('node')),
      ),
    })).node;
    fc.assert(
      // Undefined itself is returned as is (the test above); JSON.parse would refuse its missing text.
      fc.property(
        value.filter((generated) => generated !== undefined),
        (generated) => {
          assertSameAsJson(generated);
        },
      ),
      { numRuns: 500, seed: 43 },
    );
  });
});
