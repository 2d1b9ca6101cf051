/**
 * The panel's header: its title with the folder's name, the report's facts (Kubernetes version, cluster, counts)
 * on a line of their own that wraps between facts rather than cutting them (first, "kustomize render" when the
 * folder is a kustomization replayed as its render), and the "Simulate again" button.
 */
import type { PanelFolder } from '../../protocol/webview-messages';
import { h, iconButton, replaceChildren, setText } from '../dom';
import { visibleText } from '../format';
import type { Timeline } from '../model/timeline';

/** The header. */
export class HeaderView {
  readonly element: HTMLElement;
  private readonly folder = h('span', { className: 'folder-name' });
  private readonly meta = h('div', { className: 'meta' });

  constructor(reload: () => void) {
    const button = iconButton('refresh', 'Simulate again');
    button.addEventListener('click', reload);
    this.element = h(
      'header',
      { className: 'top' },
      h('h1', { className: 'title' }, h('span', { text: 'Simulation timeline' }), this.folder),
      this.meta,
      button,
    );
  }

  /** Shows a folder's timeline: its name and the report's facts, each fact whole (with a tooltip). */
  show(folder: PanelFolder, timeline: Timeline): void {
    setText(this.folder, ` · ${visibleText(folder.name)}`);
    const report = timeline.report;
    replaceChildren(
      this.meta,
      ...[
        // A kustomization folder is replayed as its render (kubectl apply -k), not as its files read.
        ...(report.renderOf === undefined ? [] : ['kustomize render']),
        `Kubernetes ${visibleText(report.kubernetesVersion)}`,
        visibleText(report.cluster.source),
        `${timeline.nodes.length} nodes`,
        `${timeline.pods.length} pods`,
        `${timeline.events.length} events`,
      ].map((text) => h('span', { className: 'meta-item', text, attrs: { title: text } })),
    );
  }
}
