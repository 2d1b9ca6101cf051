/**
 * Findings: what the language layer reports about a manifest, in offsets, before they become LSP diagnostics.
 * Each finding has a stable code; the severity is chosen from the code, in one table.
 */

import { FINDING_CODES } from '../../../protocol/finding-codes';
import type { FindingCode } from '../../../protocol/finding-codes';

/** How serious a finding is; mapped one to one onto LSP DiagnosticSeverity. */
export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** Every diagnostic code with its severity: the product's one table (protocol/finding-codes.ts). */
export const DIAGNOSTIC_CODES = FINDING_CODES;

/** A stable diagnostic code. */
export type DiagnosticCode = FindingCode;

/** A text edit elsewhere than the finding's own range, in offsets of the analysed text. */
export interface OffsetEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

/** Data a quick fix needs, carried with the finding. */
export interface FixData {
  /** A replacement text for the finding's range. */
  replacement?: string;
  /** Edits of other ranges (used instead of the replacement when set). */
  edits?: readonly OffsetEdit[];
  /** A title for the quick fix that applies the replacement. */
  title?: string;
}

/** One problem found in a manifest, located by offsets in the analysed text. */
export interface Finding {
  readonly code: DiagnosticCode;
  readonly message: string;
  /** Offset of the first character. */
  readonly start: number;
  /** Offset just past the last character. */
  readonly end: number;
  /** What a quick fix can do about it, when a safe fix exists. */
  readonly fix?: FixData;
}

/** The severity of a code. */
export function severityOf(code: DiagnosticCode): Severity {
  return DIAGNOSTIC_CODES[code];
}

/** Moves a finding by a number of characters (findings of a document are kept relative to its start). */
export function shiftFinding(finding: Finding, delta: number): Finding {
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
export function sortAndMergeFindings(findings: readonly Finding[]): Finding[] {
  const sorted = [...findings].sort(
    (a, b) =>
      a.start - b.start ||
      a.end - b.end ||
      a.code.localeCompare(b.code) ||
      a.message.localeCompare(b.message),
  );
  const merged: Finding[] = [];
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
