/**
 * How a finding counts for a command's `--fail-on`, and for a plan's verdict (engine/plan/build-plan.ts): one rule
 * for the CLI's exit code, the CLI's plan and the editor's Preview Apply panel, so they cannot disagree.
 */
import type { Finding } from '../../../../protocol/finding';
import { isPredictedOutcome } from '../../../../protocol/finding-codes';

/**
 * How a finding counts for `--fail-on`: an error of the input, input left unchecked (a file or document over an
 * analysis limit), a predicted failure (a pod that stays Pending, an object the API server refuses, a drain that
 * never finishes), a warning, or a note that never fails a run.
 */
export type FailureClass = 'error' | 'unchecked' | 'prediction' | 'warning' | 'information';

/**
 * The codes of input the analysis left out: a note in the editor (the limit is the tool's, not a mistake in the
 * manifest), but a run that did not check part of its input must not pass as clean, so it fails as an error does.
 * (yaml-too-deep and yaml-alias-limit are errors already.) `simulate` prints them among its input notes.
 */
export const UNCHECKED_CODES: readonly string[] = [
  'file-too-large',
  'document-too-large',
  'analysis-incomplete',
];

const UNCHECKED: ReadonlySet<string> = new Set(UNCHECKED_CODES);

/** Whether a code tells of input the analysis left out (a file or document over a limit). */
export function isUncheckedCode(code: string): boolean {
  return UNCHECKED.has(code);
}

/** The codes of a predicted failure whatever their severity (a Pending replica is a warning in the editor). */
const ALWAYS_PREDICTED: ReadonlySet<string> = new Set([
  'pod-unschedulable',
  'admission-refused',
  'admission-refused-partly',
  'pod-unschedulable-on-capture',
]);

/** The failure class of a finding: an error of a predicted outcome (or a Pending or refused pod) is a prediction. */
export function failureClassOf(finding: Finding): FailureClass {
  if (ALWAYS_PREDICTED.has(finding.code)) {
    return 'prediction';
  }
  if (isUncheckedCode(finding.code)) {
    return 'unchecked';
  }
  return finding.severity === 'error' && isPredictedOutcome(finding.code) ? 'prediction' : finding.severity;
}
