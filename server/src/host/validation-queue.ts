/**
 * Debounces validation per document and drops stale work: a run starts after the document has been quiet for
 * the debounce delay, and its result is published only if the document has not changed since.
 *
 * An edit after a pause in the typing (no edit of the document for `pauseMs`, longer than the delay) is
 * validated at once: the pause already told the typing is done for now, and waiting the delay again would only
 * hold back the result of the one keystroke a person makes to fix a value. An edit that follows another sooner
 * waits for the typing to pause, as before: while a person types, the runs (and the simulations they start) are
 * as many as with the delay alone; a burst costs at most one more, its first edit's, abandoned when the next edit
 * comes (language-server.ts).
 */

/** Milliseconds of a monotonic clock. */
export type Clock = () => number;

/** Runs `validate(uri)` once a document has been quiet for `delayMs`. */
export class ValidationQueue {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** When each document was last edited (scheduleEdit), by the clock. */
  private readonly lastEdits = new Map<string, number>();

  constructor(
    private readonly delayMs: number,
    private readonly pauseMs: number,
    private readonly validate: (uri: string) => Promise<void>,
    private readonly onError: (uri: string, error: unknown) => void,
    private readonly now: Clock = () => performance.now(),
  ) {}

  /** Schedules (or re-schedules) the validation of a document. */
  schedule(uri: string, delayMs: number = this.delayMs): void {
    this.cancel(uri);
    const timer = setTimeout(() => {
      this.timers.delete(uri);
      this.validate(uri).catch((error: unknown) => this.onError(uri, error));
    }, delayMs);
    this.timers.set(uri, timer);
  }

  /**
   * Schedules the validation of an edited document: at once after a pause in its editing, else once it has been
   * quiet for the delay.
   */
  scheduleEdit(uri: string): void {
    const now = this.now();
    const last = this.lastEdits.get(uri);
    this.lastEdits.set(uri, now);
    this.schedule(uri, last !== undefined && now - last < this.pauseMs ? this.delayMs : 0);
  }

  /** Cancels a pending validation. */
  cancel(uri: string): void {
    const timer = this.timers.get(uri);
    if (timer !== undefined) {
      clearTimeout(timer);
      this.timers.delete(uri);
    }
  }

  /** Cancels a document's pending validation and forgets its edits (it was closed). */
  forget(uri: string): void {
    this.cancel(uri);
    this.lastEdits.delete(uri);
  }

  /** Cancels everything (shutdown). */
  dispose(): void {
    for (const timer of this.timers.values()) {
      clearTimeout(timer);
    }
    this.timers.clear();
    this.lastEdits.clear();
  }
}
