/**
 * Reads Jobs and CronJobs (of the apply or the cluster file) into the objects the Job and CronJob controllers work
 * on, with the API server's defaults: parallelism 1, completionMode NonIndexed, backoffLimit 6 (MaxInt32 with
 * backoffLimitPerIndex), podReplacementPolicy Failed with a podFailurePolicy else TerminatingOrFailed; a CronJob's
 * concurrencyPolicy Allow and history limits 3 and 1. A captured object keeps its status (counts, conditions,
 * lastScheduleTime), its times read against the apply time. Invalid objects are reported by the workload
 * expansion (workloads/job.ts) and never reach here.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/batch/v1/defaults.go
 */
import type { ObjectSource } from '../../model/source';
import type { ClusterState } from '../../apiserver/cluster-state';
import { parseCronSchedule } from '../../controllers/cronjob/cron-schedule';
import type { JobCondition, SimCronJob, SimJob } from '../../apiserver/job-objects';
import { emptyJobStatus } from '../../apiserver/job-objects';
import { asCount, readJobSpec } from '../../controllers/job/job-spec';
import { parseRfc3339 } from '../../model/rfc3339-time';
import { seededUid } from '../../workloads/hash';
import type { JsonObject } from '../../model/json';
import { asArray, asObject, isJsonObject, readString } from '../../model/json';

/** Reads a Job object; `applyEpoch` is the epoch second of time 0 (for a captured Job's times). */
export function readJob(object: JsonObject, source: ObjectSource, applyEpoch: number): SimJob | null {
  const metadata = asObject(object['metadata']);
  const name = readString(metadata['name']);
  if (name === undefined) {
    return null;
  }
  const namespace = readString(metadata['namespace']) ?? 'default';
  const uid = readString(metadata['uid']) ?? seededUid(`Job/${namespace}/${name}`);
  const owner = asArray(metadata['ownerReferences'])
    .map((reference) => asObject(reference))
    .find((reference) => reference['controller'] === true && reference['kind'] === 'CronJob');
  const spec = asObject(object['spec']);
  return {
    key: `${namespace}/${name}`,
    namespace,
    name,
    uid,
    source,
    specPath: ['spec'],
    templateSource: { ...source, path: [...source.path, 'spec', 'template'] },
    cronJob: readString(owner?.['name']) ?? null,
    createdAt: 0,
    spec: readJobSpec(spec, { name, uid }),
    suspend: spec['suspend'] === true,
    status: readJobStatus(asObject(object['status']), applyEpoch),
    podsCreated: 0,
    deletedAt: null,
  };
}

/** A captured Job's status, its times moved to simulated seconds (negative: before the apply). */
function readJobStatus(status: JsonObject, applyEpoch: number): SimJob['status'] {
  const at = (value: unknown): number | null => {
    const epoch = typeof value === 'string' ? parseRfc3339(value) : null;
    return epoch === null ? null : Math.min(0, epoch - applyEpoch);
  };
  const conditions = asArray(status['conditions']).flatMap((raw): JobCondition[] => {
    const condition = asObject(raw);
    const type = condition['type'];
    const conditionStatus = condition['status'] === 'True' ? 'True' : 'False';
    if (
      type !== 'Complete' &&
      type !== 'Failed' &&
      type !== 'SuccessCriteriaMet' &&
      type !== 'FailureTarget'
    ) {
      return [];
    }
    return [
      {
        type,
        status: conditionStatus,
        reason: readString(condition['reason']) ?? '',
        message: readString(condition['message']) ?? '',
        time: at(condition['lastTransitionTime']) ?? 0,
      },
    ];
  });
  return {
    ...emptyJobStatus(),
    startTime: at(status['startTime']),
    completionTime: at(status['completionTime']),
    succeeded: asCount(status['succeeded']) ?? 0,
    failed: asCount(status['failed']) ?? 0,
    completedIndexes: readString(status['completedIndexes']) ?? '',
    failedIndexes: readString(status['failedIndexes']) ?? null,
    conditions,
  };
}

