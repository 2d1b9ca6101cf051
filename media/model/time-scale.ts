/**
 * The time axis's scale: a broken axis. A run is bursts of activity (a rollout in its first 40 s, a drain at
 * 5:00) separated by idle stretches where no event happens; a linear axis gives a 22 s rollout a few pixels of a
 * 5-minute run. Here every idle stretch longer than IDLE_MIN_SECONDS and a tenth of the run becomes a break of a
 * fixed, small share of the axis, and the bursts share the rest by their durations, each at least
 * MIN_SEGMENT_SHARE (when there is room for that many). The mapping is piecewise linear, continuous and
 * increasing, so a position maps back to one time and scrubbing across a break moves through it.
 */

/** One piece of the axis: a burst of activity (a segment) or an idle stretch drawn as a break. */
export interface ScalePiece {
  /** Simulated seconds at the piece's start and end. */
  readonly from: number;
  readonly to: number;
  /** Share of the axis (0..1) at the piece's start and end. */
  readonly start: number;
  readonly end: number;
  readonly isBreak: boolean;
}

/** The shortest idle stretch drawn as a break (seconds). */
const IDLE_MIN_SECONDS = 30;
/** An idle stretch must also be this share of the run to become a break (at most 9 breaks, then). */
const IDLE_MIN_SHARE = 0.1;
/** Each break's share of the axis, and the most all breaks together take. */
const BREAK_SHARE = 0.07;
const MAX_BREAKS_SHARE = 0.3;
/** Each burst's least share of the axis (about 45 px of a 456 px axis). */
const MIN_SEGMENT_SHARE = 0.1;
/** Time kept on each side of a burst, as a share of the run, so that an instant has some width of time. */
const MARGIN_SHARE = 0.01;

/** The scale of one timeline. */
export class TimeScale {
  readonly pieces: readonly ScalePiece[];

  /** `times`: the event times, in order; `duration`: the last one's. */
  constructor(times: ArrayLike<number>, duration: number) {
    this.pieces = buildPieces(times, Math.max(0, duration));
  }

  /** The bursts of activity, in order. */
  get segments(): readonly ScalePiece[] {
    return this.pieces.filter((piece) => !piece.isBreak);
  }

  /** The idle stretches drawn as breaks, in order. */
  get breaks(): readonly ScalePiece[] {
    return this.pieces.filter((piece) => piece.isBreak);
  }

  /** The share of the axis (0..1) where a time is. */
  positionOf(time: number): number {
    const piece = this.pieceAt(time);
    if (piece.to <= piece.from) {
      return piece.start;
    }
    const clamped = Math.min(piece.to, Math.max(piece.from, time));
    return piece.start + ((clamped - piece.from) / (piece.to - piece.from)) * (piece.end - piece.start);
  }

  /** The time at a share of the axis (0..1). */
  timeAt(position: number): number {
    const share = Math.min(1, Math.max(0, Number.isFinite(position) ? position : 0));
    const piece =
      this.pieces.find((candidate) => share <= candidate.end) ?? this.pieces[this.pieces.length - 1];
    if (piece === undefined || piece.end <= piece.start) {
      return piece?.from ?? 0;
    }
    return piece.from + ((share - piece.start) / (piece.end - piece.start)) * (piece.to - piece.from);
  }

  /** The piece a time falls in: at a boundary, the one that starts there (the last piece at the end). */
  pieceAt(time: number): ScalePiece {
    const pieces = this.pieces;
    let low = 0;
    let high = pieces.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((pieces[middle]?.from ?? 0) <= time) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    return pieces[low] ?? { from: 0, to: 0, start: 0, end: 1, isBreak: false };
  }
}

/** The bursts and breaks of a run, with their shares of the axis. */
function buildPieces(times: ArrayLike<number>, duration: number): ScalePiece[] {
  if (duration <= 0) {
    return [{ from: 0, to: duration, start: 0, end: 1, isBreak: false }];
  }
  const idle = Math.max(IDLE_MIN_SECONDS, IDLE_MIN_SHARE * duration);
  const margin = MARGIN_SHARE * duration;
  // Bursts: runs of events (time 0 and the end included) with no idle gap inside.
  const bursts: { from: number; to: number }[] = [];
  let first = 0;
  let last = 0;
  const visit = (time: number): void => {
    if (time - last > idle) {
      bursts.push({ from: first, to: last });
      first = time;
    }
    last = Math.max(last, time);
  };
  for (let index = 0; index < times.length; index++) {
    visit(Math.min(duration, Math.max(0, times[index] ?? 0)));
  }
  visit(duration);
  bursts.push({ from: first, to: last });
  if (bursts.length === 1) {
    return [{ from: 0, to: duration, start: 0, end: 1, isBreak: false }];
  }
  const spans = bursts.map((burst) => ({
    from: Math.max(0, burst.from - margin),
    to: Math.min(duration, burst.to + margin),
  }));
  const breakShare = Math.min(BREAK_SHARE, MAX_BREAKS_SHARE / (spans.length - 1));
  const shares = segmentShares(
    spans.map((span) => span.to - span.from),
    1 - breakShare * (spans.length - 1),
  );
  const pieces: ScalePiece[] = [];
  let position = 0;
  spans.forEach((span, index) => {
    const previous = spans[index - 1];
    if (previous !== undefined) {
      pieces.push({
        from: previous.to,
        to: span.from,
        start: position,
        end: position + breakShare,
        isBreak: true,
      });
      position += breakShare;
    }
    const share = shares[index] ?? 0;
    const end = index === spans.length - 1 ? 1 : position + share;
    pieces.push({ from: span.from, to: span.to, start: position, end, isBreak: false });
    position = end;
  });
  return pieces;
}

/**
 * Shares of `total` by duration, each at least MIN_SEGMENT_SHARE (or an equal share when there is no room for
 * that): the bursts below the least get it, the others share what is left by their durations, until none is
 * below.
 */
function segmentShares(durations: readonly number[], total: number): number[] {
  const least = Math.min(MIN_SEGMENT_SHARE, total / durations.length);
  const fixed = new Set<number>();
  for (;;) {
    const free = durations.flatMap((duration, index) => (fixed.has(index) ? [] : [duration]));
    const freeTotal = free.reduce((sum, duration) => sum + duration, 0);
    const left = total - least * fixed.size;
    const shareOf = (duration: number): number =>
      freeTotal > 0 ? (duration / freeTotal) * left : left / Math.max(1, free.length);
    const below = durations.findIndex((duration, index) => !fixed.has(index) && shareOf(duration) < least);
    if (below < 0) {
      return durations.map((duration, index) => (fixed.has(index) ? least : shareOf(duration)));
    }
    // The shortest free burst below the least is fixed first: fixing it can only lower the others' shares.
    let shortest = below;
    durations.forEach((duration, index) => {
      if (!fixed.has(index) && duration < (durations[shortest] ?? Infinity)) {
        shortest = index;
      }
    });
    fixed.add(shortest);
  }
}
