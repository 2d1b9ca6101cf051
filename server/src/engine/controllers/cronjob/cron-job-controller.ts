/**
 * The CronJob controller (syncCronJob): at each scheduled time it creates the Job "<cronjob>-<minutes since the
 * epoch>" from the jobTemplate, unless the time is later than startingDeadlineSeconds (MissSchedule), a Job of the
 * CronJob still runs under concurrencyPolicy Forbid (JobAlreadyActive), or it is suspended; under Replace it deletes
 * the running Jobs first. It keeps status.active and lastScheduleTime, and deletes the oldest finished Jobs beyond
 * successfulJobsHistoryLimit and failedJobsHistoryLimit. Simulated time 0 is the apply time (timing applyTime).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/cronjob/cronjob_controllerv2.go
 * Simplified: the controller wakes exactly at each scheduled time (upstream 100ms later, for clock skew); without an
 * end time it schedules only the Jobs due within cronJobHorizonSeconds, so that the simulation ends.
 */
import { PRIORITY } from '../../sim/priorities';
import { seededUid } from '../../workloads/hash';
import { asObject } from '../../model/json';
import type { ControllerContext } from '../controller-context';
import type { CronJobTimes } from './cron-job-times';
import { nextScheduleTime, nextScheduleTimeDuration, scheduledJobName } from './cron-job-times';
import type { SimCronJob, SimJob } from '../../apiserver/job-objects';
import { deleteJob, emptyJobStatus, finishedCondition, isJobFinished } from '../../apiserver/job-objects';
import { readJobSpec } from '../job/job-spec';
import { EVENT_COMPONENT } from '../../model/kubernetes-events';
import type { KubeEvent } from '../../model/kubernetes-events';

/** Creates the Jobs of CronJobs at their scheduled times. */
export class CronJobController {
  private readonly pending = new Map<string, number>();

  /**
   * @param applyEpoch the epoch second of time 0.
   * @param horizon the last simulated second at which a Job may be scheduled.
   */
  constructor(
    private readonly context: ControllerContext,
    private readonly applyEpoch: number,
    private readonly horizon: number,
  ) {
    context.state.onJob((job) => {
      if (job.cronJob !== null) {
        this.enqueue(`${job.namespace}/${job.cronJob}`, 0);
      }
    });
  }

  /** Syncs every CronJob (at the start); one whose schedule does not parse says so once. */
  syncAll(): void {
    const { state } = this.context;
    for (const cronJob of state.cronJobs.values()) {
      if (cronJob.scheduleError !== null && !cronJob.suspend) {
        const isZone = cronJob.scheduleError.startsWith('timeZone');
        state.recordWorkload(
          'CronJobSkipped',
          'CronJob',
          cronJob.namespace,
          cronJob.name,
          isZone
            ? `${cronJob.scheduleError}: no Job is created`
            : `unparseable schedule: "${cronJob.scheduleText}" : ${cronJob.scheduleError}`,
          { reason: isZone ? 'UnsupportedTimeZone' : 'UnparseableSchedule' },
        );
      }
      this.enqueue(cronJob.key, 0);
    }
  }

  /** Syncs the CronJob after `delay`; a wake-up for a scheduled time past the horizon is dropped. */
  private enqueue(key: string, delay: number, isScheduledTime = false): void {
    const sim = this.context.state.sim;
    const at = sim.now + Math.max(0, delay);
    const due = this.pending.get(key);
    if ((isScheduledTime && at > this.horizon) || (due !== undefined && due <= at)) {
      return;
    }
    this.pending.set(key, at);
    sim.at(at, PRIORITY.controller, () => {
      if (this.pending.get(key) === at) {
        this.pending.delete(key);
        this.sync(key);
      }
    });
  }

  private sync(key: string): void {
    const { state } = this.context;
    const cronJob = state.cronJobs.get(key);
    if (cronJob === undefined) {
      return;
    }
    const jobs = [...state.jobs.values()].filter(
      (job) => job.namespace === cronJob.namespace && job.cronJob === cronJob.name && job.deletedAt === null,
    );
    this.reconcileActive(cronJob, jobs);
    if (!cronJob.suspend && cronJob.schedule !== null) {
      this.schedule(cronJob, jobs);
    }
    this.cleanupFinishedJobs(cronJob, jobs);
  }

  /** status.active: finished and missing Jobs leave it; lastSuccessfulTime follows completed Jobs. */
  private reconcileActive(cronJob: SimCronJob, jobs: readonly SimJob[]): void {
    const existing = new Set(jobs.map((job) => job.key));
    cronJob.active = cronJob.active.filter((key) => existing.has(key));
    for (const job of jobs) {
      if (isJobFinished(job)) {
        cronJob.active = cronJob.active.filter((key) => key !== job.key);
      }
      if (job.status.completionTime !== null) {
        cronJob.lastSuccessfulTime = Math.max(
          cronJob.lastSuccessfulTime ?? -Infinity,
          job.status.completionTime,
        );
      }
    }
  }

