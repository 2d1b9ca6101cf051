import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { EventQueue, isBefore } from '../../../server/src/engine/sim/event-queue';
import type { QueuedEvent } from '../../../server/src/engine/sim/event-queue';

describe('EventQueue', () => {
  test('pops by time, then priority, then insertion order, over many ties', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ time: fc.integer({ min: 0, max: 5 }), priority: fc.integer({ min: 0, max: 3 }) }),
          {
            maxLength: 300,
          },
        ),
        (entries) => {
          const queue = new EventQueue<number>();
          entries.forEach((entry, index) => queue.push(entry.time, entry.priority, index));
          const popped: number[] = [];
          for (let event = queue.pop(); event !== undefined; event = queue.pop()) {
            popped.push(event.payload);
          }
          const expected = entries
            .map((entry, index) => ({ ...entry, index }))
            .sort((a, b) => a.time - b.time || a.priority - b.priority || a.index - b.index)
            .map((entry) => entry.index);
          assert.deepEqual(popped, expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('with pushes and pops interleaved, each pop is the first of what is queued', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constant(null),
            fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 2 })),
          ),
          {
            maxLength: 300,
          },
        ),
        (operations) => {
          const queue = new EventQueue<number>();
          const shadow: QueuedEvent<number>[] = [];
          operations.forEach((operation, index) => {
            if (operation === null) {
              const popped = queue.pop();
              const first = shadow.reduce<QueuedEvent<number> | undefined>(
                (best, event) => (best === undefined || isBefore(event, best) ? event : best),
                undefined,
              );
              assert.equal(popped?.payload, first?.payload);
              shadow.splice(shadow.indexOf(first as QueuedEvent<number>), first === undefined ? 0 : 1);
            } else {
              const seq = queue.push(operation[0], operation[1], index);
              shadow.push({ time: operation[0], priority: operation[1], seq, payload: index });
            }
          });
          assert.equal(queue.size, shadow.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  const cases: { name: string; push: [number, number][]; order: number[] }[] = [
    {
      name: 'an earlier time goes first whatever its priority',
      push: [
        [2, 0],
        [1, 9],
      ],
      order: [1, 0],
    },
    {
      name: 'at the same time the lower priority goes first',
      push: [
        [1, 5],
        [1, 2],
      ],
      order: [1, 0],
    },
    {
      name: 'full ties keep insertion order',
      push: [
        [3, 1],
        [3, 1],
        [3, 1],
      ],
      order: [0, 1, 2],
    },
  ];
  for (const { name, push, order } of cases) {
    test(name, () => {
      const queue = new EventQueue<number>();
      push.forEach(([time, priority], index) => queue.push(time, priority, index));
      assert.deepEqual(
        order.map(() => queue.pop()?.payload),
        order,
      );
      assert.equal(queue.pop(), undefined);
    });
  }

  test('a time that is not finite is refused as a bug', () => {
    const queue = new EventQueue<null>();
    assert.throws(() => queue.push(Number.POSITIVE_INFINITY, 0, null), /finite/);
  });
});
