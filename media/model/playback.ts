/**
 * The playhead: a simulated time and a cursor (how many events are applied). Events at the playhead's time can
 * be stepped through one by one, so the invariant is: events before the cursor happen at or before `time`, the
 * others at or after it. Playing advances time by wall-clock seconds × speed (the caller passes elapsed time:
 * the page owns the animation frames), except across an idle stretch the axis draws as a break, which it crosses
 * in at most BREAK_CROSSING_SECONDS: nothing happens there to watch.
 */
import { PLAYBACK_SPEEDS } from '../../protocol/webview-messages';
import type { Timeline } from './timeline';

/** The most wall-clock seconds playing spends in one break of the time axis. */
export const BREAK_CROSSING_SECONDS = 1;

/** The playhead over one timeline. */
export class Playback {
  time = 0;
  cursor = 0;
  speed = 10;
  isPlaying = false;

  constructor(private timeline: Timeline) {}

  /** Moves to another timeline (the manifests changed), keeping the playhead's time. */
  replaceTimeline(timeline: Timeline): void {
    this.timeline = timeline;
    this.seekTime(this.time);
  }

  /** Puts the playhead at a time: every event at or before it is applied. */
  seekTime(time: number): void {
    const clamped = Number.isFinite(time) ? Math.max(0, Math.min(time, this.timeline.duration)) : 0;
    this.time = clamped;
    this.cursor = this.timeline.cursorAt(clamped);
  }

  /** Restores a saved playhead, if it still fits the timeline. */
  restore(time: number, cursor: number): void {
    this.seekTime(time);
    const times = this.timeline.times;
    const earliest = this.timeline.cursorAt(this.time - 1e-9);
    if (Number.isInteger(cursor) && cursor >= earliest && cursor <= this.cursor && cursor <= times.length) {
      this.cursor = cursor;
    }
  }

  /** Puts the playhead just after an event. */
  seekEvent(index: number): void {
    const count = this.timeline.events.length;
    if (index < 0 || index >= count) {
      return;
    }
    this.cursor = index + 1;
    this.time = this.timeline.times[index] ?? 0;
  }

  /** Applies the next event. */
  stepNext(): void {
    this.seekEvent(this.cursor);
  }

  /** Takes back the last applied event. */
  stepPrevious(): void {
    if (this.cursor === 0) {
      this.time = 0;
      return;
    }
    this.cursor -= 1;
    this.time = this.cursor === 0 ? 0 : (this.timeline.times[this.cursor - 1] ?? 0);
  }

  /** Starts playing; from the start when the playhead is at the end. */
  play(): void {
    if (this.isAtEnd()) {
      this.seekTime(0);
      this.cursor = 0;
    }
    this.isPlaying = true;
  }

  /** Stops playing. */
  pause(): void {
    this.isPlaying = false;
  }

  /** Sets the speed to the nearest offered one. */
  setSpeed(speed: number): void {
    let best = PLAYBACK_SPEEDS[0] ?? 1;
    for (const offered of PLAYBACK_SPEEDS) {
      if (Math.abs(offered - speed) < Math.abs(best - speed)) {
        best = offered;
      }
    }
    this.speed = best;
  }

  /** Advances a playing playhead by `seconds` of wall-clock time; stops at the end. */
  advance(seconds: number): void {
    if (!this.isPlaying) {
      return;
    }
    const next = this.timeAfter(Math.max(0, seconds));
    if (next >= this.timeline.duration) {
      this.seekTime(this.timeline.duration);
      this.cursor = this.timeline.events.length;
      this.isPlaying = false;
    } else {
      this.seekTime(next);
    }
  }

  /** The simulated time `seconds` of wall-clock time after the playhead, breaks crossed faster. */
  private timeAfter(seconds: number): number {
    const { scale, duration } = this.timeline;
    let time = this.time;
    let remaining = seconds;
    while (remaining > 0 && time < duration) {
      const piece = scale.pieceAt(time);
      const rate = piece.isBreak
        ? Math.max(this.speed, (piece.to - piece.from) / BREAK_CROSSING_SECONDS)
        : this.speed;
      const end = Math.min(duration, piece.to);
      if (end <= time) {
        return time + remaining * rate;
      }
      const needed = (end - time) / rate;
      if (needed >= remaining) {
        return time + remaining * rate;
      }
      time = end;
      remaining -= needed;
    }
    return time;
  }

  /** Whether every event is applied. */
  isAtEnd(): boolean {
    return this.cursor >= this.timeline.events.length && this.time >= this.timeline.duration;
  }
}
