/**
 * Debounces validation per document and drops stale work: a run starts after the document has been quiet for
 * the debounce delay, and its result is published only if the document has not changed since.
 */

/** Runs `validate(uri)` once a document has been quiet for `delayMs`. */
export class ValidationQueue {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly delayMs: number,
    private readonly validate: (uri: string) => Promise<void>,
    private readonly onError: (uri: string, error: unknown) => void,
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

  /** Cancels a pending validation. */
  cancel(uri: string): void {
    const timer = this.timers.get(uri);
    if (timer !== undefined) {
      clearTimeout(timer);
      this.timers.delete(uri);
    }
  }

  /** Cancels everything (shutdown). */
  dispose(): void {
    for (const timer of this.timers.values()) {
      clearTimeout(timer);
    }
    this.timers.clear();
  }
}
