import { maxOf } from '../../../../../protocol/collections';
/**
 * The Job controller's arithmetic, as pure functions over plain numbers: the pod failure backoff
 * (backoff_utils.go), completion indexes as ordered intervals (indexed_job_utils.go), how many pods a Job wants
 * (manageJob), restarts against backoffLimit (pastBackoffLimitOnFailure) and successPolicy (success_policy.go).
 * job-controller.ts turns them into pods and conditions.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/job/backoff_utils.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/job/indexed_job_utils.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/job/success_policy.go
 */

/** DefaultJobPodFailureBackOff: the delay before the first replacement of a failed pod. */
export const JOB_POD_FAILURE_BACKOFF_SECONDS = 10;
/** MaxJobPodFailureBackOff: the delay doubles per failure up to this (10 minutes in the controller's code). */
export const JOB_POD_FAILURE_MAX_BACKOFF_SECONDS = 600;
/** syncJobBatchPeriod: pod events reach the Job controller batched, one second later. */
export const JOB_SYNC_BATCH_SECONDS = 1;

/** A Job's failures since its last success (backoffRecord). */
export interface BackoffRecord {
  readonly failuresAfterLastSuccess: number;
  /** When the last of them finished, or null. */
  readonly lastFailureTime: number | null;
}

/** No failure yet. */
export const NO_BACKOFF: BackoffRecord = { failuresAfterLastSuccess: 0, lastFailureTime: null };

/**
 * newBackoffRecord: the record after this sync's newly finished pods (their finish times). A success resets the
 * count; failures finished after the last success count again.
 */
export function newBackoffRecord(
  previous: BackoffRecord,
  succeededTimes: readonly number[],
  failedTimes: readonly number[],
): BackoffRecord {
  const failed = [...failedTimes].sort((a, b) => a - b);
  if (succeededTimes.length === 0) {
    if (failed.length === 0) {
      return previous;
    }
    return {
      failuresAfterLastSuccess: previous.failuresAfterLastSuccess + failed.length,
      lastFailureTime: failed[failed.length - 1] ?? null,
    };
  }
  const lastSuccess = maxOf(succeededTimes);
  const after = failed.filter((time) => time > lastSuccess);
  return {
    failuresAfterLastSuccess: after.length,
    lastFailureTime: after.length === 0 ? null : (after[after.length - 1] ?? null),
  };
}

/** The backoff after `failures` consecutive failures: base doubled per further failure, at most max. */
export function backoffSeconds(
  failures: number,
  base = JOB_POD_FAILURE_BACKOFF_SECONDS,
  max = JOB_POD_FAILURE_MAX_BACKOFF_SECONDS,
): number {
  if (failures <= 0) {
    return 0;
  }
  let delay = base;
  for (let i = 1; i < failures; i++) {
    delay *= 2;
    if (delay >= max) {
      return max;
    }
  }
  return delay;
}

/** getRemainingTimeForFailuresCount: how long pod creation still waits at `now` (0: create now). */
export function remainingBackoffSeconds(
  record: BackoffRecord,
  now: number,
  base = JOB_POD_FAILURE_BACKOFF_SECONDS,
  max = JOB_POD_FAILURE_MAX_BACKOFF_SECONDS,
): number {
  if (record.failuresAfterLastSuccess === 0 || record.lastFailureTime === null) {
    return 0;
  }
  const delay = backoffSeconds(record.failuresAfterLastSuccess, base, max);
  const elapsed = now - record.lastFailureTime;
  return delay < elapsed ? 0 : delay - elapsed;
}

/**
 * The active pods a Job wants (manageJob): without completions, parallelism until one pod succeeded (then what
 * runs); with completions, the completions still missing, at most parallelism.
 */
export function wantedActivePods(
  parallelism: number,
  completions: number | null,
  succeeded: number,
  active: number,
): number {
  if (completions === null) {
    return succeeded > 0 ? active : parallelism;
  }
  return Math.max(0, Math.min(completions - succeeded, parallelism));
}

/** pastBackoffLimitOnFailure: the restarts of a restartPolicy OnFailure Job's pending and running pods. */
export function pastBackoffLimitOnFailure(restartCounts: readonly number[], backoffLimit: number): boolean {
  const restarts = restartCounts.reduce((sum, count) => sum + count, 0);
  return backoffLimit === 0 ? restarts > 0 : restarts >= backoffLimit;
}

/** A range of completion indexes, first and last included. */
export interface IndexInterval {
  readonly first: number;
  readonly last: number;
}

/** Indexes as sorted, disjoint, non-adjacent intervals (orderedIntervals). */
export type OrderedIntervals = readonly IndexInterval[];

