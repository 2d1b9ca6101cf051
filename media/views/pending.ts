/**
 * The Pending area: pods that exist at the playhead but are bound to no node (waiting for the scheduler, or
 * fitting nowhere). Clicking one shows why no node fits. At most MAX_SHOWN chips are built; the rest are
 * counted.
 */
import { h, replaceChildren, setText, toggleClass } from '../dom';
import { chipLabel } from '../format';
import type { ClusterState } from '../model/cluster-state';
import { PENDING } from '../model/phases';
import type { Timeline } from '../model/timeline';
import { moreChip, onChipClick, podChip } from './pod-chip';

const MAX_SHOWN = 120;
/** Pending chips size to their label (they wrap freely), so a longer one fits: most names in full. */
const PENDING_LABEL_CHARS = 40;

/** The Pending area. */
export class PendingView {
  readonly element: HTMLElement;
  private readonly title: HTMLElement;
  private readonly chips: HTMLElement;
  private timeline: Timeline | null = null;
  private signature = '';

  constructor(select: (pod: number) => void) {
    this.title = h('h2', { className: 'area-title', text: 'Pending' });
    this.chips = h('div', {
      className: 'pending-chips',
      attrs: { role: 'list', 'aria-label': 'Pending pods' },
    });
    this.element = h(
      'section',
      { className: 'pending', attrs: { 'aria-label': 'Pending pods' } },
      this.title,
      this.chips,
    );
    onChipClick(this.chips, select);
  }

  /** Shows a new timeline. */
  setTimeline(timeline: Timeline): void {
    this.timeline = timeline;
    this.signature = '';
  }

  /** Shows the pods pending at the playhead. */
  update(state: ClusterState, selectedPod: number): void {
    const timeline = this.timeline;
    if (timeline === null) {
      return;
    }
    const pending: number[] = [];
    for (let pod = 0; pod < state.podPhase.length; pod++) {
      if (state.podPhase[pod] === PENDING && (state.podNode[pod] ?? -1) < 0) {
        pending.push(pod);
      }
    }
    const shown = pending.slice(0, MAX_SHOWN);
    const signature = `${selectedPod}|${pending.length}|${shown.map((pod) => `${pod}:${state.podUnschedulable[pod] ?? -1}`).join(',')}`;
    if (signature === this.signature) {
      return;
    }
    this.signature = signature;
    const unschedulable = pending.filter((pod) => (state.podUnschedulable[pod] ?? -1) >= 0).length;
    setText(
      this.title,
      pending.length === 0
        ? 'Pending: none'
        : `Pending: ${pending.length}${unschedulable > 0 ? ` (${unschedulable} fit no node)` : ''}`,
    );
    toggleClass(this.element, 'is-empty', pending.length === 0);
    const chips: HTMLElement[] = shown.flatMap((pod) => {
      const entry = timeline.pods[pod];
      if (entry === undefined) {
        return [];
      }
      const chip = podChip(entry, PENDING, pod === selectedPod, (name) =>
        chipLabel(name, PENDING_LABEL_CHARS),
      );
      toggleClass(chip, 'is-unschedulable', (state.podUnschedulable[pod] ?? -1) >= 0);
      return [chip];
    });
    if (pending.length > shown.length) {
      chips.push(moreChip(pending.length - shown.length));
    }
    replaceChildren(this.chips, ...chips);
  }
}
