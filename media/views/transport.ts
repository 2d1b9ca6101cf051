/**
 * The transport bar: play/pause, step to the previous/next event, speed, the playhead's time, and the time axis
 * (a slider: drag or click to scrub, arrow keys step between events, Page Up/Down jump by a tenth of the axis,
 * Home/End). The axis is broken (model/time-scale.ts): each burst of activity is a segment at a readable scale,
 * labelled with its start time, and each idle stretch a break labelled with the time it skips. Marks on the axis
 * show drains, node failures, rollouts, blocked evictions, unschedulable pods, scenario steps and the cluster
 * autoscaler's scale-ups and node removals.
 */
import { PLAYBACK_SPEEDS } from '../../protocol/webview-messages';
import { h, icon, iconButton, replaceChildren, setAttribute, setText, toggleClass } from '../dom';
import { formatClock, formatDuration, formatShortDuration, formatTime } from '../format';
import type { Playback } from '../model/playback';
import type { ScalePiece } from '../model/time-scale';
import type { Timeline } from '../model/timeline';

/** What the transport asks of the page. */
interface TransportActions {
  togglePlay(): void;
  stepPrevious(): void;
  stepNext(): void;
  seekTime(time: number): void;
  setSpeed(speed: number): void;
}

const MARKED: Readonly<Record<string, string>> = {
  DrainStarted: 'drain',
  DrainCompleted: 'drain',
  DrainBlocked: 'blocked',
  EvictionBlocked: 'blocked',
  NodeNotReady: 'failure',
  NodeCordoned: 'drain',
  RolloutStep: 'rollout',
  RolloutComplete: 'rollout',
  ProgressDeadlineExceeded: 'failure',
  PodUnschedulable: 'unschedulable',
  SuccessfulRescale: 'rollout',
  NodeHasInsufficientMemory: 'failure',
  TriggeredScaleUp: 'rollout',
  NodeRemoved: 'drain',
  ScenarioStep: 'scenario',
};

/** A segment of the axis and its progress fill. */
interface AxisSegment {
  readonly piece: ScalePiece;
  readonly fill: HTMLElement;
}

/** The transport bar. */
export class TransportView {
  readonly element: HTMLElement;
  private readonly playButton: HTMLButtonElement;
  private readonly speedSelect: HTMLSelectElement;
  private readonly timeLabel: HTMLElement;
  private readonly axis: HTMLElement;
  private readonly track: HTMLElement;
  private readonly marks: HTMLElement;
  private readonly labels: HTMLElement;
  private readonly thumb: HTMLElement;
  private segments: AxisSegment[] = [];
  private timeline: Timeline | null = null;
  private isDragging = false;

  constructor(private readonly actions: TransportActions) {
    this.playButton = iconButton('play', 'Play', 'icon-button play');
    const back = iconButton('stepBack', 'Previous event');
    const forward = iconButton('stepForward', 'Next event');
    this.speedSelect = h('select', { className: 'speed', attrs: { 'aria-label': 'Playback speed' } });
    for (const speed of PLAYBACK_SPEEDS) {
      this.speedSelect.append(h('option', { text: `${speed}×`, attrs: { value: String(speed) } }));
    }
    this.timeLabel = h('span', { className: 'time-label', attrs: { 'aria-hidden': 'true' } });
    this.marks = h('div', { className: 'axis-marks' });
    this.track = h('div', { className: 'axis-track', attrs: { 'aria-hidden': 'true' } });
    this.labels = h('div', { className: 'axis-labels', attrs: { 'aria-hidden': 'true' } });
    this.thumb = h('div', { className: 'axis-thumb', attrs: { 'aria-hidden': 'true' } });
    this.axis = h(
      'div',
      {
        className: 'axis',
        attrs: { role: 'slider', tabindex: '0', 'aria-label': 'Simulated time', 'aria-valuemin': '0' },
      },
      this.track,
      this.labels,
      this.thumb,
    );
    this.element = h(
      'section',
      { className: 'transport', attrs: { 'aria-label': 'Playback' } },
      h(
        'div',
        { className: 'transport-controls' },
        back,
        this.playButton,
        forward,
        this.speedSelect,
        this.timeLabel,
      ),
      this.axis,
    );
    this.playButton.addEventListener('click', () => actions.togglePlay());
    back.addEventListener('click', () => actions.stepPrevious());
    forward.addEventListener('click', () => actions.stepNext());
    this.speedSelect.addEventListener('change', () => actions.setSpeed(Number(this.speedSelect.value)));
    this.axis.addEventListener('keydown', (event) => this.onKey(event));
    this.axis.addEventListener('pointerdown', (event) => this.onPointerDown(event));
    this.axis.addEventListener('pointermove', (event) => this.onPointerMove(event));
    this.axis.addEventListener('pointerup', (event) => this.onPointerUp(event));
    this.axis.addEventListener('pointercancel', () => (this.isDragging = false));
  }

