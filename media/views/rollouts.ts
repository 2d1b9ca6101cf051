/**
 * Rollout waves: for each workload the events show rolling out, the old and new pods' counts (old and new
 * ReplicaSets for a Deployment, revisions for a StatefulSet or DaemonSet) over the whole timeline as two step
 * lines on the broken time axis of the transport (model/time-scale.ts, its breaks drawn as bands), the playhead
 * on them, and the current wave in words, with the counts the controller had then.
 */
import type { TimelineEvent } from '../../protocol/timeline';
import { h, replaceChildren, setAttribute, setText, svg, toggleClass } from '../dom';
import { formatDuration, visibleText } from '../format';
import type { RolloutEntry, Timeline } from '../model/timeline';
import { maxOf } from '../../protocol/collections';

const MAX_ROWS = 40;
const CHART_WIDTH = 1000;
const CHART_HEIGHT = 36;

interface RolloutRow {
  readonly entry: RolloutEntry;
  readonly status: HTMLElement;
  readonly playhead: SVGLineElement;
  readonly element: HTMLElement;
}

/** The rollout waves. */
export class RolloutsView {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private rows: RolloutRow[] = [];
  private timeline: Timeline | null = null;

  constructor() {
    this.list = h('div', { className: 'rollout-list', attrs: { role: 'list' } });
    this.element = h(
      'section',
      { className: 'rollouts', attrs: { 'aria-label': 'Rollouts' } },
      h('h2', { className: 'area-title' }, h('span', { text: 'Rollouts ' }), legend()),
      this.list,
    );
  }

  /** Builds a chart per rollout of a new timeline. */
  setTimeline(timeline: Timeline): void {
    this.timeline = timeline;
    this.rows = timeline.rollouts.slice(0, MAX_ROWS).map((entry) => this.createRow(timeline, entry));
    const elements: HTMLElement[] = this.rows.map((row) => row.element);
    if (timeline.rollouts.length > MAX_ROWS) {
      elements.push(
        h('div', { className: 'more-note', text: `${timeline.rollouts.length - MAX_ROWS} more rollouts` }),
      );
    }
    replaceChildren(this.list, ...elements);
    toggleClass(this.element, 'is-empty', timeline.rollouts.length === 0);
  }

  /** Shows each rollout's wave at the playhead. */
  update(cursor: number, time: number): void {
    const timeline = this.timeline;
    if (timeline === null) {
      return;
    }
    const x = (timeline.scale.positionOf(time) * CHART_WIDTH).toFixed(1);
    for (const row of this.rows) {
      if (row.playhead.getAttribute('x1') !== x) {
        setAttribute(row.playhead, 'x1', x);
        setAttribute(row.playhead, 'x2', x);
      }
      setText(row.status, describeWave(timeline, row.entry, cursor, time));
    }
  }

  private createRow(timeline: Timeline, entry: RolloutEntry): RolloutRow {
    const chart = svg('svg', {
      class: 'rollout-chart',
      viewBox: `0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`,
      preserveAspectRatio: 'none',
      'aria-hidden': 'true',
    });
    const steps = entry.steps.flatMap((index) => {
      const event = timeline.events[index];
      return event?.details?.rollout === undefined
        ? []
        : [{ time: timeline.times[index] ?? 0, ...event.details.rollout }];
    });
    const top = maxOf(
      steps.map((step) => Math.max(step.newReplicas, step.oldReplicas)),
      1,
    );
    const xOf = (time: number): number => timeline.scale.positionOf(time) * CHART_WIDTH;
    for (const piece of timeline.scale.breaks) {
      chart.append(
        svg('rect', {
          class: 'chart-break',
          x: xOf(piece.from).toFixed(1),
          y: 0,
          width: (xOf(piece.to) - xOf(piece.from)).toFixed(1),
          height: CHART_HEIGHT,
        }),
      );
    }
    const yOf = (count: number): number => CHART_HEIGHT - 3 - (count / top) * (CHART_HEIGHT - 6);
    for (const [series, className] of [
      ['oldReplicas', 'line-old'],
      ['newReplicas', 'line-new'],
    ] as const) {
      let points = '';
      let previous: number | null = null;
      for (const step of steps) {
        const x = xOf(step.time).toFixed(1);
        if (previous !== null) {
          points += `${x},${yOf(previous).toFixed(1)} `;
        }
        points += `${x},${yOf(step[series]).toFixed(1)} `;
        previous = step[series];
      }
      if (previous !== null) {
        points += `${CHART_WIDTH},${yOf(previous).toFixed(1)}`;
      }
      chart.append(
        svg('polyline', { class: className, points: points.trim(), 'vector-effect': 'non-scaling-stroke' }),
      );
    }
    const playhead = svg('line', {
      class: 'chart-playhead',
      x1: 0,
      x2: 0,
      y1: 0,
      y2: CHART_HEIGHT,
      'vector-effect': 'non-scaling-stroke',
    });
    chart.append(playhead);
    const name = `${entry.object.kind} ${visibleText(entry.object.namespace ?? '')}/${visibleText(entry.object.name)}`;
    const status = h('span', { className: 'rollout-status' });
    const element = h(
      'div',
      { className: 'rollout', attrs: { role: 'listitem' } },
      h(
        'div',
        { className: 'rollout-head' },
        h('span', { className: 'rollout-name', text: name, attrs: { title: name } }),
        status,
      ),
      chart,
    );
    return { entry, status, playhead, element };
  }
}

/** The rollout at the playhead in words: its wave and replica counts, or how it ended. */
function describeWave(timeline: Timeline, entry: RolloutEntry, cursor: number, time: number): string {
  const applied = entry.steps.filter((index) => index < cursor);
  const first = entry.steps[0];
  if (applied.length === 0 || first === undefined) {
    return 'not started';
  }
  const last = timeline.events[applied[applied.length - 1] ?? first] as TimelineEvent;
  const started = timeline.times[first] ?? 0;
  const waves = applied.filter((index) => timeline.events[index]?.type === 'RolloutStep').length;
  const counts = lastCounts(timeline, applied, entry.object.kind);
  if (last.type === 'RolloutComplete') {
    const took = formatDuration((timeline.times[applied[applied.length - 1] ?? first] ?? 0) - started);
    return `complete after ${took}, ${waves} step${waves === 1 ? '' : 's'}${counts}`;
  }
  if (last.type === 'ProgressDeadlineExceeded') {
    return `progress deadline exceeded${counts}`;
  }
  return `step ${waves}, ${formatDuration(time - started)} in${counts}`;
}

/**
 * The counts of the last applied step (or of the end, which carries the counts then), in the controller's words:
 * a Deployment's new and old ReplicaSets, a StatefulSet's or DaemonSet's updated and old pods.
 */
function lastCounts(timeline: Timeline, applied: readonly number[], kind: string): string {
  for (let k = applied.length - 1; k >= 0; k--) {
    const rollout = timeline.events[applied[k] ?? -1]?.details?.rollout;
    if (rollout !== undefined) {
      const updated = kind === 'Deployment' ? 'new' : 'updated';
      return ` · ${updated} ${rollout.newReplicas} · old ${rollout.oldReplicas} · available ${rollout.available}`;
    }
  }
  return '';
}

function legend(): HTMLElement {
  return h(
    'span',
    { className: 'legend' },
    h('span', { className: 'legend-line line-old', text: 'old pods' }),
    h('span', { className: 'legend-line line-new', text: 'new (updated) pods' }),
  );
}
