/**
 * The analyzer's findings: the one Finding (protocol/finding.ts), located by offsets in the text the language
 * layer analysed, before the language service places them on a file's lines. The severity comes from the code,
 * in one table (protocol/finding-codes.ts).
 */

import { FINDING_CODES } from '../../../protocol/finding-codes';
import type { FindingCode } from '../../../protocol/finding-codes';
import type { Finding, FindingSeverity, FixData } from '../../../protocol/finding';

/** A stable finding code (protocol/finding-codes.ts). */
export type DiagnosticCode = FindingCode;

/**
 * A finding made from a text: its offsets are always set (the analyzer, the rules, the predictions placed on an
 * analysis, a kustomize render). The second finding type the product names, and only a narrowing of the first:
 * the code that sorts, shifts and places these relies on the offsets being there.
 */
export type TextFinding = Finding & { readonly start: number; readonly end: number };

/** The severity of a code. */
export function severityOf(code: FindingCode): FindingSeverity {
  return FINDING_CODES[code];
}

/** A finding at offsets of the analysed text, with the severity of its code. */
export function textFinding(
  code: FindingCode,
  message: string,
  start: number,
  end: number,
  fix?: FixData,
): TextFinding {
  return fix === undefined
    ? { code, severity: FINDING_CODES[code], message, start, end }
    : { code, severity: FINDING_CODES[code], message, start, end, fix };
}

/** Moves a finding by a number of characters (findings of a document are kept relative to its start). */
export function shiftFinding(finding: TextFinding, delta: number): TextFinding {
  if (delta === 0) {
    return finding;
  }
  const shifted = { ...finding, start: finding.start + delta, end: finding.end + delta };
  const edits = finding.fix?.edits;
  return edits === undefined || finding.fix === undefined
    ? shifted
    : {
        ...shifted,
        fix: {
          ...finding.fix,
          edits: edits.map((edit) => ({ ...edit, start: edit.start + delta, end: edit.end + delta })),
        },
      };
}

/**
 * Sorts findings by position and merges duplicates (same code, same range, same message), so one problem gives
 * one diagnostic.
 */
export function sortAndMergeFindings(findings: readonly TextFinding[]): TextFinding[] {
  const sorted = [...findings].sort(
    (a, b) =>
      a.start - b.start ||
      a.end - b.end ||
      a.code.localeCompare(b.code) ||
      a.message.localeCompare(b.message),
  );
  const merged: TextFinding[] = [];
  for (const finding of sorted) {
    const previous = merged[merged.length - 1];
    if (
      previous !== undefined &&
      previous.start === finding.start &&
      previous.end === finding.end &&
      previous.code === finding.code &&
      previous.message === finding.message
    ) {
      continue;
    }
    merged.push(finding);
  }
  return merged;
}
