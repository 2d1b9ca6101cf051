/**
 * The selected pod: who owns it, its phase and node at the playhead, its scheduling explanation (kube-scheduler's
 * FitError message and each node's reasons when nothing fits; each node's filter outcome and scores when the
 * simulation recorded them), its history (click to jump), and a button that reveals its manifest in the editor.
 */
import type { PanelClaim, PanelPod } from '../../protocol/webview-messages';
import { h, icon, replaceChildren } from '../dom';
import { formatTime, visibleText } from '../format';
import type { ClusterState } from '../model/cluster-state';
import { phaseName } from '../model/phases';
import type { PodEntry, Timeline } from '../model/timeline';
import { explanationTables } from './explanation';
import { appendAll } from '../../protocol/collections';

/** What the details ask of the page. */
interface DetailsActions {
  jumpToEvent(event: number): void;
  revealPod(pod: PodEntry): void;
  clearSelection(): void;
}

/** The pod details. */
export class PodDetailsView {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private signature = '';

  constructor(private readonly actions: DetailsActions) {
    this.body = h('div', { className: 'details-body' });
    this.element = h(
      'section',
      { className: 'details', attrs: { 'aria-label': 'Pod details', 'aria-live': 'polite' } },
      this.body,
    );
    this.showHint();
  }

  /** Shows the selected pod at the playhead (rebuilt only when the pod or its state changes). */
  update(timeline: Timeline | null, state: ClusterState | null, selected: number): void {
    const pod = selected >= 0 ? timeline?.pods[selected] : undefined;
    if (timeline === null || state === null || pod === undefined) {
      if (this.signature !== 'hint') {
        this.signature = 'hint';
        this.showHint();
      }
      return;
    }
    const phase = state.podPhase[selected] ?? 0;
    const node = state.podNode[selected] ?? -1;
    const unschedulable = state.podUnschedulable[selected] ?? -1;
    const applied = pod.events.filter((index) => index < state.cursor).length;
    const signature = `${selected}|${phase}|${node}|${unschedulable}|${applied}`;
    if (signature === this.signature) {
      return;
    }
    this.signature = signature;
    const phaseText = phaseName(phase) ?? 'Not created yet';
    const nodeName = node >= 0 ? (timeline.nodes[node]?.name ?? '') : null;
    const report = pod.report;
    const reveal = h('button', {
      className: 'link-button',
      attrs: { type: 'button', 'aria-label': `Reveal the manifest of ${visibleText(pod.name)}` },
    });
    reveal.append(icon('reveal'), document.createTextNode('Reveal manifest'));
    reveal.disabled = report?.location === undefined;
    reveal.addEventListener('click', () => this.actions.revealPod(pod));
    const close = h('button', {
      className: 'link-button',
      text: 'Close',
      attrs: { type: 'button', 'aria-label': 'Close pod details' },
    });
    close.addEventListener('click', () => this.actions.clearSelection());
    const facts = h(
      'dl',
      { className: 'facts' },
      ...fact('Namespace', visibleText(pod.namespace)),
      ...fact(
        'Owner',
        pod.owner === null
          ? 'none (bare pod)'
          : `${visibleText(pod.owner.kind)}/${visibleText(pod.owner.name)}`,
      ),
      ...(pod.revision === null ? [] : fact('Revision', `${pod.revision} ReplicaSet`)),
      ...(report === null
        ? []
        : [...fact('QoS class', visibleText(report.qosClass)), ...fact('Priority', String(report.priority))]),
      ...fact('Phase', phaseText),
      ...fact('Node', nodeName === null ? 'not bound' : visibleText(nodeName)),
    );
    const sections: Node[] = [
      h(
        'div',
        { className: 'details-head' },
        h('h2', { className: 'pod-name', text: visibleText(pod.name) }),
        reveal,
        close,
      ),
      facts,
    ];
    const atPlayhead = unschedulable >= 0 ? timeline.events[unschedulable] : undefined;
    if (atPlayhead !== undefined) {
      sections.push(
        h('h3', { text: `Unschedulable at ${formatTime(timeline.times[unschedulable] ?? 0)}` }),
        h('p', { className: 'fit-error', text: visibleText(atPlayhead.message) }),
      );
    }
    if (report?.waiting !== undefined) {
      sections.push(
        h('h3', { text: `Never starts: ${visibleText(report.waiting.reason)}` }),
        h('p', { className: 'fit-error', text: visibleText(report.waiting.message) }),
      );
    }
    appendAll(sections, claimsSection(report, timeline.report.persistentVolumeClaims ?? []));
    appendAll(sections, schedulingSection(report, atPlayhead?.message ?? ''));
    sections.push(this.history(timeline, pod, state.cursor));
    replaceChildren(this.body, ...sections);
  }

