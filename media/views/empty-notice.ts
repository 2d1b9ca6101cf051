/**
 * Why a timeline shows none of the folder's pods, in the cluster area: the report's pods are the manifests' pods,
 * so none means nothing of the folder runs. The report says why, in this order: objects the API server refused
 * (a removed apiVersion, an admission plugin), documents left out for an error it would refuse (a kustomize base
 * judged without its overlay's selector), a kustomize base whose workloads' selector an overlay supplies (they run
 * only through its render), or manifests that create no pod at all (Services, ConfigMaps…). When
 * the manifests run pods, it names only the documents left out, if any, and that a kustomize base is replayed as
 * written. A base's notice offers the timelines of the overlays that include it (the report's `includedBy`):
 * a kustomization folder's timeline replays its render, as kubectl apply -k applies it.
 */
import type { PanelOverlay, PanelReport } from '../../protocol/webview-messages';
import { h, replaceChildren, toggleClass } from '../dom';
import { visibleText } from '../format';

/** The most refusals or left-out documents listed; the heading counts them all. */
const MAX_LISTED = 5;

/** The notice. */
export class EmptyNotice {
  readonly element: HTMLElement;

  /** `openOverlay` replays the overlay at this position of the report's `includedBy` instead. */
  constructor(private readonly openOverlay: (index: number) => void) {
    this.element = h('section', {
      className: 'empty-notice is-hidden',
      attrs: { role: 'status', 'aria-label': 'Why the timeline is empty' },
    });
  }

  /** Explains a report that runs none of the folder's pods; hides itself otherwise. */
  setReport(report: PanelReport, folder: string): void {
    const reason = explainEmpty(report, visibleText(folder));
    toggleClass(this.element, 'is-hidden', reason === null);
    if (reason === null) {
      replaceChildren(this.element);
      return;
    }
    const items = reason.items.slice(0, MAX_LISTED).map((item) => h('li', { text: item }));
    if (reason.items.length > MAX_LISTED) {
      items.push(h('li', { className: 'muted', text: `and ${reason.items.length - MAX_LISTED} more` }));
    }
    const overlays = (reason.overlays ?? []).map((overlay, index) => {
      const button = h('button', {
        className: 'link-button',
        text: `Open the timeline of ${visibleText(overlay.label)}`,
        attrs: { type: 'button' },
      });
      button.addEventListener('click', () => this.openOverlay(index));
      return button;
    });
    // The overlays' buttons come right under the title: in a half-width panel the explanation scrolls, and the
    // way to the render's timeline must not be below it.
    replaceChildren(
      this.element,
      h('h2', { className: 'empty-title', text: reason.title }),
      ...(overlays.length === 0 ? [] : [h('div', { className: 'empty-overlays' }, ...overlays)]),
      ...(reason.detail === '' ? [] : [h('p', { text: reason.detail })]),
      ...(items.length === 0 ? [] : [h('ul', {}, ...items)]),
    );
  }
}

/**
 * Why nothing of the folder runs; or, when its manifests run pods, which documents were left out (if any); null
 * when there is nothing to say.
 */
export function explainEmpty(
  report: PanelReport,
  folder: string,
): { title: string; detail: string; items: string[]; overlays?: readonly PanelOverlay[] } | null {
  const rejected = report.rejected ?? [];
  const leftOut = report.leftOut ?? [];
  const overlays = report.includedBy ?? [];
  if (report.pods.length > 0) {
    if (leftOut.length > 0) {
      return {
        title: `${plural(leftOut.length, 'document')} of ${folder} with an error ${leftOut.length === 1 ? 'is' : 'are'} left out`,
        detail: '',
        items: leftOutItems(leftOut),
        overlays,
      };
    }
    return overlays.length === 0
      ? null
      : {
          title: `${folder} is a kustomize base, replayed as it is written`,
          detail: `kubectl apply -k applies it only through ${overlays.length === 1 ? 'the kustomization that includes' : 'the kustomizations that include'} it, whose render may change its names, namespaces and replicas. ${overlays.length === 1 ? 'Its timeline replays' : 'Their timelines replay'} what kubectl apply -k applies.`,
          items: [],
          overlays,
        };
  }
  const others = 'The lanes show the cluster’s own pods only.';
  if (rejected.length > 0) {
    return {
      title: `Nothing of ${folder} runs: the API server refuses ${plural(rejected.length, 'object')}`,
      detail: `kubectl apply would fail ${rejected.length === 1 ? 'it' : 'them'}, so no pod is created. ${others}`,
      items: rejected.map((entry) => {
        const name = `${entry.namespace === undefined ? '' : `${entry.namespace}/`}${entry.name}`;
        const by = entry.plugin === '' ? entry.stage : entry.plugin;
        return visibleText(`${entry.kind} ${name} (${by}): ${firstLine(entry.message)}`);
      }),
    };
  }
  const fromOverlay = report.selectorFromOverlay ?? [];
  // Where the render is replayed: the overlays' timelines when the report names them, else the command line.
  const replayed =
    overlays.length === 0
      ? 'foresight simulate OVERLAY-FOLDER replays the render'
      : `the timeline of ${overlays.length === 1 ? 'the kustomization that includes it replays its render' : 'each kustomization that includes it replays its render'}`;
  if (leftOut.length === 0 && fromOverlay.length > 0) {
    return {
      title: `Nothing of ${folder} runs as it is written: it is a kustomize base`,
      detail: `A kustomization that includes ${fromOverlay.length === 1 ? 'this file' : 'these files'} supplies the selector of ${fromOverlay.length === 1 ? 'its workloads' : 'their workloads'} (labels with includeSelectors), so they run only through its render, as kubectl apply -k applies them. A base is replayed as written, not as a render: the render’s predictions are the diagnostics on these files, and ${replayed}. ${others}`,
      items: fromOverlay.map((file) => visibleText(file.slice(file.lastIndexOf('/') + 1))),
      overlays,
    };
  }
  if (leftOut.length > 0) {
    return {
      title: `Nothing of ${folder} runs: ${plural(leftOut.length, 'document')} with an error ${leftOut.length === 1 ? 'is' : 'are'} left out`,
      detail: `The API server would refuse ${leftOut.length === 1 ? 'it' : 'them'}. A kustomize base is applied through its overlay, which may supply what it lacks (a selector, a namespace); a base is replayed as written, not as a render: ${replayed}. ${others}`,
      items: leftOutItems(leftOut),
      overlays,
    };
  }
  return {
    title: `Nothing of ${folder} runs: its manifests create no pod`,
    detail: `No workload (Deployment, StatefulSet, DaemonSet, Job, CronJob, Pod…) is among them. ${others}`,
    items: [],
  };
}

function leftOutItems(leftOut: NonNullable<PanelReport['leftOut']>): string[] {
  return leftOut.map((entry) =>
    visibleText(`${entry.file.slice(entry.file.lastIndexOf('/') + 1)}:${entry.line}: ${entry.message}`),
  );
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end);
}
