/**
 * Gives memory back after a large document is closed. V8 grows its heap lazily: with the analysis of a large
 * file (about 55 MiB for 5,000 resources) turned into garbage at each close, a session of opens and closes
 * grew to twice the peak of one open before V8 collected it. One full collection after such a close brings the
 * heap back to what is live, so the next open grows from there. Small documents are left to V8.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Closing a document at least this long (in characters) triggers a full collection. */
export const RELEASE_AFTER_CLOSE_MIN_LENGTH = 1024 * 1024;

let collect: (() => void) | null | undefined;

/**
 * V8's full collection, exposed once: `--expose-gc` set at run time makes `gc` available to new contexts.
 * Null where it cannot be had.
 */
export function fullCollection(): (() => void) | null {
  if (collect === undefined) {
    collect = null;
    try {
      setFlagsFromString('--expose-gc');
      const gc: unknown = runInNewContext('gc');
      if (typeof gc === 'function') {
        collect = gc as () => void;
      }
    } catch {
      // No way to ask for a collection: V8 collects when it sees fit.
    }
  }
  return collect;
}

/**
 * After a document of `length` characters closed: collects fully (on a later turn) when it was large.
 * `collectNow` is V8's full collection unless a test passes its own.
 */
export function releaseAfterClose(
  length: number,
  collectNow: () => (() => void) | null = fullCollection,
): void {
  if (length < RELEASE_AFTER_CLOSE_MIN_LENGTH) {
    return;
  }
  // On a later turn, so that the close's own messages (cleared diagnostics) go out first.
  setImmediate(() => collectNow()?.());
}
