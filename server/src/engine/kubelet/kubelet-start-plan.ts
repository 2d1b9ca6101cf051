/**
 * The plan of a pod's start on its node, as the kubelet's SyncPod goes (kuberuntime_manager.go): init containers
 * one by one (each pulled, created and started, and run to completion unless it is a sidecar), then the app
 * containers in order; each container's image is asked for when its turn comes (EnsureImageExists) and pulled
 * unless already there (one pull at a time per node with serializeImagePulls). Pulls are reserved on the node
 * when the plan is made, at bind time.
 */
import { normalizeImageName } from '../model/snapshot/pod-info';
import type { SimNode } from '../apiserver/cluster-state';
import type { ContainerTiming } from './pod-startup';
import {
  containerReadyTime,
  containerTimingsOf,
  effectivePullPolicy,
  sidecarStartedTime,
} from './pod-startup';
import type { ContainerList } from './kubelet-events';
import type { TimingSettings } from '../sim/timing-settings';
import type { SimPod } from '../apiserver/sim-pod';
import { maxOf } from '../../../../protocol/collections';

/** How a container's image was made ready. */
export type PullOutcome =
  | { readonly kind: 'present' }
  | { readonly kind: 'pulled'; readonly pulledAt: number; readonly pullSeconds: number }
  | { readonly kind: 'never' };

/** One container's part of the start. */
export interface ContainerStep {
  readonly list: ContainerList;
  readonly name: string;
  readonly image: string;
  /** When the kubelet asks for its image. */
  readonly requestAt: number;
  readonly pull: PullOutcome;
  /** When it is created and started; null when its image never comes. */
  readonly startedAt: number | null;
}

/** The plan of a pod's start. */
export interface StartPlan {
  /** The containers in the order the kubelet reaches them (stopping at one whose image never comes). */
  readonly steps: readonly ContainerStep[];
  /** When every container runs; null when the pod can never start. */
  readonly runningAt: number | null;
  /** When the pod is Ready. */
  readonly readyAt: number | null;
}

/** Plans the start of a pod bound at `now` on `node`; reserves its image pulls on the node. */
export function planStart(pod: SimPod, node: SimNode, now: number, settings: TimingSettings): StartPlan {
  const spec = pod.object.spec ?? {};
  const steps: ContainerStep[] = [];
  let time = now;
  const readiness: number[] = [];
  const take = (container: ContainerTiming, list: ContainerList): number | null => {
    const image = typeof container.image === 'string' ? container.image : '';
    const requestAt = time;
    const pull = pullImage(node, container, image, time, settings);
    const ready = pull.kind === 'never' ? null : pull.kind === 'pulled' ? pull.pulledAt : requestAt;
    const startedAt = ready === null ? null : ready + settings.containerStartSeconds;
    steps.push({ list, name: container.name ?? '', image, requestAt, pull, startedAt });
    return startedAt;
  };
  for (const container of containerTimingsOf(spec.initContainers)) {
    const started = take(container, 'initContainers');
    if (started === null) {
      return { steps, runningAt: null, readyAt: null };
    }
    time = started;
    if (container.restartPolicy === 'Always') {
      readiness.push(containerReadyTime(time, container, settings.appStartSeconds));
      time = sidecarStartedTime(time, container, settings.appStartSeconds);
    } else {
      time += settings.initContainerSeconds;
    }
  }
  for (const container of containerTimingsOf(spec.containers)) {
    const started = take(container, 'containers');
    if (started === null) {
      return { steps, runningAt: null, readyAt: null };
    }
    time = started;
    readiness.push(containerReadyTime(time, container, settings.appStartSeconds));
  }
  return { steps, runningAt: time, readyAt: maxOf(readiness, time) };
}

/** Makes a container's image ready on the node from `time`: already there, pulled, or never (pull policy Never). */
function pullImage(
  node: SimNode,
  container: ContainerTiming,
  image: string,
  time: number,
  settings: TimingSettings,
): PullOutcome {
  const known = node.imageReadyAt.get(image) ?? (isPreloaded(node, image, settings) ? 0 : undefined);
  const policy = effectivePullPolicy(container);
  if (known !== undefined && known <= time && policy !== 'Always') {
    return { kind: 'present' };
  }
  if (known !== undefined) {
    // Another pod's pull of the same image: this one waits for it, then finds the image there.
    return { kind: 'pulled', pulledAt: Math.max(time, known), pullSeconds: 0 };
  }
  if (policy === 'Never') {
    return { kind: 'never' };
  }
  const seconds = settings.imagePullSecondsByImage[image] ?? settings.imagePullSeconds;
  const start = settings.serializeImagePulls ? Math.max(time, node.pullFreeAt) : time;
  const done = start + seconds;
  if (settings.serializeImagePulls) {
    node.pullFreeAt = done;
  }
  node.imageReadyAt.set(image, done);
  return { kind: 'pulled', pulledAt: done, pullSeconds: seconds };
}

function isPreloaded(node: SimNode, image: string, settings: TimingSettings): boolean {
  if (
    settings.presentImages.includes(image) ||
    (settings.presentImagesByNode[node.name] ?? []).includes(image)
  ) {
    return true;
  }
  const normalized = normalizeImageName(image);
  return node.info.imageStates.has(image) || node.info.imageStates.has(normalized);
}
