/**
 * The answers to the editor's requests on an analysed document that join the schema assist and the predictions:
 * the hover (prediction first, then the schema's description), the code lenses above each workload, and the code
 * actions offered where the cursor is without a diagnostic (requests equal to limits in a Burstable template).
 */
import type { CodeAction, CodeLens, Hover } from 'vscode-languageserver';
import { CodeActionKind, MarkupKind } from 'vscode-languageserver';
import type { Node } from 'yaml';
import { hoverAt } from '../assist/hover';
import type { FixData } from '../../../../protocol/finding';
import { toRange } from '../assist/locate';
import { summaryLensTitle } from '../predictions/code-lenses';
import { guaranteedFix } from '../predictions/template-fixes';
import { valueAt } from '../rules/rule-support';
import { nodeRange, pathAtOffset } from '../yaml/node-at-path';
import type { DocumentState } from './document-state';
import { objectPathLength, predictionHover, startsWith, workloadsOf } from './prediction-hover';
import type { Prediction } from './prediction-types';

/** The command the Replay lens runs (the timeline panel). */
const REPLAY_COMMAND = 'kubeForesight.showTimeline';

/** The hover at an offset: the prediction's Markdown and the schema's, separated by a rule. */
export function hoverAnswer(
  state: DocumentState,
  offset: number,
  prediction: Prediction | undefined,
): Hover | null {
  const result = hoverAt(state.analysis, state.lines, offset, state.context.store);
  const predicted = prediction === undefined ? undefined : predictionHover(prediction, state, offset);
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

/** Code lenses above each workload of a document: replicas scheduled, QoS class, Replay. */
export function codeLensesOf(state: DocumentState, prediction: Prediction | undefined): CodeLens[] {
  if (prediction === undefined) {
    return [];
  }
  const lenses: CodeLens[] = [];
  for (const document of state.analysis.documents) {
    for (const workload of workloadsOf(prediction, state.uri, document.index)) {
      const object = document.objects.find(
        (o) =>
          startsWith(workload.source.path, o.path) &&
          o.path.length === objectPathLength(workload.source.path),
      );
      const range = nodeRange(object?.node);
      if (range === undefined) {
        continue;
      }
      const lensRange = toRange(state.lines, range[0] + document.offset, range[0] + document.offset);
      const rollout = prediction.simulation?.report.rollouts?.find(
        (r) => r.kind === workload.kind && r.namespace === workload.namespace && r.name === workload.name,
      );
      // A controller's pods the API server refused (rejected[] names the template's document).
      const refusal = prediction.simulation?.report.rejected.find(
        (entry) =>
          entry.owner !== undefined &&
          entry.file === workload.source.file &&
          entry.documentIndex === workload.source.documentIndex,
      );
      const refusedBy = refusal === undefined ? undefined : refusal.plugin || refusal.stage;
      lenses.push({
        range: lensRange,
        command: {
          title: summaryLensTitle(workload, rollout, refusedBy, prediction.simulation?.report.autoscaler),
          command: '',
        },
      });
      lenses.push({
        range: lensRange,
        command: {
          title: 'Replay',
          command: REPLAY_COMMAND,
          arguments: [state.uri, { kind: workload.kind, namespace: workload.namespace, name: workload.name }],
        },
      });
    }
  }
  return lenses;
}

/**
 * The fixes offered at an offset without a diagnostic: inside the pod template of a Burstable workload whose
 * containers all have cpu and memory limits, "Set requests equal to limits" (Guaranteed).
 */
function templateFixes(state: DocumentState, offset: number, prediction: Prediction | undefined): FixData[] {
  const document = state.analysis.documents.find(
    (d) => offset >= d.offset && offset <= d.offset + d.yaml.end,
  );
  if (prediction === undefined || document === undefined) {
    return [];
  }
  const root = (document.yaml.document?.contents ?? undefined) as Node | undefined;
  const { path } = pathAtOffset(root, offset - document.offset);
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
