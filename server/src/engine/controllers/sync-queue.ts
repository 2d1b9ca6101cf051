/**
 * A controller's work queue over simulated time: a key enqueued several times before its sync runs is synced once
 * (client-go's workqueue dedups the same way), and `enqueueAfter` is AddAfter. Syncs run at the controllers'
 * priority of the instant, in enqueue order.
 */
import type { Simulation } from '../sim/run-loop';

/** Dedup'ing queue of keys to sync. */
export class SyncQueue {
  private readonly pending = new Set<string>();

  constructor(
    private readonly sim: Simulation,
    private readonly priority: number,
    private readonly sync: (key: string) => void,
  ) {}

  /** Syncs `key` now (after the tasks of this instant already queued at this priority). */
  enqueue(key: string): void {
    if (this.pending.has(key)) {
      return;
    }
    this.pending.add(key);
    this.sim.after(0, this.priority, () => {
      this.pending.delete(key);
      this.sync(key);
    });
  }

  /** Syncs `key` after `delay` seconds. */
  enqueueAfter(key: string, delay: number): void {
    if (delay <= 0) {
      this.enqueue(key);
      return;
    }
    this.sim.after(delay, this.priority, () => this.enqueue(key));
  }
}
