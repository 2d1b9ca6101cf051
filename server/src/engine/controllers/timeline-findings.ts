/**
 * Findings of the timeline simulation: disruption budgets that protect nothing or block every eviction, rollouts
 * that miss their progress deadline, drains that never finish, scenario steps that cannot run. Same shape as the
 * engine's findings (a stable code, its severity, the object's source, the field's path); each message is worded
 * where the finding is made, from the controllers' own wording where Kubernetes has one.
 */
import type { EngineSeverity } from '../model/findings';
import type { ObjectSource } from '../model/source';

/** Stable codes of timeline findings, with their severity. */
export const TIMELINE_FINDING_CODES = {
  /** A PodDisruptionBudget selects no pod. */
  'pdb-selects-no-pod': 'warning',
  /** A PodDisruptionBudget selects no simulated pod, in a namespace where an operator makes pods (not simulated). */
  'pdb-selects-operator-pods': 'information',
  /** A custom resource an operator turns into pods: those pods are not simulated. */
  'operator-pods-not-simulated': 'information',
  /** A pod is selected by two or more PodDisruptionBudgets: the eviction API refuses it. */
  'pdb-overlap': 'warning',
  /** A PodDisruptionBudget can never allow a voluntary disruption. */
  'pdb-blocks-all-disruptions': 'warning',
  /** A PodDisruptionBudget is invalid (both or neither of minAvailable / maxUnavailable, a bad value). */
  'pdb-invalid': 'error',
  /** The disruption controller cannot compute a budget (a percentage over pods without a scalable controller). */
  'pdb-sync-failed': 'warning',
  /** A rollout exceeded its progressDeadlineSeconds. */
  'rollout-progress-deadline-exceeded': 'error',
  /** A rollout had not finished when the simulation ended. */
  'rollout-not-finished': 'warning',
  /** A kubectl drain can never finish (blocked for good), or fails outright. */
  'drain-never-finishes': 'error',
  /** A kubectl drain had not finished when the simulation stopped at its time limit. */
  'drain-not-finished': 'warning',
  /** A kubectl drain fails: a pod it cannot delete (no controller, local storage, DaemonSet). */
  'drain-failed': 'error',
  /** A StatefulSet pod stays Terminating on a failed node: its ordinal is not recreated. */
  'statefulset-pod-stuck': 'warning',
  /** A pod of the initial state does not fit the cluster. */
  'initial-pod-unschedulable': 'warning',
  /** A workload field the controllers read is invalid (maxSurge "abc"). */
  'workload-invalid-strategy': 'error',
  /** A scenario step or setting is invalid or names something the cluster lacks. */
  'scenario-invalid': 'error',
} as const satisfies Record<string, EngineSeverity>;

/**
 * The codes that predict an outcome of applying valid input (a drain that never finishes, a stalled rollout, a
 * budget that blocks everything), as opposed to those that say the input itself is wrong. An outcome reported on
 * a cluster file's scenario is the prediction working, not a broken cluster file.
 */
const OUTCOME_CODES: ReadonlySet<string> = new Set<TimelineFindingCode>([
  'pdb-selects-no-pod',
  'pdb-selects-operator-pods',
  'pdb-overlap',
  'pdb-blocks-all-disruptions',
  'pdb-sync-failed',
  'rollout-progress-deadline-exceeded',
  'rollout-not-finished',
  'drain-never-finishes',
  'drain-not-finished',
  'drain-failed',
  'statefulset-pod-stuck',
  'initial-pod-unschedulable',
]);

/** Whether a finding code (of the engine or the timeline) is a predicted outcome rather than an input problem. */
export function isPredictedOutcome(code: string): boolean {
  return OUTCOME_CODES.has(code);
}

/** A stable timeline finding code. */
export type TimelineFindingCode = keyof typeof TIMELINE_FINDING_CODES;

/** One finding of the timeline simulation. */
export interface TimelineFinding {
  readonly code: TimelineFindingCode;
  readonly severity: EngineSeverity;
  readonly source: ObjectSource;
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** Builds a finding with the severity of its code. */
export function timelineFinding(
  code: TimelineFindingCode,
  source: ObjectSource,
  path: readonly (string | number)[],
  message: string,
): TimelineFinding {
  return { code, severity: TIMELINE_FINDING_CODES[code], source, path, message };
}