/** parseIndexesFromString: "1,3-5,7" into intervals below `completions`; malformed parts are skipped. */
export function parseIndexes(text: string, completions: number): IndexInterval[] {
  if (text === '') {
    return [];
  }
  const result: IndexInterval[] = [];
  for (const part of text.split(',')) {
    const limits = part.split('-');
    const first = parseDecimal(limits[0] ?? '');
    if (first === null) {
      continue;
    }
    if (first >= completions) {
      break;
    }
    let last = first;
    if (limits.length > 1) {
      const parsed = parseDecimal(limits[1] ?? '');
      if (parsed === null) {
        continue;
      }
      last = Math.min(parsed, completions - 1);
    }
    const previous = result[result.length - 1];
    if (previous !== undefined && previous.last === first - 1) {
      result[result.length - 1] = { first: previous.first, last };
    } else {
      result.push({ first, last });
    }
  }
  return result;
}

function parseDecimal(text: string): number | null {
  return /^\d+$/.test(text) ? Number(text) : null;
}

/** merge: the union of two ordered interval lists, adjacent intervals joined. */
export function mergeIntervals(a: OrderedIntervals, b: OrderedIntervals): IndexInterval[] {
  const all = [...a, ...b].sort((x, y) => x.first - y.first);
  const result: IndexInterval[] = [];
  for (const interval of all) {
    const previous = result[result.length - 1];
    if (previous === undefined || interval.first > previous.last + 1) {
      result.push(interval);
    } else if (interval.last > previous.last) {
      result[result.length - 1] = { first: previous.first, last: interval.last };
    }
  }
  return result;
}

/** withOrderedIndexes: the intervals plus single indexes. */
export function withIndexes(intervals: OrderedIntervals, indexes: Iterable<number>): IndexInterval[] {
  return mergeIntervals(
    intervals,
    [...indexes].map((index) => ({ first: index, last: index })),
  );
}

/** How many indexes the intervals hold. */
export function intervalsTotal(intervals: OrderedIntervals): number {
  return intervals.reduce((sum, interval) => sum + interval.last - interval.first + 1, 0);
}

/** Whether the intervals hold `index`. */
export function intervalsHave(intervals: OrderedIntervals, index: number): boolean {
  return intervals.some((interval) => interval.first <= index && index <= interval.last);
}

/** The status form: "0-2,4", two adjacent indexes as "5,6". */
export function formatIntervals(intervals: OrderedIntervals): string {
  return intervals
    .map((interval) =>
      interval.last === interval.first
        ? String(interval.first)
        : `${interval.first}${interval.last === interval.first + 1 ? ',' : '-'}${interval.last}`,
    )
    .join(',');
}

/** firstPendingIndexes: the `count` lowest indexes below `completions` that are not active, succeeded or failed. */
export function firstPendingIndexes(
  busy: OrderedIntervals,
  activeIndexes: Iterable<number>,
  count: number,
  completions: number,
): number[] {
  const taken = withIndexes(busy, activeIndexes);
  const result: number[] = [];
  for (let candidate = 0; candidate < completions && result.length < count; candidate++) {
    if (!intervalsHave(taken, candidate)) {
      result.push(candidate);
    }
  }
  return result;
}

/** A successPolicy rule. */
export interface SuccessPolicyRule {
  readonly succeededIndexes?: string;
  readonly succeededCount?: number;
}

/**
 * matchSuccessPolicy: the condition message ("Matched rules at index N") of the first rule the succeeded indexes
 * meet, or null. A rule with succeededIndexes needs all of them, or succeededCount of them; a rule with
 * succeededCount alone needs that many succeeded indexes.
 */
export function matchSuccessPolicy(
  rules: readonly SuccessPolicyRule[] | null,
  completions: number,
  succeeded: OrderedIntervals,
): string | null {
  if (rules === null || succeeded.length === 0) {
    return null;
  }
  for (const [index, rule] of rules.entries()) {
    if (rule.succeededIndexes !== undefined) {
      const required = parseIndexes(rule.succeededIndexes, completions);
      if (required.length === 0) {
        continue;
      }
      const contained = intervalsTotal(intersectIntervals(required, succeeded));
      if (
        contained === intervalsTotal(required) ||
        (rule.succeededCount !== undefined && contained >= rule.succeededCount)
      ) {
        return `Matched rules at index ${index}`;
      }
    } else if (rule.succeededCount !== undefined && intervalsTotal(succeeded) >= rule.succeededCount) {
      return `Matched rules at index ${index}`;
    }
  }
  return null;
}

function intersectIntervals(a: OrderedIntervals, b: OrderedIntervals): IndexInterval[] {
  const result: IndexInterval[] = [];
  for (const x of a) {
    for (const y of b) {
      const first = Math.max(x.first, y.first);
      const last = Math.min(x.last, y.last);
      if (first <= last) {
        result.push({ first, last });
      }
    }
  }
  return result;
}
