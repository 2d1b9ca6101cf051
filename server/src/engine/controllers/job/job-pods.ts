/**
 * A Job's pods as the Job controller makes and reads them: the pod of a template (generateName "<job>-", for an
 * Indexed Job "<job>-<index>-" with the completion index annotation and label, hostname "<job>-<index>" and
 * JOB_COMPLETION_INDEX, with backoffLimitPerIndex the index's failure count), whether a pod counts as failed
 * (isPodFailed), the status a podFailurePolicy reads, and which active pods go first (activePodsForRemoval).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/job/job_controller.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/job/indexed_job_utils.go
 */
import { listOf } from '../../model/objects';
import {
  JOB_COMPLETION_INDEX_ANNOTATION,
  JOB_TRACKING_FINALIZER,
  addCompletionIndexEnv,
  indexedGenerateName,
} from '../../workloads/job';
import { asObject, cloneJson } from '../../model/json';
import { podsPrefix } from '../../workloads/names';
import { controllerReference, podFromTemplate } from '../../workloads/pod-builder';
import type { ClusterState } from '../../apiserver/cluster-state';
import { completionIndexOf } from '../../kubelet/job-pod-run';
import type { SimJob } from '../../apiserver/job-objects';
import type { PodFactory } from '../../apiserver/pod-factory';
import { podsToDelete } from '../pod-ranking';
import type { FailedPodView } from './pod-failure-policy';
import type { SimPod } from '../../apiserver/sim-pod';
import { podControlEvent } from '../../model/kubernetes-events';
import { appendAll } from '../../../../../protocol/collections';

/** The annotations with an index's failures so far (backoffLimitPerIndex), counted and ignored. */
export const JOB_INDEX_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
export const JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION =
  'batch.kubernetes.io/job-index-ignored-failure-count';

/** The exit code of a container stopped by its pod's deletion (SIGTERM: 128 + 15). */
const SIGTERM_EXIT_CODE = 143;

/** What a new pod of an index carries over from the failed pod it replaces. */
export interface IndexFailureCounts {
  readonly counted: number;
  readonly ignored: number;
}

/** Creates one pod of the Job (with `index` for an Indexed Job); null when the API server refuses it. */
export function createJobPod(
  state: ClusterState,
  factory: PodFactory,
  job: SimJob,
  index: number | null,
  failures: IndexFailureCounts | null,
): SimPod | null {
  const template = job.spec.template;
  let spec = asObject(template['spec']);
  const extraLabels: Record<string, string> = {};
  const extraAnnotations: Record<string, string> = {};
  let generateName = podsPrefix(job.name);
  if (index !== null) {
    spec = { ...cloneJson(spec), hostname: `${job.name}-${index}` };
    addCompletionIndexEnv(spec);
    extraAnnotations[JOB_COMPLETION_INDEX_ANNOTATION] = String(index);
    extraLabels[JOB_COMPLETION_INDEX_ANNOTATION] = String(index);
    generateName = indexedGenerateName(job.name, index);
    if (failures !== null) {
      extraAnnotations[JOB_INDEX_FAILURE_COUNT_ANNOTATION] = String(failures.counted);
      if (failures.ignored > 0) {
        extraAnnotations[JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] = String(failures.ignored);
      }
    }
  }
  const name = factory.names.generate(job.namespace, generateName, `${job.uid}/${job.podsCreated}`);
  job.podsCreated++;
  const json = podFromTemplate(
    template,
    {
      name,
      generateName,
      namespace: job.namespace,
      ownerReference: controllerReference('batch/v1', 'Job', job.name, job.uid),
      extraLabels,
      extraAnnotations,
      extraFinalizers: [JOB_TRACKING_FINALIZER],
    },
    spec,
  );
  const pod = factory.build(json, {
    source: job.templateSource,
    workload: job.cronJob === null ? { kind: 'Job', name: job.name } : { kind: 'CronJob', name: job.cronJob },
    revision: null,
  });
  if (pod !== null) {
    state.createPod(pod, `Created pod: ${pod.name}`, undefined, podControlEvent('SuccessfulCreate', pod));
  }
  return pod;
}

/**
 * isPodFailed: phase Failed; or, unless the Job replaces only failed pods (podReplacementPolicy Failed), deleted
 * before it succeeded. Here a deleted pod reaches phase Failed when it is gone.
 */
export function isPodFailed(job: SimJob, pod: SimPod): boolean {
  if (pod.terminal !== null) {
    return pod.terminal === 'Failed';
  }
  return job.spec.podReplacementPolicy === 'Failed' ? pod.isGone : pod.deletionTime !== null || pod.isGone;
}

/** When a pod finished (getFinishedTime): its containers' end, else its deletion, else its creation. */
export function finishedTime(pod: SimPod): number {
  return pod.finishedAt ?? pod.deletionTime ?? pod.createdAt;
}

/**
 * The status a podFailurePolicy reads: the first container's exit code (the others exited 0); a pod deleted while
 * running has every container stopped with 143; the DisruptionTarget condition of an evicted pod.
 */
export function failedPodView(pod: SimPod): FailedPodView {
  const names = listOf(pod.object.spec?.containers).map((container) => container.name ?? '');
  const killed = pod.terminal === null && pod.isRunning;
  const exitCodeOf = (position: number): number | null => {
    if (killed) {
      return SIGTERM_EXIT_CODE;
    }
    if (pod.exitCode === null) {
      return null;
    }
    return position === 0 ? pod.exitCode : 0;
  };
  return {
    namespace: pod.namespace,
    name: pod.name,
    containers: names.map((name, position) => ({ name, exitCode: exitCodeOf(position) })),
    initContainers: [],
    conditions: pod.isDisruptionTarget ? [{ type: 'DisruptionTarget', status: 'True' }] : [],
  };
}

/** An annotation's count (getIndexFailureCount): 0 when absent, malformed, negative or above MaxInt32. */
export function annotationCount(pod: SimPod, annotation: string): number {
  const value = pod.object.metadata?.annotations?.[annotation];
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    return 0;
  }
  const count = Number(value);
  return count > 2147483647 ? 0 : count;
}

/**
 * activePodsForRemoval: for an Indexed Job first the pods without a valid index and all but one of each repeated
 * index, then as many as still needed in deletion order (not ready before ready, …).
 */
export function activePodsForRemoval(job: SimJob, active: readonly SimPod[], atLeast: number): SimPod[] {
  const remove: SimPod[] = [];
  let left: SimPod[] = [...active];
  if (job.spec.completionMode === 'Indexed' && job.spec.completions !== null) {
    const completions = job.spec.completions;
    const byIndex = new Map<number, SimPod[]>();
    left = [];
    for (const pod of active) {
      const index = completionIndexOf(pod);
      if (index === null || index >= completions) {
        remove.push(pod);
      } else {
        byIndex.set(index, [...(byIndex.get(index) ?? []), pod]);
      }
    }
    for (const pods of [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, group]) => group)) {
      const ordered = podsToDelete(pods, [], pods.length);
      appendAll(remove, ordered.slice(0, -1));
      appendAll(left, ordered.slice(-1));
    }
  }
  if (remove.length < atLeast) {
    appendAll(remove, podsToDelete(left, [], atLeast - remove.length));
  }
  return remove;
}