  private history(timeline: Timeline, pod: PodEntry, cursor: number): HTMLElement {
    const items = pod.events.map((index) => {
      const event = timeline.events[index];
      const button = h(
        'button',
        {
          className: `history-item${index < cursor ? '' : ' is-future'}${index === cursor - 1 ? ' is-current' : ''}`,
          attrs: { type: 'button' },
          dataset: { event: String(index) },
        },
        h('span', { className: 'event-time', text: formatTime(timeline.times[index] ?? 0) }),
        h('span', { className: 'event-type', text: event?.type ?? '' }),
        h('span', { className: 'event-text', text: visibleText(event?.message ?? '') }),
      );
      button.addEventListener('click', () => this.actions.jumpToEvent(index));
      return h('li', {}, button);
    });
    return h(
      'div',
      {},
      h('h3', { text: 'History' }),
      items.length === 0
        ? h('p', { className: 'muted', text: 'No events about this pod.' })
        : h('ol', { className: 'history' }, ...items),
    );
  }

  private showHint(): void {
    replaceChildren(
      this.body,
      h('p', {
        className: 'muted',
        text: 'Select a pod to see why it landed where it did, or why it fits nowhere.',
      }),
    );
  }
}

function fact(term: string, value: string): HTMLElement[] {
  return [h('dt', { text: term }), h('dd', { text: value })];
}

/** The claims the pod's volumes use, with where each binds at the end of the simulation. */
function claimsSection(report: PanelPod | null, claims: readonly PanelClaim[]): Node[] {
  const names = report?.claims ?? [];
  if (report === null || names.length === 0) {
    return [];
  }
  const items = names.map((name) => {
    const claim = claims.find((entry) => entry.namespace === report.namespace && entry.name === name);
    const where =
      claim === undefined
        ? 'not in the simulation (assumed to exist)'
        : claim.volumeName === null
          ? `${claim.phase}`
          : `${claim.phase} to ${claim.volumeName}${claim.zone === null ? '' : ` in ${claim.zone}`}`;
    return h('li', { text: `${visibleText(name)}: ${visibleText(where)}` });
  });
  return [h('h3', { text: 'Volume claims' }), h('ul', { className: 'claims' }, ...items)];
}

/** The report's outcome for the pod; its FitError message is left out when the playhead already shows it. */
function schedulingSection(report: PanelPod | null, shownMessage: string): Node[] {
  if (report === null) {
    return [
      h('h3', { text: 'Scheduling' }),
      h('p', {
        className: 'muted',
        text: 'The report has no scheduling record of this pod: it was gone before the end (replaced, evicted or deleted), or it was not made by the manifests.',
      }),
    ];
  }
  const nodes: Node[] = [h('h3', { text: 'Scheduling' })];
  if (report.unschedulable !== null && !shownMessage.startsWith(report.unschedulable.message)) {
    nodes.push(h('p', { className: 'fit-error', text: visibleText(report.unschedulable.message) }));
  } else if (report.nodeName !== null) {
    const ties = report.tiedNodes.filter((name) => name !== report.nodeName);
    const tieText =
      ties.length === 0
        ? ''
        : ` Tied with ${ties.map(visibleText).join(', ')}: kube-scheduler picks one of the best-scoring nodes at random; the simulation takes the first.`;
    nodes.push(h('p', { text: `Bound to ${visibleText(report.nodeName)}.${tieText}` }));
  }
  if (report.preempted.length > 0) {
    nodes.push(h('p', { text: `Preempted: ${report.preempted.map(visibleText).join(', ')}` }));
  }
  appendAll(nodes, explanationTables(report));
  return nodes;
}
