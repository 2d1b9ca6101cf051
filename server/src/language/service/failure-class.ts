/**
 * How a finding counts for a command's `--fail-on`, and for a plan's verdict (engine/plan/build-plan.ts): one rule
 * for the CLI's exit code, the CLI's plan and the editor's Preview Apply panel, so they cannot disagree.
 */
import type { Finding } from '../../../../protocol/finding';
import { isPredictedOutcome } from '../../../../protocol/finding-codes';

/**
 * How a finding counts for `--fail-on`: an error of the input, a predicted failure (a pod that stays Pending, an
 * object the API server refuses, a drain that never finishes), a warning, or a note that never fails a run.
 */
export type FailureClass = 'error' | 'prediction' | 'warning' | 'information';

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
  return finding.severity === 'error' && isPredictedOutcome(finding.code) ? 'prediction' : finding.severity;
}