  private schedule(cronJob: SimCronJob, jobs: readonly SimJob[]): void {
    const { state } = this.context;
    const schedule = cronJob.schedule;
    if (schedule === null) {
      return;
    }
    const now = this.applyEpoch + state.sim.now;
    const times: CronJobTimes = cronJob;
    const requeue = (): void =>
      this.enqueue(cronJob.key, nextScheduleTimeDuration(times, now, schedule, 0), true);
    const { time, error } = nextScheduleTime(times, now, schedule);
    if (error !== null) {
      const message = `invalid schedule: ${cronJob.scheduleText} : ${error}`;
      state.recordWorkload(
        'CronJobSkipped',
        'CronJob',
        cronJob.namespace,
        cronJob.name,
        message,
        { reason: 'InvalidSchedule' },
        cronJobEvent('InvalidSchedule', cronJob, true),
      );
      return;
    }
    if (time === null || time - this.applyEpoch > this.horizon) {
      requeue();
      return;
    }
    const name = scheduledJobName(cronJob.name, time);
    const skip = (reason: string, message: string): void => {
      const kube = cronJobEvent(reason, cronJob, reason !== 'JobAlreadyActive');
      state.recordWorkload(
        'CronJobSkipped',
        'CronJob',
        cronJob.namespace,
        cronJob.name,
        message,
        { reason },
        kube,
      );
      requeue();
    };
    if (cronJob.startingDeadlineSeconds !== null && time + cronJob.startingDeadlineSeconds < now) {
      skip('MissSchedule', `Missed scheduled time to start a job: ${formatRfc1123z(time)}`);
      return;
    }
    if (cronJob.active.includes(`${cronJob.namespace}/${name}`) || cronJob.lastScheduleEpoch === time) {
      requeue();
      return;
    }
    if (cronJob.concurrencyPolicy === 'Forbid' && cronJob.active.length > 0) {
      const message = 'Not starting job because prior execution is running and concurrency policy is Forbid';
      skip('JobAlreadyActive', message);
      return;
    }
    if (cronJob.concurrencyPolicy === 'Replace') {
      for (const job of jobs.filter((entry) => cronJob.active.includes(entry.key))) {
        deleteJob(state, job, `Deleted job ${job.name}`, cronJobEvent('SuccessfulDelete', cronJob));
      }
      cronJob.active = [];
    }
    const job = this.jobFromTemplate(cronJob, name);
    if (!state.jobs.has(job.key) || state.jobs.get(job.key)?.deletedAt !== null) {
      state.jobs.set(job.key, job);
      state.recordWorkload(
        'CronJobScheduled',
        'CronJob',
        cronJob.namespace,
        cronJob.name,
        `Created job ${name}`,
        undefined,
        cronJobEvent('SuccessfulCreate', cronJob),
      );
      state.jobChanged(job, 'created');
    }
    cronJob.active.push(job.key);
    cronJob.lastScheduleEpoch = time;
    requeue();
  }

  /** getJobFromTemplate2: the Job of one scheduled time. */
  private jobFromTemplate(cronJob: SimCronJob, name: string): SimJob {
    const spec = asObject(cronJob.jobTemplate['spec']);
    const uid = seededUid(`Job/${cronJob.namespace}/${name}`);
    const specPath = ['spec', 'jobTemplate', 'spec'];
    return {
      key: `${cronJob.namespace}/${name}`,
      namespace: cronJob.namespace,
      name,
      uid,
      source: cronJob.source,
      specPath,
      templateSource: { ...cronJob.source, path: [...cronJob.source.path, ...specPath, 'template'] },
      cronJob: cronJob.name,
      createdAt: this.context.state.sim.now,
      spec: readJobSpec(spec, { name, uid }),
      suspend: spec['suspend'] === true,
      status: emptyJobStatus(),
      podsCreated: 0,
      deletedAt: null,
    };
  }

  /** cleanupFinishedJobs: the oldest finished Jobs beyond the history limits are deleted. */
  private cleanupFinishedJobs(cronJob: SimCronJob, jobs: readonly SimJob[]): void {
    const { state } = this.context;
    const byOutcome = (type: 'Complete' | 'Failed'): SimJob[] =>
      jobs.filter((job) => job.deletedAt === null && finishedCondition(job)?.type === type);
    const limits: [SimJob[], number][] = [
      [byOutcome('Complete'), cronJob.successfulJobsHistoryLimit],
      [byOutcome('Failed'), cronJob.failedJobsHistoryLimit],
    ];
    for (const [finished, limit] of limits) {
      const oldest = finished.sort(byStartTime).slice(0, Math.max(0, finished.length - limit));
      for (const job of oldest) {
        deleteJob(state, job, `Deleted job ${job.name}`, cronJobEvent('SuccessfulDelete', cronJob));
        cronJob.active = cronJob.active.filter((key) => key !== job.key);
      }
    }
  }
}

/** byJobStartTime: by status.startTime (none last), then by name. */
export function byStartTime(a: SimJob, b: SimJob): number {
  const startA = a.status.startTime;
  const startB = b.status.startTime;
  if (startA === null || startB === null || startA === startB) {
    if (startA === null && startB !== null) {
      return 1;
    }
    if (startA !== null && startB === null) {
      return -1;
    }
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  }
  return startA - startB;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Go's time.RFC1123Z in UTC: "Thu, 01 Jan 2026 00:05:00 +0000". */
export function formatRfc1123z(epochSeconds: number): string {
  const date = new Date(epochSeconds * 1000);
  const two = (value: number): string => String(value).padStart(2, '0');
  return `${DAYS[date.getUTCDay()] ?? ''}, ${two(date.getUTCDate())} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`;
}

/**
 * The CronJob controller's events on the CronJob (cronjob_controllerv2.go): SuccessfulCreate "Created job x",
 * SuccessfulDelete "Deleted job x", MissSchedule, InvalidSchedule (Warning), JobAlreadyActive (Normal).
 */
function cronJobEvent(
  reason: string,
  cronJob: { readonly namespace: string; readonly name: string },
  warning = false,
): KubeEvent {
  return {
    reason,
    component: EVENT_COMPONENT.cronJob,
    warning,
    involvedObject: { kind: 'CronJob', namespace: cronJob.namespace, name: cronJob.name },
  };
}
