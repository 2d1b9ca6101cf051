import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonInPieces, writeJsonInPieces } from '../../server/src/cli/formats/json-pieces';
import { WRITE_PIECE_LENGTH } from '../../server/src/cli/io';

// The JSON report is written in pieces; put together they are JSON.stringify(value, null, 2), byte for byte.

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe('writeJsonInPieces', () => {
  const nullPrototype = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: [2] });
  const sparse: unknown[] = [1];
  sparse[3] = 4;
  const cases: { name: string; value: unknown }[] = [
    {
      name: 'a report-shaped object of nested objects and arrays',
      value: {
        apiVersion: 'foresight/v1',
        cluster: { nodes: [{ name: 'n', allocatable: { cpu: '16' } }] },
        pods: [],
        findings: [{ path: ['spec', 0], line: 3 }],
      },
    },
    {
      name: 'values nested deeper than the walked levels',
      value: { a: [{ b: { c: [{ d: { e: [1, { f: 'g' }] } }] } }] },
    },
    {
      name: 'undefined, functions and symbols: left out of objects, null in arrays',
      value: { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, Symbol('t'), 1] },
    },
    {
      name: 'empty arrays and objects, and an object whose every value is left out',
      value: { a: [], b: {}, c: { d: undefined }, e: [[], {}] },
    },
    {
      name: 'dates and other toJSON values, class instances, null-prototype objects',
      value: {
        at: new Date(0),
        point: new Point(1, 2),
        bare: nullPrototype,
        boxed: [new String('s'), new Number(2)],
      },
    },
    {
      name: 'strings with line breaks, quotes and non-ASCII text, and keys needing escapes',
      value: { 'a"b\nc': 'line\nbreak "q" é 😀', list: ['x\ny'] },
    },
    {
      name: 'numbers JSON cannot write (NaN, Infinity) and -0',
      value: { a: Number.NaN, b: Number.POSITIVE_INFINITY, c: [-0, 1e21, 0.1] },
    },
    { name: 'a sparse array', value: { sparse } },
    {
      name: 'top-level arrays longer than a chunk, with left-out values at the chunk edges',
      value: {
        long: Array.from({ length: 2501 }, (_, index) =>
          index % 1000 === 0 || index % 1000 === 999 ? undefined : { index, nested: [index, { deep: 'x' }] },
        ),
        after: { a: 1 },
      },
    },
    { name: 'a bare string, number, null and array at the top', value: ['s', 1, null, true] },
    { name: 'a top-level scalar', value: 'just text' },
    { name: 'a top-level null', value: null },
  ];
  for (const { name, value } of cases) {
    test(`writes ${name} as JSON.stringify does`, () => {
      assert.equal(jsonInPieces(value), JSON.stringify(value, null, 2));
    });
  }

  test('writes nothing for a top-level value JSON.stringify writes as undefined', () => {
    assert.equal(jsonInPieces(undefined), '');
    assert.equal(
      jsonInPieces(() => 1),
      '',
    );
  });

  test('a large report is written in several pieces of about the piece length, not one', () => {
    const events = Array.from({ length: 60_000 }, (_, index) => ({
      time: index,
      type: 'PodDeleted',
      object: { kind: 'Pod', namespace: 'default', name: `app-${index}` },
      message: `Deleted pod: app-${index}`,
    }));
    const report = { apiVersion: 'foresight/v1', events };
    const pieces: string[] = [];
    writeJsonInPieces(report, (piece) => pieces.push(piece));
    assert.ok(pieces.length > 3, `${pieces.length} pieces`);
    for (const piece of pieces) {
      assert.ok(piece.length < WRITE_PIECE_LENGTH + 64 * 1024, `a piece of ${piece.length} characters`);
    }
    assert.equal(pieces.join(''), JSON.stringify(report, null, 2));
  });
});
