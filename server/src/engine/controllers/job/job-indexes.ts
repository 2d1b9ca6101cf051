/**
 * An Indexed Job's indexes at one sync: the succeeded ones (status.completedIndexes plus pods that succeeded since),
 * and with backoffLimitPerIndex the failed ones (an index whose pod failed with backoffLimitPerIndex failures
 * before it, or matched a FailIndex rule), the failed pod of each index that waits for its replacement (which
 * inherits its failure count), and the indexes to create now after each index's own back-off.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/job/indexed_job_utils.go
 */
import type { IndexInterval } from './job-arithmetic';
import {
  backoffSeconds,
  firstPendingIndexes,
  intervalsHave,
  intervalsTotal,
  mergeIntervals,
  parseIndexes,
  withIndexes,
} from './job-arithmetic';
import { completionIndexOf } from '../../kubelet/job-pod-run';
import type { SimJob } from '../../apiserver/job-objects';
import { JOB_CONDITIONS } from '../../apiserver/job-objects';
import type { IndexFailureCounts } from './job-pods';
import {
  JOB_INDEX_FAILURE_COUNT_ANNOTATION,
  JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
  annotationCount,
  failedPodView,
  finishedTime,
  isPodFailed,
} from './job-pods';
import { matchPodFailurePolicy } from './pod-failure-policy';
import type { SimPod } from '../../apiserver/sim-pod';

/** The indexes of an Indexed Job at one sync. */
export class IndexedJobState {
  readonly succeeded: IndexInterval[];
  /** null without backoffLimitPerIndex. */
  readonly failed: IndexInterval[] | null;
  /** Per index, the failed pod whose replacement is not created yet (backoffLimitPerIndex). */
  private readonly delayed = new Map<number, SimPod>();

  private constructor(
    private readonly job: SimJob,
    readonly completions: number,
    tracked: readonly SimPod[],
    private readonly active: readonly SimPod[],
    private readonly terminating: readonly SimPod[],
  ) {
    const valid = tracked.filter((pod) => this.isValid(pod));
    this.succeeded = withIndexes(
      parseIndexes(job.status.completedIndexes, completions),
      valid.filter((pod) => pod.terminal === 'Succeeded').map((pod) => completionIndexOf(pod) ?? 0),
    );
    if (job.spec.backoffLimitPerIndex === null) {
      this.failed = null;
      return;
    }
    this.failed = withIndexes(
      parseIndexes(job.status.failedIndexes ?? '', completions),
      valid.filter((pod) => this.isIndexFailed(pod)).map((pod) => completionIndexOf(pod) ?? 0),
    );
    const activeIndexes = new Set(active.map(completionIndexOf));
    for (const pod of valid) {
      const index = completionIndexOf(pod) ?? 0;
      if (
        !isPodFailed(job, pod) ||
        intervalsHave(this.succeeded, index) ||
        intervalsHave(this.failed, index) ||
        activeIndexes.has(index)
      ) {
        continue;
      }
      const previous = this.delayed.get(index);
      if (
        previous === undefined ||
        (absoluteFailures(previous) <= absoluteFailures(pod) && finishedTime(pod) >= finishedTime(previous))
      ) {
        this.delayed.set(index, pod);
      }
    }
  }

  /** The state of an Indexed Job (with completions), or null for a NonIndexed one. */
  static of(
    job: SimJob,
    tracked: readonly SimPod[],
    active: readonly SimPod[],
    terminating: readonly SimPod[] = [],
  ): IndexedJobState | null {
    const completions = job.spec.completions;
    return job.spec.completionMode === 'Indexed' && completions !== null
      ? new IndexedJobState(job, completions, tracked, active, terminating)
      : null;
  }

  /** Whether a pod has a completion index below completions. */
  isValid(pod: SimPod): boolean {
    const index = completionIndexOf(pod);
    return index !== null && index < this.completions;
  }

