/**
 * A full collection follows the close of a large document only, after the close's own work; V8's own
 * collection is to be had without --expose-gc.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  fullCollection,
  RELEASE_AFTER_CLOSE_MIN_LENGTH,
  releaseAfterClose,
} from '../../server/src/host/memory-release';

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

const CASES: { name: string; length: number; isCollected: boolean }[] = [
  { name: 'closing a small document collects nothing', length: 10_000, isCollected: false },
  {
    name: 'closing a document just under the size collects nothing',
    length: RELEASE_AFTER_CLOSE_MIN_LENGTH - 1,
    isCollected: false,
  },
  {
    name: 'closing a large document collects once',
    length: RELEASE_AFTER_CLOSE_MIN_LENGTH,
    isCollected: true,
  },
];

describe('memory release after a close', () => {
  for (const { name, length, isCollected } of CASES) {
    test(name, async () => {
      let collections = 0;
      releaseAfterClose(length, () => () => collections++);
      assert.equal(collections, 0, 'not during the close itself');
      await nextTurn();
      await nextTurn();
      assert.equal(collections, isCollected ? 1 : 0);
    });
  }

  test('V8’s full collection is to be had in a process started without --expose-gc', () => {
    assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'the test process has no gc()');
    const collect = fullCollection();
    assert.equal(typeof collect, 'function');
    collect?.();
  });
});
