/**
 * The kubelet's part of a Job's pod once its containers run: they run jobPodRunSeconds (per image:
 * jobPodRunSecondsByImage; the slowest container decides) and exit, with 0 unless timing jobPodFailures makes this
 * run fail. With restartPolicy Never the pod ends Succeeded or Failed (terminated reason Completed or Error); with
 * OnFailure a failed container restarts in place after the kubelet's crash-loop back-off (10s doubling up to 5
 * minutes), each restart counted in restartCount, and the pod ends Succeeded once a run exits 0.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/kuberuntime/kuberuntime_manager.go
 * Simplified: every container of the pod exits at the same time and the failing run's exit code is the first
 * container's; sidecars stop with them; the back-off is not reset after a long successful run.
 */
import { listOf } from '../model/objects';
import { PRIORITY } from '../sim/priorities';
import type { ClusterState } from '../apiserver/cluster-state';
import type { SimPod } from '../apiserver/sim-pod';
import type { JobPodFailure, TimingSettings } from '../sim/timing-settings';
import { JOB_COMPLETION_INDEX_ANNOTATION } from '../workloads/job';
import { maxOf } from '../../../../protocol/collections';

/** The kubelet's crash-loop back-off: initial delay and cap (backOffPeriod, MaxContainerBackOff). */
const CRASH_LOOP_BACKOFF_SECONDS = 10;
const MAX_CRASH_LOOP_BACKOFF_SECONDS = 300;

/** The kubelet's delay before the `restart`-th restart (1-based) of a failing container. */
export function crashLoopBackoffSeconds(restart: number): number {
  return Math.min(CRASH_LOOP_BACKOFF_SECONDS * 2 ** Math.max(0, restart - 1), MAX_CRASH_LOOP_BACKOFF_SECONDS);
}

/** Whether a pod is a Job's (its containers run to completion). */
export function isJobPod(pod: SimPod): boolean {
  return pod.controllerRef?.kind === 'Job';
}

/** A pod's completion index (annotation batch.kubernetes.io/job-completion-index), or null. */
export function completionIndexOf(pod: SimPod): number | null {
  const value = pod.object.metadata?.annotations?.[JOB_COMPLETION_INDEX_ANNOTATION];
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : null;
}

/** How long a pod's containers run: the slowest container's jobPodRunSecondsByImage, else jobPodRunSeconds. */
export function jobPodRunSeconds(
  images: readonly string[],
  settings: Pick<TimingSettings, 'jobPodRunSeconds' | 'jobPodRunSecondsByImage'>,
): number {
  const seconds = images.map((image) => settings.jobPodRunSecondsByImage[image] ?? settings.jobPodRunSeconds);
  return seconds.length === 0 ? settings.jobPodRunSeconds : maxOf(seconds);
}

/** Runs Job pods' containers to their exit. */
export class JobPodRuns {
  /** Runs started so far per Job, or per Job and completion index ("ns/job#2"). */
  private readonly runs = new Map<string, number>();

  constructor(
    private readonly state: ClusterState,
    private readonly settings: TimingSettings,
  ) {}

  /** The containers of `pod` run from `from`: plans their exit (and, with OnFailure, their restarts). */
  run(pod: SimPod, from: number, isCurrent: () => boolean): void {
    const spec = pod.object.spec ?? {};
    const containers = listOf(spec.containers);
    const images = containers.map((container) => container.image ?? '');
    const name = containers[0]?.name ?? '';
    const exitCode = this.nextExitCode(pod);
    const state = this.state;
    state.sim.at(from + jobPodRunSeconds(images, this.settings), PRIORITY.kubelet, () => {
      if (!isCurrent()) {
        return;
      }
      if (exitCode === 0) {
        state.finishPod(pod, 'Succeeded', 0, `Container ${name} terminated: Completed (exit code 0)`);
      } else if ((spec as { restartPolicy?: unknown }).restartPolicy === 'OnFailure') {
        this.restart(pod, name, exitCode, isCurrent);
      } else {
        state.finishPod(
          pod,
          'Failed',
          exitCode,
          `Container ${name} terminated: Error (exit code ${exitCode})`,
        );
      }
    });
  }

  private restart(pod: SimPod, name: string, exitCode: number, isCurrent: () => boolean): void {
    const state = this.state;
    const message = `Back-off restarting failed container ${name} in pod ${pod.name} (exit code ${exitCode})`;
    state.containerExited(pod, exitCode, message);
    state.sim.after(crashLoopBackoffSeconds(pod.restartCount + 1), PRIORITY.kubelet, () => {
      if (!isCurrent()) {
        return;
      }
      state.restartContainer(pod, `Restarting container ${name} (restart ${pod.restartCount + 1})`);
      const started = state.sim.now + this.settings.containerStartSeconds;
      state.sim.at(started, PRIORITY.kubelet, () => {
        if (isCurrent()) {
          state.setPhase(pod, 'Ready', `Started container ${name}`);
          this.run(pod, started, isCurrent);
        }
      });
    });
  }

  /** The exit code of the pod's next run: a failure while jobPodFailures says so, else 0. */
  private nextExitCode(pod: SimPod): number {
    const failure = this.failureOf(pod);
    const index = completionIndexOf(pod);
    const key = `${pod.namespace}/${pod.controllerRef?.name ?? ''}${index === null ? '' : `#${index}`}`;
    const run = this.runs.get(key) ?? 0;
    this.runs.set(key, run + 1);
    return failure !== undefined && (failure.count === null || run < failure.count) ? failure.exitCode : 0;
  }

  private failureOf(pod: SimPod): JobPodFailure | undefined {
    const failures = this.settings.jobPodFailures;
    const byJob = failures[`${pod.namespace}/${pod.controllerRef?.name ?? ''}`];
    if (byJob !== undefined || pod.workload?.kind !== 'CronJob') {
      return byJob;
    }
    return failures[`${pod.namespace}/${pod.workload.name}`];
  }
}
