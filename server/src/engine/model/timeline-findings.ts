/**
 * Findings of the timeline simulation: disruption budgets that protect nothing or block every eviction, rollouts
 * that miss their progress deadline, drains that never finish, scenario steps that cannot run. Same shape as the
 * engine's findings (a stable code, its severity, the object's source, the field's path); each message is worded
 * where the finding is made, from the controllers' own wording where Kubernetes has one.
 */
import { FINDING_CODES } from '../../../../protocol/finding-codes';
import type { FindingCode } from '../../../../protocol/finding-codes';
import type { EngineSeverity } from './findings';
import type { ObjectSource } from './source';

/**
 * The codes that predict an outcome of applying valid input (a drain that never finishes, a stalled rollout, a
 * budget that blocks everything), as opposed to those that say the input itself is wrong. An outcome reported on
 * a cluster file's scenario is the prediction working, not a broken cluster file.
 */
const OUTCOME_CODES: ReadonlySet<string> = new Set<TimelineFindingCode>([
  'pdb-selects-nothing',
  'pdb-selects-operator-pods',
  'pdb-overlap',
  'pdb-blocks-disruptions',
  'pdb-sync-failed',
  'rollout-stalls',
  'rollout-unfinished',
  'drain-blocked',
  'drain-unfinished',
  'drain-failed',
  'statefulset-pod-stuck',
  'initial-pod-unschedulable',
  'container-cannot-start',
  'claim-pending',
  'job-fails',
  'hpa-cannot-compute',
  'pod-waits-for-scale-up',
  'pod-no-scale-up',
]);

/** Whether a finding code (of the engine or the timeline) is a predicted outcome rather than an input problem. */
export function isPredictedOutcome(code: string): boolean {
  return OUTCOME_CODES.has(code);
}

/** A finding code (protocol/finding-codes.ts, the product's one table). */
type TimelineFindingCode = FindingCode;

/** One finding of the timeline simulation. */
export interface TimelineFinding {
  readonly code: TimelineFindingCode;
  readonly severity: EngineSeverity;
  readonly source: ObjectSource;
  readonly path: readonly (string | number)[];
  readonly message: string;
  /** What code needs to act on the finding, so no one parses the message (`surgeBlocked` for a stalled rollout). */
  readonly data?: Readonly<Record<string, string>>;
}

/** Builds a finding with the severity of its code. */
export function timelineFinding(
  code: TimelineFindingCode,
  source: ObjectSource,
  path: readonly (string | number)[],
  message: string,
  data?: Readonly<Record<string, string>>,
): TimelineFinding {
  return {
    code,
    severity: FINDING_CODES[code],
    source,
    path,
    message,
    ...(data === undefined ? {} : { data }),
  };
}
