/**
 * One lane per node: its name (a line of its own, in full as far as the lane allows, in a tooltip and the
 * accessible name always), its conditions as badges on the next line (cordoned, draining, not ready…: a line wide
 * enough for all of them at once, so none is cut or covers another), cpu and memory bars (requested vs
 * allocatable at the playhead), and its pods as chips, in one of two layouts chosen from the lanes' width
 * (lane-layout.ts), their labels shortened to what a chip shows. Virtualised: only the lanes in view (plus a few)
 * exist in the DOM, positioned over a spacer as tall as every lane; a lane's chips are rebuilt only when its pods
 * or their phases change.
 */
import { h, replaceChildren, setAttribute, setText, toggleClass } from '../dom';
import { chipLabel, formatCpu, formatMemory, formatPercent, visibleText } from '../format';
import type { LaneLayout } from './lane-layout';
import { CHIP_CHROME, labelFitter, layoutFor } from './lane-layout';
import { NODE_FLAGS } from '../model/cluster-state';
import type { ClusterState } from '../model/cluster-state';
import { isShownOnLane } from '../model/phases';
import type { Timeline } from '../model/timeline';
import { moreChip, onChipClick, podChip } from './pod-chip';

const OVERSCAN = 3;

/**
 * The badges, in order. Drain blocked stands for Draining (a blocked drain is still draining), and a drain's
 * cordon goes without saying: at most NotReady, one drain badge, SchedulingDisabled and Tainted show at once.
 */
const BADGES: readonly [number, string, string][] = [
  [NODE_FLAGS.notReady, 'NotReady', 'badge-failure'],
  [NODE_FLAGS.drainBlocked, 'Drain blocked', 'badge-blocked'],
  [NODE_FLAGS.draining, 'Draining', 'badge-drain'],
  [NODE_FLAGS.drained, 'Drained', 'badge-drain'],
  [NODE_FLAGS.cordoned, 'SchedulingDisabled', 'badge-drain'],
  [NODE_FLAGS.tainted, 'Tainted', 'badge-info'],
];

/** What each badge means, for its tooltip. */
const BADGE_TITLES: Readonly<Record<string, string>> = {
  NotReady: 'The node’s kubelet stopped reporting: NotReady',
  'Drain blocked': 'A drain is waiting: an eviction was refused by a PodDisruptionBudget',
  Draining: 'kubectl drain is evicting the node’s pods',
  Drained: 'kubectl drain finished: the node is cordoned and empty of evictable pods',
  SchedulingDisabled: 'Cordoned (spec.unschedulable): no new pod lands here',
  Tainted: 'The node has a taint a controller added (not ready, unreachable, memory pressure…)',
  'Not yet added': 'The node joins the cluster later in the timeline',
};

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
  private layout: LaneLayout = layoutFor(900);
  /** Shortens a pod name to what a chip of the layout shows. */
  private label: (name: string) => string = chipLabel;
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
      const layout = layoutFor(this.element.clientWidth);
      if (layout.chipWidth !== this.layout.chipWidth || this.label === chipLabel) {
        this.label = labelFitter(this.element, layout.chipWidth - CHIP_CHROME);
      }
      this.applyLayout(layout);
      this.onViewportChange();
    }).observe(this.element);
  }

  /** Switches to a layout: lane heights, the spacer, chip sizes; every row is filled again. */
  private applyLayout(layout: LaneLayout): void {
    const previous = this.layout;
    this.layout = layout;
    toggleClass(this.element, 'is-narrow', layout.isNarrow);
    this.element.style.setProperty('--chip-width', `${layout.chipWidth}px`);
    this.element.style.setProperty('--lane-height', `${layout.height}px`);
    if (previous.height !== layout.height && this.timeline !== null) {
      this.spacer.style.height = `${this.timeline.nodes.length * layout.height}px`;
    }
    for (const row of this.rows) {
      row.node = -1;
      row.element.style.height = `${layout.height}px`;
    }
  }

  /** Shows a new timeline's nodes. */
  setTimeline(timeline: Timeline): void {
    this.timeline = timeline;
    this.spacer.style.height = `${timeline.nodes.length * this.layout.height}px`;
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
    const { height } = this.layout;
    const first = Math.max(0, Math.floor(this.scrollTop / height) - OVERSCAN);
    const last = Math.min(
      timeline.nodes.length - 1,
      Math.ceil((this.scrollTop + this.viewportHeight) / height) + OVERSCAN,
    );
    const needed = Math.max(0, last - first + 1);
    while (this.rows.length < needed) {
      const row = createRow(height);
      this.rows.push(row);
      this.spacer.append(row.element);
    }
    while (this.rows.length > needed) {
      this.rows.pop()?.element.remove();
    }
    this.rows.forEach((row, offset) => this.fillRow(row, first + offset, state, selectedPod));
  }

  /** Scrolls a node's lane into view. */
  revealNode(node: number): void {
    const { height } = this.layout;
    const top = node * height;
    if (top < this.scrollTop || top + height > this.scrollTop + this.viewportHeight) {
      this.element.scrollTop = Math.max(0, top - height);
    }
  }

  private fillRow(row: LaneRow, node: number, state: ClusterState, selected: number): void {
    const timeline = this.timeline;
    const entry = timeline?.nodes[node];
    if (timeline === null || entry === undefined) {
      return;
    }
    const { layout } = this;
    const capacity = layout.perRow * layout.chipRows;
    if (row.node !== node) {
      row.node = node;
      row.element.style.transform = `translateY(${node * layout.height}px)`;
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
      // A drain cordons the node: SchedulingDisabled goes without saying then; a blocked drain is draining.
      let shown = flags & (NODE_FLAGS.draining | NODE_FLAGS.drained) ? flags & ~NODE_FLAGS.cordoned : flags;
      shown = shown & NODE_FLAGS.drainBlocked ? shown & ~NODE_FLAGS.draining : shown;
      const badge = (text: string, className: string): HTMLElement =>
        h('span', { className: `badge ${className}`, text, attrs: { title: BADGE_TITLES[text] ?? text } });
      const badges =
        (flags & NODE_FLAGS.present) === 0
          ? [badge('Not yet added', 'badge-info')]
          : BADGES.filter(([flag]) => (shown & flag) !== 0).map(([, text, className]) =>
              badge(text, className),
            );
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
        return entry === undefined
          ? []
          : [podChip(entry, state.podPhase[pod] ?? 0, pod === selected, this.label)];
      });
      if (shown.length < pods.length) {
        chips.push(moreChip(pods.length - shown.length));
      }
      replaceChildren(row.chips, ...chips);
      const podsText = `${pods.length} pod${pods.length === 1 ? '' : 's'}`;
      setAttribute(row.element, 'aria-label', `Node ${visibleText(entry.name)}, ${podsText}`);
    }
  }
}

function createRow(height: number): LaneRow {
  const name = h('span', { className: 'lane-name' });
  const badges = h('span', { className: 'lane-badges' });
  const cpu = createBar('cpu');
  const memory = createBar('memory');
  const chips = h('div', { className: 'lane-chips' });
  const meta = h(
    'div',
    { className: 'lane-meta' },
    name,
    badges,
    h('div', { className: 'lane-bars' }, cpu.element, memory.element),
  );
  const element = h('div', { className: 'lane', attrs: { role: 'listitem' } }, meta, chips);
  element.style.height = `${height}px`;
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
