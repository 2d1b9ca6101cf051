/**
 * The CronJob controller's time arithmetic (cronjob/utils.go), pure, in epoch seconds: the most recent time a Job
 * was due (mostRecentScheduleTime, with its count of missed schedules), the unmet time to act on now
 * (nextScheduleTime) and when to look again (nextScheduleTimeDuration), and the name of a scheduled Job.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/cronjob/utils.go
 */
import type { CronSchedule } from './cron-schedule';
import { nextCronTime } from './cron-schedule';

/** nextScheduleDelta: the controller requeues 100ms after the next scheduled time. */
export const NEXT_SCHEDULE_DELTA_SECONDS = 0.1;

/** More missed schedules than this is "many" (the TooManyMissedTimes warning). */
const MANY_MISSED = 100;

/** The CronJob fields the arithmetic reads. */
export interface CronJobTimes {
  /** metadata.creationTimestamp. */
  readonly createdEpoch: number;
  /** status.lastScheduleTime, or null. */
  readonly lastScheduleEpoch: number | null;
  readonly startingDeadlineSeconds: number | null;
}

/** How many schedules passed unmet. */
export type MissedSchedules = 'none' | 'few' | 'many';

/** mostRecentScheduleTime's answer. */
export interface RecentSchedule {
  /** The last schedule time, else the creation time (moved up to now − startingDeadlineSeconds if asked). */
  readonly earliest: number;
  /** The most recent time a Job should have been created, or null when that is after now. */
  readonly mostRecent: number | null;
  readonly missed: MissedSchedules;
  /** A schedule that parses but never fires twice ("59 23 31 2 *"). */
  readonly error: string | null;
}

/** mostRecentScheduleTime. */
export function mostRecentScheduleTime(
  cronJob: CronJobTimes,
  now: number,
  schedule: CronSchedule,
  includeStartingDeadline: boolean,
): RecentSchedule {
  let earliest = cronJob.lastScheduleEpoch ?? cronJob.createdEpoch;
  if (includeStartingDeadline && cronJob.startingDeadlineSeconds !== null) {
    earliest = Math.max(earliest, now - cronJob.startingDeadlineSeconds);
  }
  const none: RecentSchedule = { earliest, mostRecent: null, missed: 'none', error: null };
  const t1 = nextCronTime(schedule, earliest);
  const t2 = t1 === null ? null : nextCronTime(schedule, t1);
  if (t1 !== null && now < t1) {
    return none;
  }
  if (t1 !== null && t2 !== null && now < t2) {
    return { ...none, mostRecent: t1 };
  }
  const between = t1 === null || t2 === null ? 0 : Math.round(t2 - t1);
  if (t1 === null || between < 1) {
    return { ...none, error: 'time difference between two schedules is less than 1 second' };
  }
  // The controller's rough count of missed schedules, then a walk from just before the last of them.
  const missedCount = Math.trunc(Math.trunc(now - t1) / between) + 1;
  let mostRecent: number | null = null;
  for (
    let time = nextCronTime(schedule, t1 + (missedCount - 2) * between);
    time !== null && time <= now;
    time = nextCronTime(schedule, time)
  ) {
    mostRecent = time;
  }
  const missed: MissedSchedules = missedCount > MANY_MISSED ? 'many' : missedCount > 0 ? 'few' : 'none';
  return { earliest, mostRecent, missed, error: null };
}

/** nextScheduleTime: the unmet schedule time to act on at `now`, or null. */
export function nextScheduleTime(
  cronJob: CronJobTimes,
  now: number,
  schedule: CronSchedule,
): { readonly time: number | null; readonly tooManyMissed: boolean; readonly error: string | null } {
  const recent = mostRecentScheduleTime(cronJob, now, schedule, true);
  if (recent.mostRecent === null || recent.mostRecent > now) {
    return { time: null, tooManyMissed: false, error: recent.error };
  }
  return { time: recent.mostRecent, tooManyMissed: recent.missed === 'many', error: recent.error };
}

/**
 * nextScheduleTimeDuration: seconds from `now` until the controller looks at the CronJob again, `delta` after the
 * next scheduled time.
 */
export function nextScheduleTimeDuration(
  cronJob: CronJobTimes,
  now: number,
  schedule: CronSchedule,
  delta = NEXT_SCHEDULE_DELTA_SECONDS,
): number {
  const recent = mostRecentScheduleTime(cronJob, now, schedule, false);
  let from: number;
  if (recent.error !== null) {
    from = now;
  } else if (recent.mostRecent === null) {
    from = recent.missed === 'none' ? recent.earliest : now;
  } else {
    from = recent.mostRecent;
  }
  const next = nextCronTime(schedule, from);
  return next === null ? Number.POSITIVE_INFINITY : next - now + delta;
}

/** getJobName: "<cronjob>-<scheduled time in minutes since the epoch>". */
export function scheduledJobName(cronJobName: string, scheduledEpoch: number): string {
  return `${cronJobName}-${Math.floor(scheduledEpoch / 60)}`;
}
