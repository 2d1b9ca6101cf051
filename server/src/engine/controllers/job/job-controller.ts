/**
 * The Job controller (syncJob): counts the pods that finished since the last sync, fails the Job when its
 * podFailurePolicy says FailJob, it passes backoffLimit (failed pods, or restarts of restartPolicy OnFailure pods),
 * its activeDeadlineSeconds, or (Indexed, backoffLimitPerIndex) maxFailedIndexes or its failed indexes; completes it
 * when completions pods (indexes) succeeded or its successPolicy matches; otherwise keeps min(parallelism, missing
 * completions) pods active, replacing failed ones after the exponential back-off (job-arithmetic.ts), or deletes
 * them while suspended. As in 1.31 and later, a finishing Job first gets FailureTarget or SuccessCriteriaMet, and
 * Failed or Complete once none of its pods is terminating. Pod events reach it batched one second later.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/job/job_controller.go
 * Simplified: pods are created in one go (no slow start), creation is not retried after the API server refuses a
 * pod, and the tracking finalizer is kept as a set of uncounted pods rather than on the pod objects.
 */
import { PRIORITY } from '../../sim/priorities';
import type { ControllerContext } from '../controller-context';
import type { BackoffRecord } from './job-arithmetic';
import {
  JOB_SYNC_BATCH_SECONDS,
  NO_BACKOFF,
  intervalsTotal,
  matchSuccessPolicy,
  newBackoffRecord,
  pastBackoffLimitOnFailure,
  remainingBackoffSeconds,
  wantedActivePods,
} from './job-arithmetic';
import { IndexedJobState } from './job-indexes';
import type { JobCondition, SimJob } from '../../apiserver/job-objects';
import { JOB_CONDITIONS, isJobFinished, jobCondition } from '../../apiserver/job-objects';
import { activePodsForRemoval, createJobPod, failedPodView, finishedTime, isPodFailed } from './job-pods';
import { countFinishedPods, enactFinished, jobConditionOf, setJobCondition } from './job-status';
import { matchPodFailurePolicy } from './pod-failure-policy';
import type { SimPod } from '../../apiserver/sim-pod';
import { isActive } from '../../apiserver/sim-pod';
import { recordSuccessfulDelete } from '../controller-events';

/** The reasons of a podFailurePolicy FailJob rule and of a matched successPolicy. */
const POD_FAILURE_POLICY_REASON = 'PodFailurePolicy';
const SUCCESS_POLICY_REASON = 'SuccessPolicy';

/** Keeps Jobs' pods and status. */
export class JobController {
  /** When each Job's pending sync runs (a later request is dropped, as the delaying queue drops it). */
  private readonly pending = new Map<string, number>();
  /** Pods not counted in their Job's status yet (they would still carry the tracking finalizer), by Job key. */
  private readonly uncounted = new Map<string, Map<string, SimPod>>();
  private readonly backoff = new Map<string, BackoffRecord>();

  constructor(private readonly context: ControllerContext) {
    const { state } = context;
    state.onPod((pod, change) => {
      if (pod.controllerRef?.kind !== 'Job') {
        return;
      }
      const key = `${pod.namespace}/${pod.controllerRef.name}`;
      if (change === 'created') {
        this.track(key, pod);
      }
      this.enqueue(key, JOB_SYNC_BATCH_SECONDS);
    });
    state.onJob((job, change) => {
      if (change === 'created') {
        this.enqueue(job.key, 0);
      }
    });
  }

  /** Syncs every Job (at the start of the simulation), adopting the pods that already run. */
  syncAll(): void {
    const { state } = this.context;
    for (const job of state.jobs.values()) {
      for (const pod of state.podsOf('Job', job.namespace, job.name)) {
        this.track(job.key, pod);
      }
      this.enqueue(job.key, 0);
    }
  }

  private track(key: string, pod: SimPod): void {
    const pods = this.uncounted.get(key) ?? new Map<string, SimPod>();
    pods.set(pod.key, pod);
    this.uncounted.set(key, pods);
  }