  /** Shows a new timeline: its duration, the axis's segments and breaks, and the marks. */
  setTimeline(timeline: Timeline): void {
    this.timeline = timeline;
    setAttribute(this.axis, 'aria-valuemax', String(timeline.duration));
    const { scale } = timeline;
    const place = (element: HTMLElement, piece: ScalePiece): HTMLElement => {
      element.style.left = `${(piece.start * 100).toFixed(3)}%`;
      element.style.width = `${((piece.end - piece.start) * 100).toFixed(3)}%`;
      element.dataset['from'] = String(piece.from);
      element.dataset['to'] = String(piece.to);
      return element;
    };
    this.segments = [];
    const pieces: HTMLElement[] = [];
    const labels: HTMLElement[] = [];
    for (const piece of scale.pieces) {
      if (piece.isBreak) {
        const skipped = piece.to - piece.from;
        const title = `${formatDuration(skipped)} without events, compressed (${formatClock(piece.from)}–${formatClock(piece.to)})`;
        pieces.push(place(h('div', { className: 'axis-break', attrs: { title } }), piece));
        labels.push(place(h('span', { className: 'axis-skip', text: formatShortDuration(skipped) }), piece));
      } else {
        const fill = h('div', { className: 'axis-fill' });
        pieces.push(place(h('div', { className: 'axis-segment' }, fill), piece));
        this.segments.push({ piece, fill });
        labels.push(place(h('span', { className: 'axis-tick', text: formatClock(piece.from) }), piece));
      }
    }
    const seen = new Set<string>();
    const marks: HTMLElement[] = [];
    timeline.events.forEach((event, index) => {
      const kind = MARKED[event.type];
      if (kind === undefined) {
        return;
      }
      // One mark per kind per 0.25 % of the axis: 5,000 unschedulable pods make a band, not 5,000 nodes.
      const position = scale.positionOf(timeline.times[index] ?? 0);
      const bucket = `${kind}:${Math.round(position * 400)}`;
      if (seen.has(bucket)) {
        return;
      }
      seen.add(bucket);
      const mark = h('span', { className: `axis-mark mark-${kind}` });
      mark.style.left = `${(position * 100).toFixed(3)}%`;
      marks.push(mark);
    });
    replaceChildren(this.marks, ...marks);
    replaceChildren(this.track, ...pieces, this.marks);
    replaceChildren(this.labels, ...labels);
    toggleClass(this.axis, 'is-broken', scale.breaks.length > 0);
  }

  /** Shows the playhead. */
  update(playback: Playback): void {
    const duration = this.timeline?.duration ?? 0;
    const label = playback.isPlaying ? 'Pause' : 'Play';
    if (this.playButton.getAttribute('aria-label') !== label) {
      setAttribute(this.playButton, 'aria-label', label);
      setAttribute(this.playButton, 'title', `${label} (Space)`);
      replaceChildren(this.playButton, icon(playback.isPlaying ? 'pause' : 'play'));
    }
    toggleClass(this.playButton, 'is-playing', playback.isPlaying);
    if (this.speedSelect.value !== String(playback.speed)) {
      this.speedSelect.value = String(playback.speed);
    }
    const events = this.timeline?.events.length ?? 0;
    setText(this.timeLabel, `${formatTime(playback.time)} / ${formatTime(duration)}`);
    const scale = this.timeline?.scale;
    const share =
      duration > 0 && scale !== undefined
        ? scale.positionOf(playback.time)
        : events > 0 && playback.cursor >= events
          ? 1
          : 0;
    const percent = `${(share * 100).toFixed(3)}%`;
    for (const { piece, fill } of this.segments) {
      const span = piece.end - piece.start;
      const filled =
        span > 0 ? Math.min(1, Math.max(0, (share - piece.start) / span)) : share >= piece.end ? 1 : 0;
      const width = `${(filled * 100).toFixed(2)}%`;
      if (fill.style.width !== width) {
        fill.style.width = width;
      }
    }
    this.thumb.style.left = percent;
    const valueText = `${formatTime(playback.time)}, event ${playback.cursor} of ${events}`;
    if (this.axis.getAttribute('aria-valuetext') !== valueText) {
      setAttribute(this.axis, 'aria-valuenow', playback.time.toFixed(1));
      setAttribute(this.axis, 'aria-valuetext', valueText);
    }
  }

  /** Gives the keyboard focus to the axis. */
  focusAxis(): void {
    this.axis.focus();
  }

  private onKey(event: KeyboardEvent): void {
    const duration = this.timeline?.duration ?? 0;
    const current = Number(this.axis.getAttribute('aria-valuenow') ?? '0');
    switch (event.key) {
      case 'ArrowLeft':
      case 'ArrowDown':
        this.actions.stepPrevious();
        break;
      case 'ArrowRight':
      case 'ArrowUp':
        this.actions.stepNext();
        break;
      case 'PageDown':
        this.seekShare(this.shareOf(current) - 0.1);
        break;
      case 'PageUp':
        this.seekShare(this.shareOf(current) + 0.1);
        break;
      case 'Home':
        this.actions.seekTime(0);
        break;
      case 'End':
        this.actions.seekTime(duration);
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  private onPointerDown(event: PointerEvent): void {
    if (event.button !== 0) {
      return;
    }
    this.isDragging = true;
    this.axis.setPointerCapture(event.pointerId);
    this.axis.focus();
    this.scrubTo(event.clientX);
  }

  private onPointerMove(event: PointerEvent): void {
    if (this.isDragging) {
      this.scrubTo(event.clientX);
    }
  }

  private onPointerUp(event: PointerEvent): void {
    if (this.isDragging) {
      this.isDragging = false;
      this.axis.releasePointerCapture(event.pointerId);
      this.scrubTo(event.clientX);
    }
  }

  private scrubTo(clientX: number): void {
    const track = this.axis.getBoundingClientRect();
    this.seekShare(track.width > 0 ? (clientX - track.left) / track.width : 0);
  }

  /** The axis share of a time. */
  private shareOf(time: number): number {
    return this.timeline?.scale.positionOf(time) ?? 0;
  }

  /** Seeks the time at a share of the axis (clamped to 0..1). */
  private seekShare(share: number): void {
    const scale = this.timeline?.scale;
    this.actions.seekTime(scale === undefined ? 0 : scale.timeAt(Math.min(1, Math.max(0, share))));
  }
}
