/**
 * Findings → LSP diagnostics and quick fixes. Offsets become line/character positions only here.
 */
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import { CodeActionKind, DiagnosticSeverity, Range as LspRange, TextEdit } from 'vscode-languageserver-types';
import { FINDING_CODES } from '../../../../protocol/finding-codes';
import type { FindingSeverity } from '../../../../protocol/finding';
import type { TextFinding } from '../findings';
import type { LineIndex } from '../text/line-index';
import { toRange } from '../assist/locate';

/** The source name on every diagnostic of the extension. */
const DIAGNOSTIC_SOURCE = 'kube-foresight';

const SEVERITIES: Record<FindingSeverity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
};

/**
 * One diagnostic per finding, with our source, the code and the fix data for code actions; its related places in
 * the same text become related information when the document's URI is given.
 */
export function toDiagnostic(finding: TextFinding, lines: LineIndex, uri?: string): Diagnostic {
  const diagnostic: Diagnostic = {
    range: toRange(lines, finding.start, finding.end),
    severity: SEVERITIES[finding.severity],
    source: DIAGNOSTIC_SOURCE,
    code: finding.code,
    message: finding.message,
  };
  const related =
    uri === undefined
      ? []
      : (finding.related ?? []).flatMap((entry) =>
          entry.start === undefined || entry.end === undefined
            ? []
            : [{ location: { uri, range: toRange(lines, entry.start, entry.end) }, message: entry.message }],
        );
  if (related.length > 0) {
    diagnostic.relatedInformation = related;
  }
  if (finding.fix !== undefined) {
    const { edits, ...rest } = finding.fix;
    diagnostic.data = {
      fix:
        edits === undefined
          ? rest
          : {
              ...rest,
              edits: edits.map((edit) => ({
                range: toRange(lines, edit.start, edit.end),
                newText: edit.newText,
              })),
            },
    };
  }
  return diagnostic;
}

/** The quick fixes carried by our diagnostics (those with fix data), for a code action request. */
export function quickFixesFor(uri: string, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== DIAGNOSTIC_SOURCE || typeof diagnostic.code !== 'string') {
      continue;
    }
    if (!(diagnostic.code in FINDING_CODES)) {
      continue;
    }
    const fix = readFix(diagnostic.data);
    if (fix === undefined) {
      continue;
    }
    const edits =
      fix.edits ??
      (fix.replacement === undefined ? [] : [TextEdit.replace(diagnostic.range, fix.replacement)]);
    if (edits.length === 0) {
      continue;
    }
    actions.push({
      title: fix.title ?? `Replace with ${fix.replacement ?? ''}`,
      kind: CodeActionKind.QuickFix,
      diagnostics: [diagnostic],
      isPreferred: true,
      edit: { changes: { [uri]: edits } },
    });
    for (const alternative of fix.alternatives) {
      actions.push({
        title: alternative.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        edit: { changes: { [uri]: [TextEdit.replace(diagnostic.range, alternative.replacement)] } },
      });
    }
  }
  return actions;
}

/** A quick fix as carried in a diagnostic's data (untrusted: the client sends it back). */
interface WireFix {
  readonly replacement?: string;
  readonly edits?: TextEdit[];
  readonly title?: string;
  readonly alternatives: readonly { readonly replacement: string; readonly title: string }[];
}

function readFix(data: unknown): WireFix | undefined {
  if (typeof data !== 'object' || data === null) {
    return undefined;
  }
  const fix = (data as { fix?: unknown }).fix;
  if (typeof fix !== 'object' || fix === null) {
    return undefined;
  }
  const { replacement, title, edits, alternatives } = fix as {
    replacement?: unknown;
    title?: unknown;
    edits?: unknown;
    alternatives?: unknown;
  };
  const validEdits = Array.isArray(edits) ? edits.filter(isTextEdit) : undefined;
  if (typeof replacement !== 'string' && (validEdits === undefined || validEdits.length === 0)) {
    return undefined;
  }
  return {
    ...(typeof replacement === 'string' ? { replacement } : {}),
    ...(validEdits === undefined ? {} : { edits: validEdits }),
    ...(typeof title === 'string' ? { title } : {}),
    alternatives: Array.isArray(alternatives) ? alternatives.filter(isAlternative) : [],
  };
}

function isAlternative(value: unknown): value is { replacement: string; title: string } {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const { replacement, title } = value as { replacement?: unknown; title?: unknown };
  return typeof replacement === 'string' && typeof title === 'string';
}

function isTextEdit(value: unknown): value is TextEdit {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const { range, newText } = value as { range?: unknown; newText?: unknown };
  return typeof newText === 'string' && LspRange.is(range);
}
