/**
 * Jobs and CronJobs (batch/v1) as the simulated API server holds them: the spec as the controllers read it (API
 * defaults applied by scenario/state/read-jobs.ts) and the status the Job controller writes. Deleted Jobs stay listed
 * with their deletion time, so the report can say what each one did.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/batch/v1/defaults.go
 */
import type { ObjectSource } from '../model/source';
import type { ClusterState } from './cluster-state';
import type { JsonObject } from '../model/json';
import type { CronSchedule } from '../controllers/cronjob/cron-schedule';
import type { PodFailurePolicy } from '../controllers/job/pod-failure-policy';
import type { SuccessPolicyRule } from '../controllers/job/job-arithmetic';
import type { KubeEvent } from '../model/kubernetes-events';

/** A Job condition type (JobConditionType). */
export type JobConditionType = 'Complete' | 'Failed' | 'SuccessCriteriaMet' | 'FailureTarget' | 'Suspended';

/** A condition of a Job's status. */
export interface JobCondition {
  readonly type: JobConditionType;
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
  /** lastTransitionTime, in simulated seconds. */
  readonly time: number;
}

/** JobSpec, with the API server's defaults. */
export interface JobSpec {
  readonly parallelism: number;
  /** null: any one pod's success completes the Job (the work-queue pattern). */
  readonly completions: number | null;
  readonly completionMode: 'NonIndexed' | 'Indexed';
  readonly backoffLimit: number;
  readonly backoffLimitPerIndex: number | null;
  readonly maxFailedIndexes: number | null;
  readonly activeDeadlineSeconds: number | null;
  readonly ttlSecondsAfterFinished: number | null;
  readonly podFailurePolicy: PodFailurePolicy | null;
  readonly successPolicy: readonly SuccessPolicyRule[] | null;
  /** TerminatingOrFailed (default), or Failed (the default when a podFailurePolicy is set). */
  readonly podReplacementPolicy: 'TerminatingOrFailed' | 'Failed';
  /** The pod template's restartPolicy: Never or OnFailure. */
  readonly restartPolicy: 'Never' | 'OnFailure';
  /** The pod template, with the labels the API server's generateSelector adds. */
  readonly template: JsonObject;
}

/** JobStatus, as the Job controller writes it. */
export interface JobStatus {
  /** When the controller first saw it unsuspended (reset when resumed), or null. */
  startTime: number | null;
  completionTime: number | null;
  active: number;
  ready: number;
  terminating: number;
  succeeded: number;
  failed: number;
  /** status.completedIndexes and failedIndexes ("0-2,4") of an Indexed Job. */
  completedIndexes: string;
  failedIndexes: string | null;
  conditions: JobCondition[];
}

/** A Job. */
export interface SimJob {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** The Job object, or the CronJob that created it (where findings point). */
  readonly source: ObjectSource;
  /** Where the JobSpec is in that object: ["spec"], or ["spec", "jobTemplate", "spec"]. */
  readonly specPath: readonly string[];
  /** The pod template's source (where pods' findings point). */
  readonly templateSource: ObjectSource;
  /** The CronJob that created it, or null. */
  readonly cronJob: string | null;
  /** When it was created (simulated seconds; a Job of the cluster file or the apply: 0). */
  readonly createdAt: number;
  spec: JobSpec;
  suspend: boolean;
  status: JobStatus;
  /** How many pods the controller created so far (seeds their names). */
  podsCreated: number;
  /** When it was deleted (ttlSecondsAfterFinished, a CronJob's history limit or Replace), or null. */
  deletedAt: number | null;
}

/** A CronJob. */
export interface SimCronJob {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly source: ObjectSource;
  /** The schedule as written, and parsed (null when it does not parse: the controller does nothing). */
  readonly scheduleText: string;
  readonly schedule: CronSchedule | null;
  /** Why the schedule does not parse (or its time zone is not simulated), or null. */
  readonly scheduleError: string | null;
  readonly timeZone: string | null;
  readonly startingDeadlineSeconds: number | null;
  readonly concurrencyPolicy: 'Allow' | 'Forbid' | 'Replace';
  readonly suspend: boolean;
  readonly successfulJobsHistoryLimit: number;
  readonly failedJobsHistoryLimit: number;
  /** The jobTemplate (metadata and spec, as written). */
  readonly jobTemplate: JsonObject;
  /** Creation time in epoch seconds (the apply time for the apply's, metadata.creationTimestamp if captured). */
  readonly createdEpoch: number;
  /** status.lastScheduleTime (epoch seconds) and lastSuccessfulTime (simulated seconds). */
  lastScheduleEpoch: number | null;
  lastSuccessfulTime: number | null;
  /** status.active: the keys of its Jobs that have not finished. */
  active: string[];
}

/** The Job's terminal conditions' reasons and messages, in the controller's words. */
export const JOB_CONDITIONS = {
  backoffLimitExceeded: {
    reason: 'BackoffLimitExceeded',
    message: 'Job has reached the specified backoff limit',
  },
  deadlineExceeded: { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' },
  maxFailedIndexesExceeded: {
    reason: 'MaxFailedIndexesExceeded',
    message: 'Job has exceeded the specified maximal number of failed indexes',
  },
  failedIndexes: { reason: 'FailedIndexes', message: 'Job has failed indexes' },
  completionsReached: { reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
} as const;

/** A condition of the Job with this type and status True, if any. */
export function jobCondition(job: SimJob, type: JobConditionType): JobCondition | undefined {
  return job.status.conditions.find((condition) => condition.type === type && condition.status === 'True');
}

/** IsJobFinished: the Complete or Failed condition is True. */
export function isJobFinished(job: SimJob): boolean {
  return jobCondition(job, 'Complete') !== undefined || jobCondition(job, 'Failed') !== undefined;
}

/** The Job's finished condition (Complete or Failed), if any. */
export function finishedCondition(job: SimJob): JobCondition | undefined {
  return jobCondition(job, 'Complete') ?? jobCondition(job, 'Failed');
}

/** An empty JobStatus. */
export function emptyJobStatus(): JobStatus {
  return {
    startTime: null,
    completionTime: null,
    active: 0,
    ready: 0,
    terminating: 0,
    succeeded: 0,
    failed: 0,
    completedIndexes: '',
    failedIndexes: null,
    conditions: [],
  };
}

/**
 * Deletes a Job (ttlSecondsAfterFinished, a CronJob's history limit or Replace): it stays listed with deletedAt,
 * and the garbage collector deletes its pods (background propagation).
 */
export function deleteJob(state: ClusterState, job: SimJob, message: string, kube?: KubeEvent): void {
  if (job.deletedAt !== null) {
    return;
  }
  job.deletedAt = state.sim.now;
  state.recordWorkload('JobDeleted', 'Job', job.namespace, job.name, message, undefined, kube);
  for (const pod of state.podsOf('Job', job.namespace, job.name)) {
    state.deletePod(pod, `Deleting pod ${pod.name}: its Job ${job.name} was deleted (garbage collection)`);
  }
  state.jobChanged(job, 'deleted');
}