/** Reads a CronJob; its creation time is the apply's unless the object is captured with one. */
export function readCronJob(object: JsonObject, source: ObjectSource, applyEpoch: number): SimCronJob | null {
  const metadata = asObject(object['metadata']);
  const name = readString(metadata['name']);
  if (name === undefined) {
    return null;
  }
  const namespace = readString(metadata['namespace']) ?? 'default';
  const spec = asObject(object['spec']);
  const status = asObject(object['status']);
  const scheduleText = readString(spec['schedule']) ?? '';
  const timeZone = readString(spec['timeZone']) ?? null;
  const parsed = parseCronSchedule(scheduleText, timeZone);
  const created = readString(metadata['creationTimestamp']);
  const lastSchedule = readString(status['lastScheduleTime']);
  const policy = spec['concurrencyPolicy'];
  return {
    key: `${namespace}/${name}`,
    namespace,
    name,
    uid: readString(metadata['uid']) ?? seededUid(`CronJob/${namespace}/${name}`),
    source,
    scheduleText,
    schedule: 'schedule' in parsed ? parsed.schedule : null,
    scheduleError: 'error' in parsed ? parsed.error : null,
    timeZone,
    startingDeadlineSeconds: asCount(spec['startingDeadlineSeconds']),
    concurrencyPolicy: policy === 'Forbid' || policy === 'Replace' ? policy : 'Allow',
    suspend: spec['suspend'] === true,
    successfulJobsHistoryLimit: asCount(spec['successfulJobsHistoryLimit']) ?? 3,
    failedJobsHistoryLimit: asCount(spec['failedJobsHistoryLimit']) ?? 1,
    jobTemplate: asObject(spec['jobTemplate']),
    createdEpoch: Math.min(applyEpoch, (created === undefined ? null : parseRfc3339(created)) ?? applyEpoch),
    lastScheduleEpoch: lastSchedule === undefined ? null : parseRfc3339(lastSchedule),
    lastSuccessfulTime: null,
    active: asArray(status['active'])
      .map((reference) => readString(asObject(reference)['name']))
      .filter((job): job is string => job !== undefined)
      .map((job) => `${namespace}/${job}`),
  };
}

/**
 * Applies a Job or CronJob onto what runs. A running Job keeps its status and pod template (immutable) and takes
 * the fields an apply may change (parallelism, suspend, activeDeadlineSeconds, ttlSecondsAfterFinished,
 * backoffLimit); a running CronJob keeps its creation time, lastScheduleTime and active Jobs.
 */
export function applyBatchObject(
  state: ClusterState,
  object: JsonObject,
  source: ObjectSource,
  applyEpoch: number,
): void {
  if (object['kind'] === 'CronJob') {
    const applied = readCronJob(object, source, applyEpoch);
    const running = applied === null ? undefined : state.cronJobs.get(applied.key);
    if (applied !== null) {
      state.cronJobs.set(
        applied.key,
        running === undefined
          ? applied
          : {
              ...applied,
              createdEpoch: running.createdEpoch,
              lastScheduleEpoch: running.lastScheduleEpoch,
              lastSuccessfulTime: running.lastSuccessfulTime,
              active: running.active,
            },
      );
    }
    return;
  }
  const applied = readJob(object, source, applyEpoch);
  if (applied === null) {
    return;
  }
  const running = state.jobs.get(applied.key);
  if (running === undefined) {
    state.jobs.set(applied.key, applied);
    return;
  }
  const { parallelism, activeDeadlineSeconds, ttlSecondsAfterFinished, backoffLimit } = applied.spec;
  running.spec = {
    ...running.spec,
    parallelism,
    activeDeadlineSeconds,
    ttlSecondsAfterFinished,
    backoffLimit,
  };
  running.suspend = applied.suspend;
}

/** The cluster file's Jobs and CronJobs, as they run before the apply. */
export function readClusterJobs(
  state: ClusterState,
  workloads: readonly { readonly object: unknown; readonly source: ObjectSource }[],
  applyEpoch: number,
): void {
  for (const { object, source } of workloads) {
    if (!isJsonObject(object)) {
      continue;
    }
    if (object['kind'] === 'Job') {
      const job = readJob(object, source, applyEpoch);
      if (job !== null) {
        state.jobs.set(job.key, job);
      }
    } else if (object['kind'] === 'CronJob') {
      const cronJob = readCronJob(object, source, applyEpoch);
      if (cronJob !== null) {
        state.cronJobs.set(cronJob.key, cronJob);
      }
    }
  }
}
