/**
 * The validation debounce (host/validation-queue.ts): an edit after a pause in the typing is validated at once,
 * edits of a burst wait for the typing to pause and are validated once, and a closed document's edits are
 * forgotten. The clock is the test's; the timers are real (the delay is short).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ValidationQueue } from '../../server/src/host/validation-queue';

const DELAY_MS = 40;
const PAUSE_MS = 120;

/** A queue with a clock the test sets, and the validations it ran, in order. */
function queueWithClock(): { queue: ValidationQueue; runs: string[]; setNow: (ms: number) => void } {
  let now = 0;
  const runs: string[] = [];
  const queue = new ValidationQueue(
    DELAY_MS,
    PAUSE_MS,
    (uri) => {
      runs.push(uri);
      return Promise.resolve();
    },
    (uri, error) => assert.fail(`${uri}: ${String(error)}`),
    () => now,
  );
  return { queue, runs, setNow: (ms) => (now = ms) };
}

/** Resolves after the event loop has run its timers of up to `ms`. */
function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('ValidationQueue', () => {
  test('the first edit of a document is validated at once, before the delay', async () => {
    const { queue, runs } = queueWithClock();
    queue.scheduleEdit('a');
    await wait(0);
    await wait(0);
    assert.deepEqual(runs, ['a']);
    queue.dispose();
  });

  test('an edit after a pause in the typing is validated at once', async () => {
    const { queue, runs, setNow } = queueWithClock();
    queue.scheduleEdit('a');
    await wait(0);
    await wait(0);
    setNow(PAUSE_MS); // exactly the pause later
    queue.scheduleEdit('a');
    await wait(0);
    await wait(0);
    assert.deepEqual(runs, ['a', 'a']);
    queue.dispose();
  });

  test('the edits of a burst wait for the typing to pause and are validated once', async () => {
    const { queue, runs, setNow } = queueWithClock();
    queue.scheduleEdit('a'); // after a pause: at once
    await wait(0);
    await wait(0);
    for (const at of [10, 20, 30]) {
      setNow(at); // each less than the delay after the one before
      queue.scheduleEdit('a');
    }
    await wait(DELAY_MS / 4);
    assert.deepEqual(runs, ['a'], 'nothing more before the delay has passed since the last edit');
    await wait(DELAY_MS * 2);
    assert.deepEqual(runs, ['a', 'a'], 'one run after the burst');
    queue.dispose();
  });

  test('an edit sooner than the pause after the last, though later than the delay, waits the delay', async () => {
    const { queue, runs, setNow } = queueWithClock();
    queue.scheduleEdit('a');
    await wait(0);
    await wait(0);
    setNow(PAUSE_MS - 1); // a person typing: validated after the last keystroke, as with the delay alone
    queue.scheduleEdit('a');
    await wait(DELAY_MS / 4);
    assert.deepEqual(runs, ['a']);
    await wait(DELAY_MS * 2);
    assert.deepEqual(runs, ['a', 'a']);
    queue.dispose();
  });

  test("documents are debounced apart: one document's typing does not delay another's edit", async () => {
    const { queue, runs, setNow } = queueWithClock();
    queue.scheduleEdit('a');
    setNow(5);
    queue.scheduleEdit('a'); // a burst in a: its run (not started yet) waits for the pause
    queue.scheduleEdit('b'); // b's first edit
    await wait(0);
    await wait(0);
    assert.deepEqual(runs, ['b']);
    await wait(DELAY_MS * 2);
    assert.deepEqual(runs, ['b', 'a']);
    queue.dispose();
  });

  test('a closed document forgets its edits: its next edit is validated at once', async () => {
    const { queue, runs, setNow } = queueWithClock();
    queue.scheduleEdit('a');
    setNow(1);
    queue.forget('a'); // closed within the burst: its pending run is cancelled
    queue.scheduleEdit('a'); // reopened and edited
    await wait(0);
    await wait(0);
    assert.deepEqual(runs, ['a']);
    await wait(DELAY_MS * 2);
    assert.deepEqual(runs, ['a'], 'the cancelled run never comes');
    queue.dispose();
  });
});
