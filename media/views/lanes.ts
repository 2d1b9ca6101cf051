/**
 * One lane per node: its name and conditions (cordoned, draining, not ready…), cpu and memory bars (requested
 * vs allocatable at the playhead), and its pods as chips. Virtualised: only the lanes in view (plus a few) exist
 * in the DOM, positioned over a spacer as tall as every lane; a lane's chips are rebuilt only when its pods or
 * their phases change.
 */
import { h, replaceChildren, setAttribute, setText, toggleClass } from '../dom';
import { formatCpu, formatMemory, formatPercent, visibleText } from '../format';
import { NODE_FLAGS } from '../model/cluster-state';
import type { ClusterState } from '../model/cluster-state';
import { isShownOnLane } from '../model/phases';
import type { Timeline } from '../model/timeline';
import { moreChip, onChipClick, podChip } from './pod-chip';

/** Height of a lane in CSS pixels (fixed, so that positions are computed, never measured). */
const LANE_HEIGHT = 68;
const OVERSCAN = 3;
const META_WIDTH = 280;
const CHIP_WIDTH = 150;
const CHIP_GAP = 4;
const CHIP_ROWS = 2;

const BADGES: readonly [number, string, string][] = [
  [NODE_FLAGS.notReady, 'NotReady', 'badge-failure'],
  [NODE_FLAGS.drainBlocked, 'Drain blocked', 'badge-blocked'],
  [NODE_FLAGS.draining, 'Draining', 'badge-drain'],
  [NODE_FLAGS.drained, 'Drained', 'badge-drain'],
  [NODE_FLAGS.cordoned, 'SchedulingDisabled', 'badge-drain'],
  [NODE_FLAGS.tainted, 'Tainted', 'badge-info'],
];

interface Bar {
  readonly element: HTMLElement;
  readonly fill: HTMLElement;
  readonly label: HTMLElement;
}

interface LaneRow {
  readonly element: HTMLElement;
  readonly name: HTMLElement;
  readonly badges: HTMLElement;
  readonly cpu: Bar;
  readonly memory: Bar;
  readonly chips: HTMLElement;
  node: number;
  badgeSignature: string;
  chipSignature: string;
}

/** The node lanes. */
export class LanesView {
  readonly element: HTMLElement;
  private readonly spacer: HTMLElement;
  private rows: LaneRow[] = [];
  private timeline: Timeline | null = null;
  private podsByNode: number[][] = [];
  private viewportHeight = 600;
  private width = 900;
  private scrollTop = 0;

  constructor(
    select: (pod: number) => void,
    private readonly onViewportChange: () => void,
  ) {
    this.spacer = h('div', { className: 'lanes-spacer', attrs: { role: 'list', 'aria-label': 'Nodes' } });
    this.element = h('div', { className: 'lanes-scroll', attrs: { tabindex: '-1' } }, this.spacer);
    onChipClick(this.spacer, select);
    this.element.addEventListener('scroll', () => {
      this.scrollTop = this.element.scrollTop;
      this.onViewportChange();
    });
    new ResizeObserver(() => {
      this.viewportHeight = this.element.clientHeight;
      this.width = this.element.clientWidth;
      this.chipSignatureReset();
      this.onViewportChange();
    }).observe(this.element);
  }

  /** Shows a new timeline's nodes. */
  setTimeline(timeline: Timeline): void {
    this.timeline = timeline;
    this.spacer.style.height = `${timeline.nodes.length * LANE_HEIGHT}px`;
    this.podsByNode = timeline.nodes.map(() => []);
    for (const row of this.rows) {
      row.node = -1;
    }
  }

  /** Shows the cluster at the playhead. */
  update(state: ClusterState, selectedPod: number): void {
    const timeline = this.timeline;
    if (timeline === null) {
      return;
    }
    for (const pods of this.podsByNode) {
      pods.length = 0;
    }
    for (let pod = 0; pod < state.podPhase.length; pod++) {
      const node = state.podNode[pod] ?? -1;
      if (node >= 0 && isShownOnLane(state.podPhase[pod] ?? 0)) {
        this.podsByNode[node]?.push(pod);
      }
    }
    const first = Math.max(0, Math.floor(this.scrollTop / LANE_HEIGHT) - OVERSCAN);
    const last = Math.min(
      timeline.nodes.length - 1,
      Math.ceil((this.scrollTop + this.viewportHeight) / LANE_HEIGHT) + OVERSCAN,
    );
    const needed = Math.max(0, last - first + 1);
    while (this.rows.length < needed) {
      const row = createRow();
      this.rows.push(row);
      this.spacer.append(row.element);
    }
    while (this.rows.length > needed) {
      this.rows.pop()?.element.remove();
    }
    const perRow = Math.max(1, Math.floor((this.width - META_WIDTH + CHIP_GAP) / (CHIP_WIDTH + CHIP_GAP)));
    this.rows.forEach((row, offset) =>
      this.fillRow(row, first + offset, state, selectedPod, perRow * CHIP_ROWS),
    );
  }

  /** Scrolls a node's lane into view. */
  revealNode(node: number): void {
    const top = node * LANE_HEIGHT;
    if (top < this.scrollTop || top + LANE_HEIGHT > this.scrollTop + this.viewportHeight) {
      this.element.scrollTop = Math.max(0, top - LANE_HEIGHT);
    }
  }

