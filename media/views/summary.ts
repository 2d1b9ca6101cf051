/**
 * The summary strip, at the playhead: pods placed and pending, node conditions, how long each rollout took (or
 * has been going), and each PodDisruptionBudget's verdicts on the evictions asked so far.
 */
import { h, replaceChildren, setText } from '../dom';
import { formatDuration, visibleText } from '../format';
import { NODE_FLAGS } from '../model/cluster-state';
import type { ClusterState } from '../model/cluster-state';
import { holdsResources, PENDING } from '../model/phases';
import type { Timeline } from '../model/timeline';

interface Item {
  readonly element: HTMLElement;
  readonly value: HTMLElement;
}

/** The summary strip. */
export class SummaryView {
  readonly element: HTMLElement;
  private readonly pods = item('Pods');
  private readonly nodes = item('Nodes');
  private readonly rollouts = item('Rollouts');
  private readonly budgets = item('Disruption budgets');
  private budgetSignature = '';
  private budgetTimeline: Timeline | null = null;

  constructor() {
    this.element = h(
      'section',
      { className: 'summary', attrs: { 'aria-label': 'Summary at the playhead' } },
      this.pods.element,
      this.nodes.element,
      this.rollouts.element,
      this.budgets.element,
    );
  }

  /** Shows the summary at the playhead. */
  update(timeline: Timeline, state: ClusterState, time: number): void {
    let placed = 0;
    let pending = 0;
    for (let pod = 0; pod < state.podPhase.length; pod++) {
      const phase = state.podPhase[pod] ?? 0;
      if ((state.podNode[pod] ?? -1) >= 0 && holdsResources(phase)) {
        placed += 1;
      } else if (phase === PENDING) {
        pending += 1;
      }
    }
    this.pods.element.dataset['placed'] = String(placed);
    this.pods.element.dataset['pending'] = String(pending);
    setText(this.pods.value, `${placed} placed · ${pending} pending`);
    this.pods.element.classList.toggle('is-warning', pending > 0);

    let draining = 0;
    let notReady = 0;
    let present = 0;
    for (const flags of state.nodeFlags) {
      present += flags & NODE_FLAGS.present ? 1 : 0;
      draining += flags & (NODE_FLAGS.draining | NODE_FLAGS.drained) ? 1 : 0;
      notReady += flags & NODE_FLAGS.notReady ? 1 : 0;
    }
    const nodeNotes = [
      draining > 0 ? `${draining} drained or draining` : '',
      notReady > 0 ? `${notReady} not ready` : '',
    ]
      .filter((text) => text !== '')
      .join(', ');
    setText(this.nodes.value, `${present}${nodeNotes === '' ? '' : ` (${nodeNotes})`}`);

    setText(this.rollouts.value, describeRollouts(timeline, state.cursor, time));
    this.updateBudgets(timeline, state.cursor);
  }

  private updateBudgets(timeline: Timeline, cursor: number): void {
    // Rebuilt only when a verdict was added or taken back since the last frame.
    let applied = 0;
    while (applied < timeline.budgetEvents.length && (timeline.budgetEvents[applied] ?? Infinity) < cursor) {
      applied += 1;
    }
    const signature = String(applied);
    if (timeline === this.budgetTimeline && signature === this.budgetSignature) {
      return;
    }
    this.budgetTimeline = timeline;
    this.budgetSignature = signature;
    const verdicts = new Map<string, { allowed: number; blocked: number; drainBlocked: number }>();
    for (const index of timeline.budgetEvents) {
      if (index >= cursor) {
        break;
      }
      const event = timeline.events[index];
      const budget = event?.details?.disruptionBudget;
      if (event === undefined || budget === undefined) {
        continue;
      }
      const entry = verdicts.get(budget) ?? { allowed: 0, blocked: 0, drainBlocked: 0 };
      if (event.type === 'EvictionAllowed') {
        entry.allowed += 1;
      } else if (event.type === 'EvictionBlocked') {
        entry.blocked += 1;
      } else {
        entry.drainBlocked += 1;
      }
      verdicts.set(budget, entry);
    }
    if (verdicts.size === 0) {
      setText(this.budgets.value, timeline.budgetEvents.length === 0 ? 'no evictions' : 'no evictions yet');
      this.budgets.element.classList.remove('is-warning');
      return;
    }
    const parts = [...verdicts].map(([budget, entry]) => {
      // A drain reports a refused eviction too; count each refusal once.
      const blocked = entry.blocked > 0 ? entry.blocked : entry.drainBlocked;
      const text = `${visibleText(budget)}: ${entry.allowed} allowed, ${blocked} blocked`;
      return h('span', { className: blocked > 0 ? 'verdict is-blocked' : 'verdict', text });
    });
    replaceChildren(this.budgets.value, ...parts);
    this.budgets.element.classList.toggle(
      'is-warning',
      parts.some((part) => part.classList.contains('is-blocked')),
    );
  }
}

function describeRollouts(timeline: Timeline, cursor: number, time: number): string {
  if (timeline.rollouts.length === 0) {
    return 'none';
  }
  const parts: string[] = [];
  let complete = 0;
  let longest = 0;
  for (const rollout of timeline.rollouts) {
    const first = rollout.steps[0];
    if (first === undefined || first >= cursor) {
      continue;
    }
    const started = timeline.times[first] ?? 0;
    const ended = rollout.steps.find(
      (index) => index < cursor && timeline.events[index]?.type !== 'RolloutStep',
    );
    const took = (ended === undefined ? time : (timeline.times[ended] ?? time)) - started;
    longest = Math.max(longest, took);
    complete += ended === undefined ? 0 : 1;
    const state =
      ended === undefined
        ? 'in progress'
        : timeline.events[ended]?.type === 'RolloutComplete'
          ? 'took'
          : 'stalled after';
    parts.push(`${visibleText(rollout.object.name)} ${state} ${formatDuration(took)}`);
  }
  if (parts.length === 0) {
    return `${timeline.rollouts.length} not started`;
  }
  if (timeline.rollouts.length <= 2) {
    return parts.join(' · ');
  }
  return `${complete} of ${timeline.rollouts.length} done · longest ${formatDuration(longest)}`;
}

function item(label: string): Item {
  const value = h('span', { className: 'summary-value' });
  const element = h(
    'div',
    { className: 'summary-item' },
    h('span', { className: 'summary-label', text: label }),
    value,
  );
  return { element, value };
}
