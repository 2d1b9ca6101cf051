/**
 * flattenLists expands `kind: List` and typed lists into their items, and keeps its result for the array given
 * (one simulation expands the same cluster file several times). The kept result must be what a fresh expansion of
 * an equal array gives, expanding a result again gives it back, and the result is frozen so no reader can change
 * what the next one gets.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { flattenLists } from '../../../server/src/engine/model/load/cluster-load';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';

const at = (documentIndex: number): SourcedObject['source'] => ({ file: 'c.yaml', documentIndex, path: [] });

/** A List of a Node and a nested PodList (items without kind), a Deployment, and a list that is not one. */
function inputs(): SourcedObject[] {
  return [
    {
      object: {
        apiVersion: 'v1',
        kind: 'List',
        items: [
          { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } },
          {
            apiVersion: 'v1',
            kind: 'PodList',
            items: [{ metadata: { name: 'p1' } }, { metadata: { name: 'p2' } }],
          },
        ],
      },
      source: at(0),
    },
    { object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } }, source: at(1) },
    { object: { kind: 'NodeList', items: 'not a list' }, source: at(2) },
  ];
}

describe('flattenLists', () => {
  test('items come out in order with their paths, typed list items taking the item kind', () => {
    const flat = flattenLists(inputs());
    assert.deepEqual(
      flat.map(({ object, source }) => [
        (object as { kind?: string }).kind,
        source.documentIndex,
        source.path,
      ]),
      [
        ['Node', 0, ['items', 0]],
        ['Pod', 0, ['items', 1, 'items', 0]],
        ['Pod', 0, ['items', 1, 'items', 1]],
        ['Deployment', 1, []],
        ['NodeList', 2, []],
      ],
    );
  });

  test('the same array gives the kept result, equal to a fresh expansion of an equal array', () => {
    const given = inputs();
    const first = flattenLists(given);
    assert.equal(flattenLists(given), first);
    assert.deepEqual(flattenLists(inputs()), first);
  });

  test('a result expanded again is itself, and an expanded array expands to equal items', () => {
    const flat = flattenLists(inputs());
    assert.equal(flattenLists(flat), flat);
    assert.deepEqual(flattenLists([...flat]), flat);
  });

  test('the result is frozen: a reader cannot add to what the next reader gets', () => {
    const flat = flattenLists(inputs()) as SourcedObject[];
    assert.ok(Object.isFrozen(flat));
    assert.throws(() => flat.push({ object: {}, source: at(9) }), TypeError);
  });
});
