/**
 * The answers to the editor's requests on an analysed document that join the schema assist and the predictions:
 * the hover (prediction first, then the schema's description) and the code actions offered where the cursor is
 * without a diagnostic (requests equal to limits in a Burstable template).
 */
import type { CodeAction, Hover } from 'vscode-languageserver';
import { CodeActionKind, MarkupKind } from 'vscode-languageserver';
import { hoverAt } from '../language/assist/hover';
import type { DocumentState } from './document-analyses';
import type { PredictionsHost } from './predictions-host';

/** The hover at an offset: the prediction's Markdown and the schema's, separated by a rule. */
export function hoverAnswer(
  state: DocumentState,
  offset: number,
  predictions: PredictionsHost,
): Hover | null {
  const result = hoverAt(state.analysis, state.lines, offset, state.context.store);
  const prediction = predictions.hover(state, offset);
  const parts = [prediction, result?.markdown].filter((part) => part !== undefined);
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
  predictions: PredictionsHost,
): CodeAction[] {
  return predictions.templateFixes(state, offset).map((fix) => ({
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
