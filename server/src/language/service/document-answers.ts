/**
 * The answers to the editor's requests on an analysed document that join the schema assist and the predictions:
 * the hover (prediction first, then the schema's description), the code lenses above each workload, and the code
 * actions offered where the cursor is without a diagnostic (requests equal to limits in a Burstable template).
 */
import type { CodeAction, CodeLens, Hover } from 'vscode-languageserver';
import { CodeActionKind, MarkupKind } from 'vscode-languageserver';
import { hoverAt } from '../assist/hover';
import type { FixData } from '../../../../protocol/finding';
import { toRange } from '../assist/locate';
import { guaranteedFix } from '../predictions/template-fixes';
import { valueAt } from '../rules/rule-support';
import { nodeRange } from '../yaml/node-at-path';
import type { DocumentState } from './document-state';
import { yamlPlaceAt, predictionHover, startsWith, workloadsOf } from './prediction-hover';
import type { Prediction } from './prediction-types';
import type { OverlayLens } from './workload-lenses';
import { workloadLenses } from './workload-lenses';

/** The command the Replay lens runs (the timeline panel). */
const REPLAY_COMMAND = 'kubeForesight.showTimeline';

/**
 * The hover at an offset: the prediction's Markdown and the schema's, separated by a rule. For a file judged
 * through kustomize renders (`throughRenders`, their lenses on its lines), the prediction is the renders', as its
 * lenses are: its folder's simulates the file as written.
 */
export function hoverAnswer(
  state: DocumentState,
  offset: number,
  prediction: Prediction | undefined,
  throughRenders?: readonly OverlayLens[],
): Hover | null {
  const result = hoverAt(state.analysis, state.lines, offset, state.context.store);
  const predicted =
    throughRenders !== undefined
      ? renderHover(state, offset, throughRenders)
      : prediction === undefined
        ? undefined
        : predictionHover(prediction, state, offset);
  const parts = [predicted, result?.markdown].filter((part) => part !== undefined);
  if (parts.length === 0) {
    return null;
  }
  const value = parts.join('\n\n---\n\n');
  return result === undefined
    ? { contents: { kind: MarkupKind.Markdown, value } }
    : { contents: { kind: MarkupKind.Markdown, value }, range: result.range };
}

/** The fixes the predictions offer at an offset, as code actions editing the document. */
export function templateCodeActions(
  state: DocumentState,
  offset: number,
  prediction: Prediction | undefined,
): CodeAction[] {
  return templateFixes(state, offset, prediction).map((fix) => ({
    title: fix.title ?? 'Apply',
    kind: CodeActionKind.QuickFix,
    edit: {
      changes: {
        [state.uri]: (fix.edits ?? []).map((edit) => ({
          range: { start: state.lines.positionAt(edit.start), end: state.lines.positionAt(edit.end) },
          newText: edit.newText,
        })),
      },
    },
  }));
}

/**
 * Code lenses above each workload of a document: replicas scheduled, QoS class, Replay. A file kustomize renders
 * include is judged through their renders (`throughRenders`, the overlays' lenses on its lines): their lenses
 * replace those of its folder's prediction, which simulates the file as written, not as `kubectl apply -k` applies
 * it (a base Deployment with no selector of its own runs only through its overlay's render).
 */
export function codeLensesOf(
  state: DocumentState,
  prediction: Prediction | undefined,
  throughRenders?: readonly OverlayLens[],
): CodeLens[] {
  if (throughRenders !== undefined) {
    return renderLenses(state, throughRenders);
  }
  if (prediction === undefined) {
    return [];
  }
  return workloadLenses(prediction, state.analysis, state.uri).flatMap((lens) => {
    const range = toRange(state.lines, lens.start, lens.start);
    return [
      { range, command: { title: lens.title, command: '' } },
      { range, command: { title: 'Replay', command: REPLAY_COMMAND, arguments: [state.uri, lens.workload] } },
    ];
  });
}

/**
 * The renders' hover on a workload's kind or name: that of the lenses on the workload's first line, once when the
 * renders agree, else each under the name of its overlay.
 */
function renderHover(
  state: DocumentState,
  offset: number,
  lenses: readonly OverlayLens[],
): string | undefined {
  const found = yamlPlaceAt(state, offset);
  if (found === undefined) {
    return undefined;
  }
  const { document } = found;
  const { path } = found.location;
  for (const object of document.objects) {
    const relative = startsWith(path, object.path) ? path.slice(object.path.length).join('.') : undefined;
    const range = nodeRange(object.node);
    if ((relative !== 'kind' && relative !== 'metadata.name') || range === undefined) {
      continue;
    }
    const line = state.lines.positionAt(range[0] + document.offset).line;
    const here = lenses.filter((lens) => lens.line === line);
    const hovers = new Set(here.map((lens) => lens.hover));
    if (hovers.size === 1) {
      return [...hovers][0];
    }
    if (hovers.size > 1) {
      return here.map((lens) => `**overlay \`${lens.label}\`**\n\n${lens.hover}`).join('\n\n---\n\n');
    }
  }
  return undefined;
}

/**
 * The renders' lenses on a file's lines: at each line, the summary once when every overlay giving one there says
 * the same, else one per overlay named by it; a Replay per overlay, opening the timeline of its render.
 */
function renderLenses(state: DocumentState, lenses: readonly OverlayLens[]): CodeLens[] {
  const byLine = new Map<number, OverlayLens[]>();
  for (const lens of lenses) {
    // A render made before the latest keystroke may name a line the text no longer has: none is shown there.
    if (lens.line < state.lines.lineCount) {
      byLine.set(lens.line, [...(byLine.get(lens.line) ?? []), lens]);
    }
  }
  const result: CodeLens[] = [];
  for (const [line, here] of [...byLine].sort(([a], [b]) => a - b)) {
    const range = {
      start: { line, character: here[0]?.character ?? 0 },
      end: { line, character: here[0]?.character ?? 0 },
    };
    const titles = new Set(here.map((lens) => lens.title));
    const isMany = new Set(here.map((lens) => lens.label)).size > 1;
    const summaries =
      titles.size === 1 ? [[...titles][0] ?? ''] : here.map((lens) => `${lens.label}: ${lens.title}`);
    for (const title of new Set(summaries)) {
      result.push({ range, command: { title, command: '' } });
    }
    for (const lens of here) {
      result.push({
        range,
        command: {
          title: isMany ? `Replay ${lens.label}` : 'Replay',
          command: REPLAY_COMMAND,
          arguments: [lens.replayUri, lens.workload],
        },
      });
    }
  }
  return result;
}

/**
 * The fixes offered at an offset without a diagnostic: inside the pod template of a Burstable workload whose
 * containers all have cpu and memory limits, "Set requests equal to limits" (Guaranteed).
 */
function templateFixes(state: DocumentState, offset: number, prediction: Prediction | undefined): FixData[] {
  const found = yamlPlaceAt(state, offset);
  if (prediction === undefined || found === undefined) {
    return [];
  }
  const { document, root } = found;
  const { path } = found.location;
  const fixes: FixData[] = [];
  for (const workload of workloadsOf(prediction, state.uri, document.index)) {
    if (workload.qosClass !== 'Burstable' || !startsWith(path, [...workload.source.path, 'spec'])) {
      continue;
    }
    const fix = guaranteedFix({
      root,
      path: workload.source.path,
      value: valueAt(document.yaml.value, workload.source.path),
      text: state.text,
      offset: document.offset,
    });
    if (fix !== undefined) {
      fixes.push(fix);
    }
  }
  return fixes;
}
