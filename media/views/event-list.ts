/**
 * The event list, synced with the playhead: the last applied event is marked and kept in view while playing;
 * clicking an event (or Enter on it) puts the playhead just after it. A text filter narrows the list.
 * Virtualised like the lanes: only the rows in view exist.
 */
import { h, setAttribute, setText, toggleClass } from '../dom';
import { formatTime, visibleText } from '../format';
import type { Timeline } from '../model/timeline';

/** Height of a row in CSS pixels. */
const EVENT_ROW_HEIGHT = 24;
const OVERSCAN = 6;

interface EventRow {
  readonly element: HTMLButtonElement;
  readonly time: HTMLElement;
  readonly type: HTMLElement;
  readonly text: HTMLElement;
  event: number;
}

/** The event list. */
export class EventListView {
  readonly element: HTMLElement;
  private readonly filterInput: HTMLInputElement;
  private readonly scroller: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly countLabel: HTMLElement;
  private rows: EventRow[] = [];
  private timeline: Timeline | null = null;
  /** Indices of the events that pass the filter. */
  private shown: number[] = [];
  private haystacks: string[] = [];
  private filter = '';
  private scrollTop = 0;
  private viewportHeight = 300;
  private lastCursor = -1;

  constructor(
    private readonly jump: (event: number) => void,
    private readonly onViewportChange: () => void,
    private readonly onFilterChange: (filter: string) => void,
  ) {
    this.filterInput = h('input', {
      className: 'event-filter',
      attrs: {
        type: 'search',
        placeholder: 'Filter events',
        'aria-label': 'Filter events',
        spellcheck: 'false',
      },
    });
    this.countLabel = h('span', { className: 'event-count' });
    this.spacer = h('div', { className: 'events-spacer' });
    this.scroller = h('div', { className: 'events-scroll' }, this.spacer);
    this.element = h(
      'section',
      { className: 'events', attrs: { 'aria-label': 'Events' } },
      h(
        'div',
        { className: 'events-head' },
        h('h2', { className: 'area-title', text: 'Events' }),
        this.countLabel,
        this.filterInput,
      ),
      this.scroller,
    );
    this.filterInput.addEventListener('input', () => {
      this.applyFilter(this.filterInput.value);
      this.onFilterChange(this.filter);
    });
    this.spacer.addEventListener('click', (event) => {
      const target =
        event.target instanceof Element ? event.target.closest<HTMLElement>('[data-event]') : null;
      const index = Number(target?.dataset['event']);
      if (target !== null && Number.isInteger(index)) {
        this.jump(index);
      }
    });
    this.scroller.addEventListener('scroll', () => {
      this.scrollTop = this.scroller.scrollTop;
      this.onViewportChange();
    });
    new ResizeObserver(() => {
      this.viewportHeight = this.scroller.clientHeight;
      this.onViewportChange();
    }).observe(this.scroller);
  }

  /** Shows a new timeline's events, keeping the filter. */
  setTimeline(timeline: Timeline, filter: string): void {
    this.timeline = timeline;
    this.haystacks = [];
    this.filterInput.value = filter;
    this.lastCursor = -1;
    this.applyFilter(filter);
  }