  /** Whether a failed pod waits for its index's replacement before it is counted. */
  isDelayed(pod: SimPod): boolean {
    const index = completionIndexOf(pod);
    return index !== null && this.delayed.get(index) === pod;
  }

  /** isIndexFailed: a FailIndex rule matched, or the pod's index had backoffLimitPerIndex failures before it. */
  private isIndexFailed(pod: SimPod): boolean {
    if (!isPodFailed(this.job, pod)) {
      return false;
    }
    const match = matchPodFailurePolicy(this.job.spec.podFailurePolicy, failedPodView(pod));
    if (match.action === 'FailIndex') {
      return true;
    }
    return (
      match.countFailed &&
      annotationCount(pod, JOB_INDEX_FAILURE_COUNT_ANNOTATION) >= (this.job.spec.backoffLimitPerIndex ?? 0)
    );
  }

  /** MaxFailedIndexesExceeded or FailedIndexes, when the failed indexes decide the Job. */
  failureCondition(): { readonly reason: string; readonly message: string } | null {
    if (this.failed === null) {
      return null;
    }
    const failed = intervalsTotal(this.failed);
    const max = this.job.spec.maxFailedIndexes;
    if (max !== null && failed > max) {
      return JOB_CONDITIONS.maxFailedIndexesExceeded;
    }
    if (failed > 0 && failed + intervalsTotal(this.succeeded) >= this.completions) {
      return JOB_CONDITIONS.failedIndexes;
    }
    return null;
  }

  /**
   * The lowest `count` indexes to create pods for (not succeeded, failed, active, nor terminating when only
   * failed pods are replaced); with backoffLimitPerIndex those whose own back-off has passed, else how long the
   * first of them still waits.
   */
  pendingIndexes(count: number, now: number): { readonly indexes: number[]; readonly wait: number } {
    let busy = this.failed === null ? this.succeeded : mergeIntervals(this.succeeded, this.failed);
    if (this.job.spec.podReplacementPolicy === 'Failed') {
      busy = withIndexes(
        busy,
        this.terminating.map((pod) => completionIndexOf(pod) ?? -1),
      );
    }
    const activeIndexes = this.active
      .map(completionIndexOf)
      .filter((index): index is number => index !== null);
    const candidates = firstPendingIndexes(busy, activeIndexes, count, this.completions);
    if (this.failed === null) {
      return { indexes: candidates, wait: 0 };
    }
    const ready: number[] = [];
    let wait = Number.POSITIVE_INFINITY;
    for (const index of candidates) {
      const pod = this.delayed.get(index);
      const left =
        pod === undefined ? 0 : finishedTime(pod) + backoffSeconds(absoluteFailures(pod) + 1) - now;
      if (left <= 0) {
        ready.push(index);
      } else {
        wait = Math.min(wait, left);
      }
    }
    return { indexes: ready, wait: ready.length > 0 || !Number.isFinite(wait) ? 0 : wait };
  }

  /** The failure counts a new pod of `index` carries (backoffLimitPerIndex), from the pod it replaces. */
  failureCountsFor(index: number): IndexFailureCounts | null {
    if (this.failed === null) {
      return null;
    }
    const pod = this.delayed.get(index);
    if (pod === undefined) {
      return { counted: 0, ignored: 0 };
    }
    const counted = annotationCount(pod, JOB_INDEX_FAILURE_COUNT_ANNOTATION);
    const ignored = annotationCount(pod, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION);
    return matchPodFailurePolicy(this.job.spec.podFailurePolicy, failedPodView(pod)).countFailed
      ? { counted: counted + 1, ignored }
      : { counted, ignored: ignored + 1 };
  }
}

/** getIndexAbsoluteFailureCount: counted plus ignored failures of the index before this pod. */
function absoluteFailures(pod: SimPod): number {
  return (
    annotationCount(pod, JOB_INDEX_FAILURE_COUNT_ANNOTATION) +
    annotationCount(pod, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION)
  );
}
