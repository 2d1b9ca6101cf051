/**
 * The consequences part of the Preview Apply page that is more than a list: a rollout's line (waves, time, the
 * most pods unavailable at once, the budgets it consumes) and capacity before and after per node group or zone,
 * with the nodes the autoscaler adds or removes and the pods that move.
 */
import type { Plan, PlanRollout } from '../../protocol/plan';
import { readableBytes } from '../../protocol/readable-bytes';
import { h } from '../dom';

/** One rollout as a row: what rolls, how, and its source link when the input defines it. */
export function rolloutItem(rollout: PlanRollout, place: HTMLElement | null): HTMLElement {
  const row = h(
    'li',
    { className: `row rollout is-${rollout.outcome === 'Complete' ? 'complete' : 'incomplete'}` },
    h('span', { className: 'badge is-rollout', text: rollout.isNew ? 'new' : rollout.strategy }),
    h('span', { className: 'subject', text: `${rollout.kind} ${rollout.namespace}/${rollout.name}` }),
  );
  if (place !== null) {
    row.append(place);
  }
  row.append(h('p', { className: 'detail', text: rolloutSentence(rollout) }));
  for (const budget of rollout.budgets) {
    row.append(
      h('p', {
        className: 'detail muted',
        text: `PodDisruptionBudget ${budget.name}: at least ${budget.minDisruptionsAllowed} disruption(s) allowed throughout`,
      }),
    );
  }
  return row;
}

function rolloutSentence(rollout: PlanRollout): string {
  const pods = rollout.isNew
    ? `${rollout.replicas} pod(s) created`
    : `${rollout.podsReplaced} of ${rollout.replicas} pod(s) replaced`;
  const time =
    rollout.duration === null
      ? `does not complete (${rollout.outcome}): ${rollout.message.replace(/\.$/, '')}`
      : `complete in ${rollout.duration}s from t=${rollout.startedAt}s`;
  return (
    `${pods} in ${rollout.waves} wave(s), ${time}; ` +
    `at most ${rollout.peakUnavailable} of ${rollout.replicas} unavailable at once`
  );
}

/** Capacity before and after: a table per node group or zone, then the nodes added or removed and pods moved. */
export function capacitySection(plan: Plan): HTMLElement {
  const { capacity } = plan;
  const section = h(
    'section',
    { className: 'capacity' },
    h('h3', { text: 'Capacity (requested: before → after)' }),
  );
  const table = h('table', {});
  table.append(
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['group', 'nodes', 'cpu', 'memory'].map((title) =>
          h('th', { text: title, attrs: { scope: 'col' } }),
        ),
      ),
    ),
  );
  const body = h('tbody', {});
  for (const group of capacity.groups) {
    body.append(
      h(
        'tr',
        {},
        h('th', { text: group.group, attrs: { scope: 'row' } }),
        h('td', { text: change(String(group.nodesBefore), String(group.nodesAfter)) }),
        h('td', { text: `${change(group.cpuBefore, group.cpuAfter)} of ${group.cpuAllocatable}` }),
        h('td', {
          text: `${change(readableBytes(group.memoryBefore), readableBytes(group.memoryAfter))} of ${readableBytes(group.memoryAllocatable)}`,
        }),
      ),
    );
  }
  table.append(body);
  section.append(h('div', { className: 'table-scroll' }, table));
  const moves = h('ul', { className: 'moves' });
  for (const node of capacity.nodesAdded) {
    moves.append(h('li', { text: `node ${node.node} added to ${node.group}, Ready at t=${node.readyAt}s` }));
  }
  for (const node of capacity.nodesRemoved) {
    moves.append(h('li', { text: `node ${node.node} of ${node.group} removed at t=${node.time}s` }));
  }
  for (const pod of capacity.podsMoved) {
    moves.append(
      h('li', { text: `pod ${pod.pod} moves from ${pod.from} to ${pod.to ?? 'no node (Pending)'}` }),
    );
  }
  if (capacity.podsMoved.length === 0) {
    moves.append(h('li', { className: 'muted', text: 'no running pod moves to another node' }));
  }
  section.append(moves);
  return section;
}

function change(before: string, after: string): string {
  return before === after ? before : `${before} → ${after}`;
}