  /** Syncs the Job `delay` seconds from now, unless a sync is already due sooner. */
  private enqueue(key: string, delay: number): void {
    const sim = this.context.state.sim;
    const at = sim.now + Math.max(0, delay);
    const due = this.pending.get(key);
    if (due !== undefined && due <= at) {
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
    const job = state.jobs.get(key);
    if (job === undefined || job.deletedAt !== null || isJobFinished(job)) {
      this.backoff.delete(key);
      return;
    }
    const now = state.sim.now;
    const before = JSON.stringify(job.status);
    const existing = state.podsOf('Job', job.namespace, job.name);
    const tracked = [...(this.uncounted.get(key)?.values() ?? [])].sort(
      (a, b) => a.createdSeq - b.createdSeq,
    );
    const all = [...new Map([...existing, ...tracked].map((pod) => [pod.key, pod])).values()];
    const active = existing.filter(isActive);
    const terminatingPods = existing.filter((pod) => pod.deletionTime !== null && pod.terminal === null);
    let terminating = terminatingPods.length;
    const indexes = IndexedJobState.of(job, tracked, active, terminatingPods);
    const valid = tracked.filter((pod) => indexes === null || indexes.isValid(pod));
    const newSucceeded = valid.filter((pod) => pod.terminal === 'Succeeded');
    const newFailed = valid.filter((pod) => isPodFailed(job, pod));
    let succeeded = job.status.succeeded + newSucceeded.length;
    const failed = job.status.failed + newFailed.filter((pod) => this.countsFailure(job, pod)).length;
    if (job.status.startTime === null && !job.suspend) {
      job.status.startTime = now;
    }
    const record = newBackoffRecord(
      this.backoff.get(key) ?? NO_BACKOFF,
      newSucceeded.map(finishedTime),
      newFailed.map(finishedTime),
    );
    this.backoff.set(key, record);

    let finished = this.failureCondition(job, all, failed, now);
    if (indexes !== null) {
      succeeded = intervalsTotal(indexes.succeeded);
      const indexFailure = finished === null ? indexes.failureCondition() : null;
      if (indexFailure !== null) {
        finished = jobConditionOf('FailureTarget', indexFailure.reason, indexFailure.message, now);
      }
      if (finished === null) {
        const message = matchSuccessPolicy(job.spec.successPolicy, indexes.completions, indexes.succeeded);
        finished =
          message === null ? null : jobConditionOf('SuccessCriteriaMet', SUCCESS_POLICY_REASON, message, now);
      }
    }
    let activeCount = active.length;
    if (finished !== null) {
      for (const pod of active) {
        const why =
          finished.type === 'SuccessCriteriaMet' ? 'met its success criteria' : `failed (${finished.reason})`;
        state.deletePod(pod, `Deleting pod ${pod.name}: Job ${job.name} ${why}`);
        recordSuccessfulDelete(state, pod);
      }
      terminating += activeCount;
      activeCount = 0;
    } else {
      activeCount = this.manageJob(job, active, succeeded, terminating, record, indexes);
      const complete =
        job.spec.completions === null
          ? succeeded > 0 && activeCount === 0
          : succeeded >= job.spec.completions && activeCount === 0;
      if (complete) {
        const { reason, message } = JOB_CONDITIONS.completionsReached;
        finished = jobConditionOf('SuccessCriteriaMet', reason, message, now);
      } else {
        this.updateSuspended(job, now);
      }
    }
    job.status.active = activeCount;
    job.status.ready = active.filter((pod) => pod.isReady && pod.deletionTime === null).length;
    job.status.terminating = terminating;
    countFinishedPods(job, tracked, this.uncounted.get(key), finished, indexes, (pod) =>
      this.countsFailure(job, pod),
    );
    enactFinished(state, job, finished, terminating, now);
    if (JSON.stringify(job.status) !== before) {
      state.jobChanged(job, 'status');
    }
  }

  /** A podFailurePolicy FailJob, an earlier FailureTarget, backoffLimit or activeDeadlineSeconds. */
  private failureCondition(
    job: SimJob,
    pods: readonly SimPod[],
    failed: number,
    now: number,
  ): JobCondition | null {
    const met = jobCondition(job, 'SuccessCriteriaMet');
    if (met !== undefined) {
      return met;
    }
    const target = jobCondition(job, 'FailureTarget');
    if (target !== undefined) {
      return { ...target, type: 'Failed', time: now };
    }
    if (job.spec.podFailurePolicy !== null) {
      for (const pod of pods) {
        const message = isPodFailed(job, pod)
          ? matchPodFailurePolicy(job.spec.podFailurePolicy, failedPodView(pod)).jobFailureMessage
          : null;
        if (message !== null) {
          return jobConditionOf('FailureTarget', POD_FAILURE_POLICY_REASON, message, now);
        }
      }
    }
    const restarts = pods
      .filter((pod) => pod.terminal === null && !pod.isGone)
      .map((pod) => pod.restartCount);
    if (
      failed > job.spec.backoffLimit ||
      (job.spec.restartPolicy === 'OnFailure' && pastBackoffLimitOnFailure(restarts, job.spec.backoffLimit))
    ) {
      const { reason, message } = JOB_CONDITIONS.backoffLimitExceeded;
      return jobConditionOf('FailureTarget', reason, message, now);
    }
    const deadline = job.spec.activeDeadlineSeconds;
    if (deadline !== null && job.status.startTime !== null && !job.suspend) {
      const left = job.status.startTime + deadline - now;
      if (left <= 0) {
        const { reason, message } = JOB_CONDITIONS.deadlineExceeded;
        return jobConditionOf('FailureTarget', reason, message, now);
      }
      this.enqueue(job.key, left);
    }
    return null;
  }

  /** Whether a failed pod counts toward backoffLimit (a podFailurePolicy Ignore rule says not). */
  private countsFailure(job: SimJob, pod: SimPod): boolean {
    return matchPodFailurePolicy(job.spec.podFailurePolicy, failedPodView(pod)).countFailed;
  }

  /** manageJob: deletes or creates pods toward the wanted number; returns the active count. */
  private manageJob(
    job: SimJob,
    active: readonly SimPod[],
    succeeded: number,
    terminating: number,
    record: BackoffRecord,
    indexes: IndexedJobState | null,
  ): number {
    const { state, pods: factory } = this.context;
    if (job.suspend) {
      for (const pod of active) {
        state.deletePod(pod, `Deleting pod ${pod.name}: Job ${job.name} is suspended`);
        recordSuccessfulDelete(state, pod);
      }
      return 0;
    }
    const want = wantedActivePods(job.spec.parallelism, job.spec.completions, succeeded, active.length);
    const excess = activePodsForRemoval(job, active, Math.max(0, active.length - want));
    if (excess.length > 0) {
      for (const pod of excess) {
        state.deletePod(pod, `Deleting pod ${pod.name}: too many pods running for Job ${job.name}`);
        recordSuccessfulDelete(state, pod);
      }
      return active.length - excess.length;
    }
    const replacing = job.spec.podReplacementPolicy === 'Failed' ? terminating : 0;
    let diff = want - replacing - active.length;
    if (diff <= 0) {
      return active.length;
    }
    let toCreate: (number | null)[] = Array.from({ length: diff }, () => null);
    if (indexes === null || job.spec.backoffLimitPerIndex === null) {
      const wait = remainingBackoffSeconds(record, state.sim.now);
      if (wait > 0) {
        this.enqueue(job.key, Math.max(wait, JOB_SYNC_BATCH_SECONDS));
        return active.length;
      }
    }
    if (indexes !== null) {
      const ready = indexes.pendingIndexes(diff, state.sim.now);
      if (ready.indexes.length === 0 && ready.wait > 0) {
        this.enqueue(job.key, Math.max(ready.wait, JOB_SYNC_BATCH_SECONDS));
        return active.length;
      }
      toCreate = ready.indexes;
      diff = toCreate.length;
    }
    let created = 0;
    for (const index of toCreate) {
      const failures = index === null ? null : (indexes?.failureCountsFor(index) ?? null);
      if (createJobPod(state, factory, job, index, failures) === null) {
        break;
      }
      created++;
    }
    return active.length + created;
  }

  /** The Suspended condition (JobSuspended / JobResumed); a resumed Job's startTime restarts. */
  private updateSuspended(job: SimJob, now: number): void {
    const current = job.status.conditions.find((entry) => entry.type === 'Suspended');
    if (job.suspend && current?.status !== 'True') {
      setJobCondition(job, { ...jobConditionOf('Suspended', 'JobSuspended', 'Job suspended', now) });
    } else if (!job.suspend && current?.status === 'True') {
      setJobCondition(job, {
        ...jobConditionOf('Suspended', 'JobResumed', 'Job resumed', now),
        status: 'False',
      });
      job.status.startTime = now;
    }
  }
}
