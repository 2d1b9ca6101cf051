/**
 * The key to the lanes: what each chip colour (display phase) and outline (ReplicaSet generation) means.
 */
import { h } from '../dom';

const PHASES = [
  'Pending',
  'ContainerCreating',
  'CannotStart',
  'Running',
  'Ready',
  'Terminating',
  'Evicted',
  'Succeeded',
] as const;

/** The legend above the node lanes. */
export function laneLegend(): HTMLElement {
  return h(
    'div',
    { className: 'lane-legend', attrs: { 'aria-label': 'Legend' } },
    h('h2', { className: 'area-title', text: 'Nodes' }),
    ...PHASES.map((phase) =>
      h('span', { className: `legend-chip phase-${phase.toLowerCase()}`, text: phase }),
    ),
    h('span', { className: 'legend-chip rev-old', text: 'old ReplicaSet' }),
    h('span', { className: 'legend-chip rev-new', text: 'new ReplicaSet' }),
  );
}
