/**
 * A pod as the simulation tracks it: the scheduler's PodInfo plus what the API server and the kubelet know over
 * time (bound node, display phase, readiness, deletion). Only ClusterState changes these fields, so every change
 * is also a timeline event.
 */
import type { PodDisplayPhase, TimelineObjectRef } from '../../../../protocol/timeline';
import type { PodObject } from '../model/objects';
import type { PodInfo } from '../model/snapshot/pod-info';
import { listOf } from '../model/objects';

/** The controller that owns a pod (its ownerReference with controller: true). */
export interface ControllerRef {
  readonly kind: string;
  readonly name: string;
}

/** The workload a person wrote (the Deployment of a ReplicaSet's pod), as timeline events name it. */
export interface WorkloadRef {
  readonly kind: string;
  readonly name: string;
}

/** A container's waiting state as the pod's status shows it: reason and the kubelet's message. */
export interface PodWaiting {
  readonly reason: 'ContainerCreating' | 'CreateContainerConfigError' | 'InvalidImageName';
  readonly message: string;
  /** Path in the pod spec to the reference that keeps it from starting. */
  readonly path: readonly (string | number)[];
}

/** A simulated pod. */
export interface SimPod {
  /** "namespace/name". */
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  /** The pod as timeline events name it, one object shared by all of them. */
  readonly ref: TimelineObjectRef;
  readonly info: PodInfo;
  readonly object: PodObject;
  readonly labels: Readonly<Record<string, string>>;
  readonly controllerRef: ControllerRef | null;
  readonly workload: WorkloadRef | null;
  /** pod-template-hash or controller-revision-hash: which template revision the pod runs. */
  readonly revision: string | null;
  /** A StatefulSet pod's ordinal. */
  readonly ordinal: number | null;
  /** When it was created (simulated seconds; pods of the initial state are created at 0). */
  readonly createdAt: number;
  /** Creation order across the simulation (ties of createdAt). */
  readonly createdSeq: number;
  /** Whether it is a mirror pod (annotation kubernetes.io/config.mirror): kubectl drain skips those. */
  readonly isMirror: boolean;
  /** Whether it has an emptyDir volume (kubectl drain needs --delete-emptydir-data). */
  readonly hasLocalStorage: boolean;
  nodeName: string | null;
  phase: PodDisplayPhase;
  /** Whether its containers run (the kubelet started them). */
  isRunning: boolean;
  /** The Ready condition. */
  isReady: boolean;
  /** When Ready last became true, or null. */
  readySince: number | null;
  /** The deletion timestamp, or null. */
  deletionTime: number | null;
  /** Whether it is gone from the API server. */
  isGone: boolean;
  /** Bumped on every lifecycle change, so tasks planned for an older state do nothing. */
  lifecycleToken: number;
  /** The last FailedScheduling message (repeats are not recorded again). */
  lastUnschedulableMessage: string | null;
  /** Why the kubelet cannot start it (a missing ConfigMap, Secret or key), or null. */
  waiting: PodWaiting | null;
  /** status.phase once its containers ended for good (a Job's pod), else null. */
  terminal: 'Succeeded' | 'Failed' | null;
  /** When it reached that phase. */
  finishedAt: number | null;
  /** The exit code of its container's last run (a Job's pod), else null. */
  exitCode: number | null;
  /** Its containers' restarts in place (restartPolicy OnFailure). */
  restartCount: number;
  /** The DisruptionTarget condition: it was evicted (drain, taint-based eviction, preemption). */
  isDisruptionTarget: boolean;
}

/** The mirror-pod annotation the kubelet puts on static pods' API objects. */
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** What creating a SimPod needs. */
interface SimPodInput {
  readonly info: PodInfo;
  readonly workload: WorkloadRef | null;
  readonly revision: string | null;
  readonly ordinal?: number | null;
  /** Overrides the controller read from ownerReferences (pods of the initial state matched by selector). */
  readonly controllerRef?: ControllerRef | null;
  readonly createdAt: number;
  readonly createdSeq: number;
}

/** The controller of a pod object: its ownerReference with controller: true, or null. */
export function controllerRefOf(object: PodObject): ControllerRef | null {
  const owner = listOf(object.metadata?.ownerReferences).find((reference) => reference.controller === true);
  return owner?.kind !== undefined && owner.name !== undefined
    ? { kind: owner.kind, name: owner.name }
    : null;
}

/** Builds a pending SimPod around a PodInfo. */
export function newSimPod(input: SimPodInput): SimPod {
  const { info } = input;
  const object = info.pod;
  const annotations = object.metadata?.annotations ?? {};
  const volumes = listOf(
    (object.spec as { volumes?: readonly Record<string, unknown>[] } | undefined)?.volumes,
  );
  return {
    key: info.key,
    namespace: info.namespace,
    name: info.name,
    ref: { kind: 'Pod', namespace: info.namespace, name: info.name },
    info,
    object,
    labels: info.labels,
    controllerRef: input.controllerRef !== undefined ? input.controllerRef : controllerRefOf(object),
    workload: input.workload,
    revision: input.revision,
    ordinal: input.ordinal ?? null,
    createdAt: input.createdAt,
    createdSeq: input.createdSeq,
    isMirror: Object.prototype.hasOwnProperty.call(annotations, MIRROR_POD_ANNOTATION),
    hasLocalStorage: volumes.some(
      (volume: unknown) =>
        typeof volume === 'object' &&
        volume !== null &&
        (volume as Record<string, unknown>)['emptyDir'] !== undefined,
    ),
    nodeName: info.nodeName,
    phase: 'Pending',
    isRunning: false,
    isReady: false,
    readySince: null,
    deletionTime: null,
    isGone: false,
    lifecycleToken: 0,
    lastUnschedulableMessage: null,
    waiting: null,
    terminal: null,
    finishedAt: null,
    exitCode: null,
    restartCount: 0,
    isDisruptionTarget: false,
  };
}

/** Whether a pod counts as active for its controller: not finished, not being deleted, not gone (FilterActivePods). */
export function isActive(pod: SimPod): boolean {
  return pod.deletionTime === null && !pod.isGone && pod.terminal === null;
}

/** IsPodAvailable: ready for at least minReadySeconds at `now`. */
export function isAvailable(pod: SimPod, minReadySeconds: number, now: number): boolean {
  if (!pod.isReady || pod.deletionTime !== null || pod.readySince === null) {
    return false;
  }
  return minReadySeconds <= 0 || pod.readySince + minReadySeconds <= now;
}

/** When a ready pod becomes available, or null when it is not ready. */
export function availableAt(pod: SimPod, minReadySeconds: number): number | null {
  return pod.isReady && pod.readySince !== null ? pod.readySince + Math.max(0, minReadySeconds) : null;
}
