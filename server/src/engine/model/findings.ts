/**
 * Findings of the engine about its input (a bad cluster file, a pod bound to a missing node): data, never
 * exceptions. Each names the object by its ObjectSource, the field by a path inside it, and carries a stable code.
 */
import { FINDING_CODES } from '../../../../protocol/finding-codes';
import type { FindingCode } from '../../../../protocol/finding-codes';
import type { ObjectSource } from './source';

/** How serious an engine finding is. Errors make the input invalid; the others are advice. */
export type EngineSeverity = 'error' | 'warning' | 'information';

/** A finding code (protocol/finding-codes.ts, the product's one table). */
type EngineFindingCode = FindingCode;

/** One finding about the engine's input. */
export interface EngineFinding {
  readonly code: EngineFindingCode;
  readonly severity: EngineSeverity;
  /** The object the finding is about. */
  readonly source: ObjectSource;
  /** The field inside that object ([] for the object itself), e.g. ['status', 'allocatable', 'cpu']. */
  readonly path: readonly (string | number)[];
  /** What is wrong, naming the object: `Node "w1": status.allocatable.cpu "-1" is negative`. */
  readonly message: string;
}

/** Builds a finding with the severity of its code. */
export function engineFinding(
  code: EngineFindingCode,
  source: ObjectSource,
  path: readonly (string | number)[],
  message: string,
): EngineFinding {
  return { code, severity: FINDING_CODES[code], source, path, message };
}

/** Whether any finding is an error. */
export function hasErrors(findings: readonly EngineFinding[]): boolean {
  return findings.some((finding) => finding.severity === 'error');
}

/** Formats a field path the way kubectl explains fields: spec.containers[0].resources. */
export function formatFieldPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const part of path) {
    text += typeof part === 'number' ? `[${part}]` : text === '' ? part : `.${part}`;
  }
  return text;
}
