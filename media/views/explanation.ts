/**
 * A pod's scheduling explanation as tables: each node's filter outcome (passed, or the plugin that rejected it
 * and its reasons) with its total score, then the score of each plugin on the best nodes. When only a FitError
 * is known, each node's reasons and how many nodes each plugin rejected. Long node lists are cut at MAX_NODES.
 */
import type { PanelPod } from '../../protocol/webview-messages';
import { h } from '../dom';
import { visibleText } from '../format';

const MAX_NODES = 60;
const SCORED_COLUMNS = 3;

/** The tables explaining a pod's scheduling, or nothing when the report has no per-node data. */
export function explanationTables(pod: PanelPod): HTMLElement[] {
  const explanation = pod.explanation;
  if (explanation !== undefined && explanation.nodes.length > 0) {
    const ordered = [...explanation.nodes].sort(
      (a, b) => rank(pod, b) - rank(pod, a) || (b.total ?? -1) - (a.total ?? -1),
    );
    const rows = ordered.slice(0, MAX_NODES).map((outcome) => {
      const isChosen = outcome.node === pod.nodeName;
      const verdict =
        outcome.rejectedBy === null
          ? 'passed'
          : `${visibleText(outcome.rejectedBy.plugin)}: ${outcome.rejectedBy.reasons.map(visibleText).join(', ')}`;
      return h(
        'tr',
        { className: `${isChosen ? 'is-chosen' : ''}${outcome.rejectedBy === null ? '' : ' is-rejected'}` },
        h('th', { text: `${visibleText(outcome.node)}${isChosen ? ' ✓' : ''}`, attrs: { scope: 'row' } }),
        h('td', { text: verdict }),
        h('td', { className: 'number', text: outcome.total === null ? '–' : String(outcome.total) }),
      );
    });
    const tables = [
      table(['Node', 'Filters', 'Score'], rows, 'Each node: filter outcome and total score', ordered.length),
    ];
    const scored = ordered.filter((outcome) => outcome.scores !== null).slice(0, SCORED_COLUMNS);
    if (scored.length > 0 && explanation.scorePlugins.length > 0) {
      const scoreRows = explanation.scorePlugins.map((plugin, column) =>
        h(
          'tr',
          {},
          h('th', { text: visibleText(plugin), attrs: { scope: 'row' } }),
          ...scored.map((outcome) =>
            h('td', { className: 'number', text: String(outcome.scores?.[column] ?? '–') }),
          ),
        ),
      );
      tables.push(
        table(
          ['Score plugin', ...scored.map((outcome) => visibleText(outcome.node))],
          scoreRows,
          'Weighted score of each plugin on the best nodes',
          explanation.scorePlugins.length,
        ),
      );
    }
    return tables;
  }
  const unschedulable = pod.unschedulable;
  if (unschedulable === null) {
    return [];
  }
  const entries = Object.entries(unschedulable.nodes);
  const rows = entries
    .slice(0, MAX_NODES)
    .map(([node, reasons]) =>
      h(
        'tr',
        { className: 'is-rejected' },
        h('th', { text: visibleText(node), attrs: { scope: 'row' } }),
        h('td', { text: reasons.map(visibleText).join(', ') }),
      ),
    );
  const plugins = Object.entries(unschedulable.plugins).map(([plugin, count]) =>
    h(
      'tr',
      {},
      h('th', { text: visibleText(plugin), attrs: { scope: 'row' } }),
      h('td', { className: 'number', text: String(count) }),
    ),
  );
  const tables = [table(['Node', 'Reasons'], rows, 'Why each node was rejected', entries.length)];
  if (plugins.length > 0) {
    tables.push(
      table(
        ['Filter plugin', 'Nodes rejected'],
        plugins,
        'Nodes rejected by each filter plugin',
        plugins.length,
      ),
    );
  }
  return tables;
}

/** Chosen node first, then feasible nodes, then rejected ones. */
function rank(pod: PanelPod, outcome: { readonly node: string; readonly rejectedBy: unknown }): number {
  return outcome.node === pod.nodeName ? 2 : outcome.rejectedBy === null ? 1 : 0;
}

function table(
  headers: readonly string[],
  rows: readonly HTMLElement[],
  caption: string,
  total: number,
): HTMLElement {
  const head = h('tr', {}, ...headers.map((text) => h('th', { text, attrs: { scope: 'col' } })));
  const body = h('tbody', {}, ...rows);
  const element = h(
    'table',
    { className: 'explain' },
    h('caption', { text: caption }),
    h('thead', {}, head),
    body,
  );
  if (total > rows.length) {
    return h('div', {}, element, h('p', { className: 'muted', text: `… and ${total - rows.length} more` }));
  }
  return element;
}
