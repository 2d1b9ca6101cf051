/**
 * The prediction worker's young-generation collection after each answer (host/young-collection.ts): it empties
 * V8's young generation, and it is a function to call whatever the flags.
 */
import assert from 'node:assert/strict';
import { getHeapSpaceStatistics } from 'node:v8';
import { test } from 'node:test';
import { youngGenerationCollector } from '../../server/src/host/young-collection';

/** Bytes used in V8's young generation (new_space). */
function youngBytes(): number {
  const space = getHeapSpaceStatistics().find((entry) => entry.space_name === 'new_space');
  assert.ok(space !== undefined, 'V8 reports a new_space');
  return space.space_used_size;
}

test('the collector empties the young generation of what is no longer reachable', () => {
  const collect = youngGenerationCollector();
  collect();
  // What stays young after a collection belongs to the test runner; only what this test allocates is counted.
  const emptied = youngBytes();
  let kept: unknown[] = [];
  // Fewer than the young generation holds at its smallest, so that V8 does not collect them on its own first.
  for (let i = 0; i < 4_000; i++) {
    kept.push({ index: i, name: `pod-${i}` });
  }
  const before = youngBytes();
  assert.ok(before - emptied > 100_000, `the garbage is young: ${emptied} → ${before} bytes`);
  kept = [];
  collect();
  const after = youngBytes();
  assert.ok(
    after - emptied < (before - emptied) / 4,
    `young generation ${emptied} → ${before} → ${after} bytes: most of the garbage collected`,
  );
  assert.deepEqual(kept, []);
});
