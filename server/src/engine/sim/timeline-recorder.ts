/**
 * The append-only timeline (protocol/timeline.ts): every change the simulation makes, in the order it was made.
 * Times never go back; the recorder checks it, because the timeline panel folds events in array order.
 */
import type { TimelineEvent } from '../../../../protocol/timeline';

/** Collects timeline events. */
export class TimelineRecorder {
  private readonly list: TimelineEvent[] = [];
  private lastTime = 0;

  /** The events so far, oldest first. */
  get events(): readonly TimelineEvent[] {
    return this.list;
  }

  /** Appends an event; its time must not be before the previous event's. */
  record(event: TimelineEvent): void {
    if (event.time < this.lastTime) {
      throw new Error(
        `timeline event ${event.type} of ${event.object.kind} ${event.object.name} at ${event.time}s is before the previous event (${this.lastTime}s)`,
      );
    }
    this.lastTime = event.time;
    this.list.push(event);
  }
}
