import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeStatuses } from '../../../server/src/engine/scheduler/framework/node-statuses';
import { SUCCESS, unschedulable } from '../../../server/src/engine/scheduler/framework/status';
import type { Status } from '../../../server/src/engine/scheduler/framework/status';

const REJECTED = unschedulable('NodeResourcesFit', { code: 'x/Y', message: 'Insufficient cpu' });

describe('NodeStatuses reads as a Map filled by the same set() calls', () => {
  const CASES: readonly { name: string; sets: readonly [string, Status][]; readBetween?: number }[] = [
    { name: 'no node', sets: [] },
    {
      name: 'nodes in the order set',
      sets: [
        ['b', REJECTED],
        ['a', SUCCESS],
      ],
    },
    {
      name: 'a node set twice keeps its first position and its last status',
      sets: [
        ['a', REJECTED],
        ['b', SUCCESS],
        ['a', SUCCESS],
      ],
    },
    {
      name: 'sets after a first read still land',
      sets: [
        ['a', REJECTED],
        ['b', SUCCESS],
        ['c', REJECTED],
      ],
      readBetween: 1,
    },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => {
      const statuses = new NodeStatuses();
      const map = new Map<string, Status>();
      testCase.sets.forEach(([name, status], index) => {
        statuses.set(name, status);
        map.set(name, status);
        if (index === testCase.readBetween) {
          assert.equal(statuses.size, map.size);
        }
      });
      assert.deepEqual([...statuses], [...map]);
      assert.deepEqual([...statuses.keys()], [...map.keys()]);
      assert.deepEqual([...statuses.values()], [...map.values()]);
      assert.equal(statuses.size, map.size);
      assert.equal(statuses.get('a'), map.get('a'));
      assert.equal(statuses.has('z'), false);
    });
  }
});