  /** Marks the last applied event; keeps it in view when the cursor moved. */
  update(cursor: number): void {
    const timeline = this.timeline;
    if (timeline === null) {
      return;
    }
    if (cursor !== this.lastCursor) {
      this.lastCursor = cursor;
      this.scrollToEvent(cursor - 1);
    }
    const first = Math.max(0, Math.floor(this.scrollTop / EVENT_ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(
      this.shown.length - 1,
      Math.ceil((this.scrollTop + this.viewportHeight) / EVENT_ROW_HEIGHT) + OVERSCAN,
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
    this.rows.forEach((row, offset) => {
      const position = first + offset;
      const index = this.shown[position] ?? -1;
      const event = timeline.events[index];
      if (event === undefined) {
        return;
      }
      if (row.event !== index) {
        row.event = index;
        row.element.style.transform = `translateY(${position * EVENT_ROW_HEIGHT}px)`;
        row.element.dataset['event'] = String(index);
        row.element.dataset['type'] = event.type;
        setText(row.time, formatTime(timeline.times[index] ?? 0));
        // A bare Kubernetes event shows its reason (Pulled, Killing…) where the others show their type.
        setText(row.type, event.type === 'KubernetesEvent' ? (event.reason ?? event.type) : event.type);
        const object = `${event.object.namespace === undefined ? '' : `${event.object.namespace}/`}${event.object.name}`;
        setText(row.text, visibleText(event.message === '' ? object : event.message));
        setAttribute(row.element, 'title', visibleText(`${object}: ${event.message}`));
        row.type.className = `event-type type-${event.eventType === 'Warning' ? 'bad' : typeClass(event.type)}`;
      }
      const isCurrent = index === cursor - 1;
      toggleClass(row.element, 'is-current', isCurrent);
      toggleClass(row.element, 'is-future', index >= cursor);
      if (isCurrent !== (row.element.getAttribute('aria-current') === 'true')) {
        setAttribute(row.element, 'aria-current', isCurrent ? 'true' : 'false');
      }
    });
  }

  private applyFilter(filter: string): void {
    const timeline = this.timeline;
    this.filter = filter;
    if (timeline === null) {
      return;
    }
    const needle = filter.trim().toLowerCase();
    if (needle === '') {
      this.shown = timeline.events.map((_, index) => index);
    } else {
      if (this.haystacks.length === 0) {
        this.haystacks = timeline.events.map((event) =>
          `${event.type} ${event.reason ?? ''} ${event.object.kind} ${event.object.namespace ?? ''}/${event.object.name} ${event.node ?? ''} ${event.message}`.toLowerCase(),
        );
      }
      this.shown = this.haystacks.flatMap((haystack, index) => (haystack.includes(needle) ? [index] : []));
    }
    this.spacer.style.height = `${this.shown.length * EVENT_ROW_HEIGHT}px`;
    setText(
      this.countLabel,
      needle === '' ? `${this.shown.length}` : `${this.shown.length} of ${timeline.events.length}`,
    );
    for (const row of this.rows) {
      row.event = -1;
    }
    this.lastCursor = -1;
  }

  private scrollToEvent(index: number): void {
    // The shown row at or before the event (the list may be filtered).
    let low = 0;
    let high = this.shown.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.shown[middle] ?? 0) <= index) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    const position = Math.max(0, low - 1);
    const top = position * EVENT_ROW_HEIGHT;
    if (top < this.scrollTop || top + EVENT_ROW_HEIGHT > this.scrollTop + this.viewportHeight) {
      this.scrollTop = Math.max(0, top - Math.floor(this.viewportHeight / 2));
      this.scroller.scrollTop = this.scrollTop;
    }
  }
}

function createRow(): EventRow {
  const time = h('span', { className: 'event-time' });
  const type = h('span', { className: 'event-type' });
  const text = h('span', { className: 'event-text' });
  const element = h('button', { className: 'event-row', attrs: { type: 'button' } }, time, type, text);
  element.style.height = `${EVENT_ROW_HEIGHT}px`;
  return { element, time, type, text, event: -1 };
}

function typeClass(type: string): string {
  if (type === 'ScenarioStep') {
    return 'scenario';
  }
  if (
    type.startsWith('Drain') ||
    type === 'NodeCordoned' ||
    type.startsWith('ScaleDown') ||
    type === 'NodeRemoved'
  ) {
    return 'drain';
  }
  if (
    type === 'EvictionBlocked' ||
    type === 'FailedCreate' ||
    type === 'ProvisioningFailed' ||
    type === 'JobFailed' ||
    type === 'PodUnschedulable' ||
    type === 'NotTriggerScaleUp' ||
    type === 'NodeNotReady' ||
    type === 'NodeHasInsufficientMemory' ||
    type === 'FailedGetResourceMetric' ||
    type === 'ProgressDeadlineExceeded'
  ) {
    return 'bad';
  }
  if (
    type.startsWith('Rollout') ||
    type === 'ScaleChanged' ||
    type === 'SuccessfulRescale' ||
    type === 'TriggeredScaleUp'
  ) {
    return 'rollout';
  }
  return 'plain';
}
