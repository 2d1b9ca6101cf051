/**
 * The scenario strip: the what-if steps of the timeline (its ScenarioStep events), grouped by where they were
 * written (a Scenario document of the cluster file, or a flag of `foresight simulate`). A cluster file's Scenario
 * runs in every folder simulated on that cluster, so its drain would otherwise look like part of this folder.
 * Each step is a button that puts the playhead on it.
 */
import type { ScenarioStepDetails } from '../../protocol/timeline';
import { h, replaceChildren, toggleClass } from '../dom';
import { formatClock, visibleText } from '../format';
import type { Timeline } from '../model/timeline';

/** The scenario strip. */
export class ScenarioView {
  readonly element: HTMLElement;
  private readonly groups: HTMLElement;

  constructor(private readonly jump: (event: number) => void) {
    this.groups = h('div', { className: 'scenario-groups' });
    this.element = h(
      'section',
      { className: 'scenario is-empty', attrs: { 'aria-label': 'Scenario steps' } },
      h('h2', { className: 'area-title', text: 'Scenario' }),
      this.groups,
    );
    this.groups.addEventListener('click', (event) => {
      const target =
        event.target instanceof Element ? event.target.closest<HTMLElement>('[data-event]') : null;
      const index = Number(target?.dataset['event']);
      if (target !== null && Number.isInteger(index)) {
        this.jump(index);
      }
    });
  }

  /** Lists a new timeline's steps. */
  setTimeline(timeline: Timeline): void {
    const groups = new Map<string, { origin: ScenarioStepDetails; steps: HTMLElement[] }>();
    timeline.events.forEach((event, index) => {
      const step = event.details?.scenarioStep;
      if (event.type !== 'ScenarioStep' || step === undefined) {
        return;
      }
      const key = `${step.from}\u0000${step.source}\u0000${step.scenario ?? ''}`;
      const group = groups.get(key) ?? { origin: step, steps: [] };
      const time = formatClock(timeline.times[index] ?? 0);
      const text = `${describeStep(step, event.object.name, event.object.kind)} at ${time}`;
      group.steps.push(
        h('button', {
          className: 'scenario-step',
          text,
          attrs: { type: 'button', title: visibleText(event.message) },
          dataset: { event: String(index) },
        }),
      );
      groups.set(key, group);
    });
    replaceChildren(
      this.groups,
      ...[...groups.values()].map(({ origin, steps }) =>
        h(
          'div',
          { className: 'scenario-group', attrs: { role: 'group', 'aria-label': describeOrigin(origin) } },
          h('span', {
            className: 'scenario-origin',
            text: `${describeOrigin(origin)}:`,
            attrs: { title: visibleText(origin.source) },
          }),
          ...steps,
        ),
      ),
    );
    toggleClass(this.element, 'is-empty', groups.size === 0);
  }
}

/** Where the steps were written, for people: "from the cluster file cluster.yaml (Scenario maintenance)". */
export function describeOrigin(origin: ScenarioStepDetails): string {
  if (origin.from === 'flag') {
    return `from the command line (${visibleText(origin.source)})`;
  }
  const file = origin.source.slice(origin.source.lastIndexOf('/') + 1);
  const scenario = origin.scenario === undefined ? '' : ` (Scenario ${visibleText(origin.scenario)})`;
  return `from the cluster file ${visibleText(file)}${scenario}`;
}

function describeStep(step: ScenarioStepDetails, name: string, kind: string): string {
  const subject = visibleText(name);
  switch (step.action) {
    case 'drain':
      return `drain ${subject}`;
    case 'failNode':
      return `fail ${subject}`;
    case 'addNode':
      return `add ${subject}`;
    case 'memoryPressure':
      return `memory pressure on ${subject}`;
    case 'scale':
      return `scale ${kind} ${subject}`;
    case 'load':
      return `load on ${kind} ${subject}`;
  }
}