  private fillRow(row: LaneRow, node: number, state: ClusterState, selected: number, capacity: number): void {
    const timeline = this.timeline;
    const entry = timeline?.nodes[node];
    if (timeline === null || entry === undefined) {
      return;
    }
    if (row.node !== node) {
      row.node = node;
      row.element.style.transform = `translateY(${node * LANE_HEIGHT}px)`;
      row.element.dataset['node'] = entry.name;
      setText(row.name, visibleText(entry.name));
      setAttribute(row.name, 'title', visibleText(entry.name));
      row.badgeSignature = '';
      row.chipSignature = '';
    }
    const flags = state.nodeFlags[node] ?? 0;
    const badgeSignature = String(flags);
    if (row.badgeSignature !== badgeSignature) {
      row.badgeSignature = badgeSignature;
      // A drain cordons the node: SchedulingDisabled goes without saying then.
      const shown = flags & (NODE_FLAGS.draining | NODE_FLAGS.drained) ? flags & ~NODE_FLAGS.cordoned : flags;
      const badges = BADGES.filter(([flag]) => (shown & flag) !== 0).map(([, text, className]) =>
        h('span', { className: `badge ${className}`, text }),
      );
      if ((flags & NODE_FLAGS.present) === 0) {
        badges.unshift(h('span', { className: 'badge badge-info', text: 'Not yet added' }));
      }
      replaceChildren(row.badges, ...badges);
      toggleClass(row.element, 'is-absent', (flags & NODE_FLAGS.present) === 0);
      toggleClass(row.element, 'is-draining', (flags & (NODE_FLAGS.draining | NODE_FLAGS.drained)) !== 0);
      toggleClass(row.element, 'is-failed', (flags & NODE_FLAGS.notReady) !== 0);
    }
    fillBar(row.cpu, state.nodeCpuMilli[node] ?? 0, state.nodeAllocCpuMilli[node] ?? 0, formatCpu, 'cpu');
    fillBar(
      row.memory,
      state.nodeMemoryBytes[node] ?? 0,
      state.nodeAllocMemoryBytes[node] ?? 0,
      formatMemory,
      'memory',
    );
    const pods = this.podsByNode[node] ?? [];
    const shown = pods.length > capacity ? pods.slice(0, capacity - 1) : pods;
    let chipSignature = `${capacity}|${selected}|`;
    for (const pod of shown) {
      chipSignature += `${pod}:${state.podPhase[pod] ?? 0},`;
    }
    chipSignature += pods.length;
    if (row.chipSignature !== chipSignature) {
      row.chipSignature = chipSignature;
      const chips: HTMLElement[] = shown.flatMap((pod) => {
        const entry = timeline.pods[pod];
        return entry === undefined ? [] : [podChip(entry, state.podPhase[pod] ?? 0, pod === selected)];
      });
      if (shown.length < pods.length) {
        chips.push(moreChip(pods.length - shown.length));
      }
      replaceChildren(row.chips, ...chips);
      const podsText = `${pods.length} pod${pods.length === 1 ? '' : 's'}`;
      setAttribute(row.element, 'aria-label', `Node ${visibleText(entry.name)}, ${podsText}`);
    }
  }

  private chipSignatureReset(): void {
    for (const row of this.rows) {
      row.chipSignature = '';
    }
  }
}

function createRow(): LaneRow {
  const name = h('span', { className: 'lane-name' });
  const badges = h('span', { className: 'lane-badges' });
  const cpu = createBar('cpu');
  const memory = createBar('memory');
  const chips = h('div', { className: 'lane-chips' });
  const meta = h(
    'div',
    { className: 'lane-meta' },
    h('div', { className: 'lane-title' }, name, badges),
    cpu.element,
    memory.element,
  );
  const element = h('div', { className: 'lane', attrs: { role: 'listitem' } }, meta, chips);
  element.style.height = `${LANE_HEIGHT}px`;
  return { element, name, badges, cpu, memory, chips, node: -1, badgeSignature: '', chipSignature: '' };
}

function createBar(resource: string): Bar {
  const fill = h('div', { className: 'bar-fill' });
  const label = h('span', { className: 'bar-label' });
  const element = h(
    'div',
    { className: `bar bar-${resource}` },
    h('span', { className: 'bar-name', text: resource }),
    h('div', { className: 'bar-track' }, fill),
    label,
  );
  return { element, fill, label };
}

function fillBar(
  bar: Bar,
  requested: number,
  allocatable: number,
  format: (n: number) => string,
  name: string,
): void {
  const share = allocatable > 0 ? Math.min(1, requested / allocatable) : 0;
  const width = `${(share * 100).toFixed(1)}%`;
  if (bar.fill.style.width !== width) {
    bar.fill.style.width = width;
  }
  toggleClass(bar.fill, 'is-high', share >= 0.9);
  const text = allocatable > 0 ? `${format(requested)} / ${format(allocatable)}` : `${format(requested)} / ?`;
  setText(bar.label, text);
  const title = `${name} requested ${format(requested)} of ${format(allocatable)} allocatable (${formatPercent(requested, allocatable)})`;
  if (bar.element.getAttribute('title') !== title) {
    setAttribute(bar.element, 'title', title);
  }
}
