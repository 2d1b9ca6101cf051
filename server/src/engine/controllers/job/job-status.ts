/**
 * The Job controller's status writing (trackJobStatusAndRemoveFinalizers, enactJobFinished,
 * ensureJobConditionStatus): finished pods counted into status, the interim condition (FailureTarget,
 * SuccessCriteriaMet) at once and the final one (Failed, Complete) once no pod is terminating, with the timeline's
 * JobComplete or JobFailed event.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/job/job_controller.go
 */
import type { ClusterState } from '../../apiserver/cluster-state';
import { formatIntervals, intervalsTotal } from './job-arithmetic';
import type { IndexedJobState } from './job-indexes';
import type { JobCondition, JobConditionType, SimJob } from '../../apiserver/job-objects';
import { isPodFailed } from './job-pods';
import type { SimPod } from '../../apiserver/sim-pod';
import { EVENT_COMPONENT } from '../../model/kubernetes-events';

/** A True condition of this type, reason and message at `time`. */
export function jobConditionOf(
  type: JobConditionType,
  reason: string,
  message: string,
  time: number,
): JobCondition {
  return { type, status: 'True', reason, message, time };
}

/**
 * Counts the finished uncounted pods into status.succeeded and status.failed (an Indexed Job's into
 * completedIndexes) and removes them from `uncounted`. Once the Job finishes every uncounted pod is counted, those
 * still running as failed unless the Job succeeded. A failed pod whose index waits for its replacement stays.
 */
export function countFinishedPods(
  job: SimJob,
  tracked: readonly SimPod[],
  uncounted: Map<string, SimPod> | undefined,
  finished: JobCondition | null,
  indexes: IndexedJobState | null,
  countsFailure: (pod: SimPod) => boolean,
): void {
  for (const pod of tracked) {
    const failed = isPodFailed(job, pod);
    const canCount =
      finished !== null || pod.terminal === 'Succeeded' || (failed && indexes?.isDelayed(pod) !== true);
    if (!canCount) {
      continue;
    }
    uncounted?.delete(pod.key);
    if (indexes !== null && !indexes.isValid(pod)) {
      continue;
    }
    if (pod.terminal === 'Succeeded') {
      job.status.succeeded += indexes === null ? 1 : 0;
    } else if (
      (failed || (finished !== null && finished.type !== 'SuccessCriteriaMet')) &&
      countsFailure(pod)
    ) {
      job.status.failed++;
    }
  }
  if (indexes !== null) {
    job.status.completedIndexes = formatIntervals(indexes.succeeded);
    job.status.succeeded = intervalsTotal(indexes.succeeded);
    job.status.failedIndexes = indexes.failed === null ? null : formatIntervals(indexes.failed);
  }
}

/** The interim condition now, the final one (Failed, Complete) once no pod is terminating. */
export function enactFinished(
  state: ClusterState,
  job: SimJob,
  finished: JobCondition | null,
  terminating: number,
  now: number,
): void {
  if (finished === null) {
    return;
  }
  let final = finished;
  if (finished.type === 'FailureTarget' || finished.type === 'SuccessCriteriaMet') {
    setJobCondition(job, finished);
    final = { ...finished, type: finished.type === 'FailureTarget' ? 'Failed' : 'Complete', time: now };
  }
  if (terminating > 0) {
    return;
  }
  setJobCondition(job, final);
  if (final.type === 'Complete') {
    job.status.completionTime = now;
    const kube = { reason: 'Completed', component: EVENT_COMPONENT.job };
    state.recordWorkload(
      'JobComplete',
      'Job',
      job.namespace,
      job.name,
      'Job completed',
      { reason: final.reason },
      kube,
    );
  } else {
    const kube = { reason: final.reason, component: EVENT_COMPONENT.job, warning: true };
    state.recordWorkload(
      'JobFailed',
      'Job',
      job.namespace,
      job.name,
      final.message,
      { reason: final.reason },
      kube,
    );
  }
}

/** ensureJobConditionStatus: adds the condition, or replaces the one of its type when it differs. */
export function setJobCondition(job: SimJob, next: JobCondition): void {
  const conditions = job.status.conditions;
  const index = conditions.findIndex((entry) => entry.type === next.type);
  const current = conditions[index];
  if (current === undefined) {
    conditions.push(next);
  } else if (
    current.status !== next.status ||
    current.reason !== next.reason ||
    current.message !== next.message
  ) {
    conditions[index] = next;
  }
}
