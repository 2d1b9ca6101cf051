/**
 * The kubelets of all nodes: start a pod bound to their node (mount its volumes, pull its images, run its init
 * containers one by one, start its containers, wait for its probes), and stop a deleted one within its grace
 * period. A pod whose ConfigMap or Secret is missing never starts (container-config.ts): it shows CannotStart with
 * the kubelet's FailedMount or Failed event and keeps its container's waiting reason. A node whose kubelet
 * died (node failure) does nothing more: its pods keep their state, a deleted pod stays Terminating.
 * Event wording follows the kubelet's events (Pulling, "already present on machine", Started, Killing).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/kuberuntime/kuberuntime_manager.go
 */
import { normalizeImageName } from '../model/snapshot/pod-info';
import { PRIORITY } from '../sim/priorities';
import type { ClusterState, SimNode } from '../apiserver/cluster-state';
import type { ContainerTiming } from './pod-startup';
import {
  containerReadyTime,
  effectivePullPolicy,
  sidecarStartedTime,
  stopDurationSeconds,
  containerTimingsOf,
} from './pod-startup';
import type { SimPod } from '../apiserver/sim-pod';
import type { ConfigObjects } from '../model/load/config-objects';
import { checkPodConfig } from './container-config';
import type { ConfigAssumption } from './container-config';
import type { TimingSettings } from '../sim/timing-settings';
import { JobPodRuns, isJobPod } from './job-pod-run';
import type { Finding } from '../../../../protocol/finding';
import { engineFinding } from '../model/findings';

/** The plan of a pod's start, computed when it is bound. */
interface StartPlan {
  /** The ContainerCreating event's message. */
  readonly creatingMessage: string;
  /** When every container runs, and the Running event's message; null when the pod can never start. */
  readonly runningAt: number | null;
  readonly runningMessage: string;
  /** When the pod is Ready. */
  readonly readyAt: number | null;
}

/** Starts and stops pods on their nodes. */
export class Kubelets {
  /** The references assumed to exist, once per template and object ("file#doc#Kind/ns/name"). */
  private readonly assumed = new Set<string>();
  /** Job pods' containers run to completion (job-pod-run.ts). */
  private readonly jobRuns: JobPodRuns;

  constructor(
    private readonly state: ClusterState,
    private readonly settings: TimingSettings,
    private readonly configObjects: ConfigObjects = {
      keys: new Map(),
      listed: new Set(),
      covered: new Set(),
    },
    private readonly findings: Finding[] = [],
  ) {
    this.jobRuns = new JobPodRuns(state, settings);
    state.onPod((pod, change) => {
      if (change === 'scheduled') {
        this.start(pod);
      } else if (change === 'deleting') {
        this.stop(pod);
      }
    });
  }

  private start(pod: SimPod): void {
    const node = pod.nodeName === null ? undefined : this.state.nodes.get(pod.nodeName);
    if (node === undefined || !node.isKubeletAlive) {
      return;
    }
    const sim = this.state.sim;
    const plan = planStart(pod, node, sim.now, this.settings);
    this.state.setPhase(pod, 'ContainerCreating', plan.creatingMessage);
    const token = pod.lifecycleToken;
    const isCurrent = (): boolean => pod.lifecycleToken === token && node.isKubeletAlive;
    const check = checkPodConfig(pod.object.spec, pod.namespace, this.configObjects);
    this.noteAssumptions(pod, check.assumptions);
    if (check.failure !== null) {
      const failure = check.failure;
      // A volume fails before any container is created; a container's env when it would be created.
      const at = failure.container === null ? sim.now : (plan.runningAt ?? sim.now);
      sim.at(at, PRIORITY.kubelet, () => {
        if (isCurrent()) {
          pod.waiting = { reason: failure.reason, message: failure.message, path: failure.path };
          this.state.setPhase(pod, 'CannotStart', `${failure.event.reason}: ${failure.event.message}`);
        }
      });
      return;
    }
    if (plan.runningAt === null) {
      return;
    }
    sim.at(plan.runningAt, PRIORITY.kubelet, () => {
      if (isCurrent()) {
        this.state.setPhase(pod, 'Running', plan.runningMessage);
      }
    });
    if (isJobPod(pod)) {
      this.jobRuns.run(pod, plan.runningAt, isCurrent);
    }
    if (plan.readyAt !== null) {
      sim.at(plan.readyAt, PRIORITY.kubelet, () => {
        if (isCurrent()) {
          this.state.setPhase(
            pod,
            'Ready',
            'Pod is Ready: its containers started and passed their readiness probes',
          );
        }
      });
    }
  }

  /** Job pods already running at time 0 (the cluster file's) run jobPodRunSeconds more, then exit. */
  resumeJobPods(): void {
    for (const pod of this.state.pods.values()) {
      const node = pod.nodeName === null ? undefined : this.state.nodes.get(pod.nodeName);
      if (isJobPod(pod) && pod.isRunning && pod.terminal === null && node !== undefined) {
        const token = pod.lifecycleToken;
        this.jobRuns.run(pod, this.state.sim.now, () => pod.lifecycleToken === token && node.isKubeletAlive);
      }
    }
  }

  /** One information finding per template and reference the cluster cannot confirm. */
  private noteAssumptions(pod: SimPod, assumptions: readonly ConfigAssumption[]): void {
    const source = pod.info.source;
    for (const assumption of assumptions) {
      const key = `${source.file}#${source.documentIndex}#${assumption.kind}/${assumption.namespace}/${assumption.name}`;
      if (this.assumed.has(key)) {
        continue;
      }
      this.assumed.add(key);
      const message = `${assumption.kind} "${assumption.name}" is not in the manifests; the cluster is assumed to have it in namespace "${assumption.namespace}" (without it, the pods never start: ${assumption.without})`;
      this.findings.push(
        engineFinding('config-object-assumed', source, ['spec', ...assumption.path], message, {
          kind: assumption.kind,
        }),
      );
    }
  }

  private stop(pod: SimPod): void {
    const state = this.state;
    if (pod.nodeName === null) {
      // An unscheduled pod has no kubelet to wait for: the API server deletes it at once.
      state.removePod(pod, `Deleted pod: ${pod.name}`);
      return;
    }
    const node = state.nodes.get(pod.nodeName);
    if (node === undefined || !node.isKubeletAlive) {
      return;
    }
    const token = pod.lifecycleToken;
    const containers = containerTimingsOf(pod.object.spec?.containers);
    const delay = pod.isRunning ? stopDurationSeconds({ ...pod.object.spec, containers }, this.settings) : 0;
    state.sim.after(delay, PRIORITY.kubelet, () => {
      if (pod.lifecycleToken === token && node.isKubeletAlive) {
        state.removePod(pod, `Deleted pod: ${pod.name}`);
      }
    });
  }
}

/** Computes when a pod bound at `now` on `node` runs and becomes ready; reserves its image pulls on the node. */
function planStart(pod: SimPod, node: SimNode, now: number, settings: TimingSettings): StartPlan {
  const spec = pod.object.spec ?? {};
  const initContainers = containerTimingsOf(spec.initContainers);
  const containers = containerTimingsOf(spec.containers);
  let time = now;
  let creatingMessage: string | null = null;
  const pullOf = (container: ContainerTiming): number | null => {
    const pull = pullImage(node, container, time, settings);
    creatingMessage ??= pull.message;
    return pull.readyAt;
  };
  const readiness: number[] = [];
  for (const container of initContainers) {
    const pulled = pullOf(container);
    if (pulled === null) {
      return stuck(creatingMessage);
    }
    time = pulled + settings.containerStartSeconds;
    if (container.restartPolicy === 'Always') {
      readiness.push(containerReadyTime(time, container, settings.appStartSeconds));
      time = sidecarStartedTime(time, container, settings.appStartSeconds);
    } else {
      time += settings.initContainerSeconds;
    }
  }
  let lastName = '';
  for (const container of containers) {
    const pulled = pullOf(container);
    if (pulled === null) {
      return stuck(creatingMessage);
    }
    time = pulled + settings.containerStartSeconds;
    lastName = container.name ?? '';
    readiness.push(containerReadyTime(time, container, settings.appStartSeconds));
  }
  return {
    creatingMessage: creatingMessage ?? 'Created pod sandbox',
    runningAt: time,
    runningMessage: `Started container ${lastName}`,
    readyAt: Math.max(time, ...readiness),
  };
}

function stuck(message: string | null): StartPlan {
  return { creatingMessage: message ?? '', runningAt: null, runningMessage: '', readyAt: null };
}

/** Makes a container's image ready on the node from `time`: already there, pulled, or never (pull policy Never). */
function pullImage(
  node: SimNode,
  container: ContainerTiming,
  time: number,
  settings: TimingSettings,
): { readonly readyAt: number | null; readonly message: string } {
  const image = typeof container.image === 'string' ? container.image : '';
  const known = node.imageReadyAt.get(image) ?? (isPreloaded(node, image, settings) ? 0 : undefined);
  const policy = effectivePullPolicy(container);
  if (known !== undefined && known <= time && policy !== 'Always') {
    return { readyAt: time, message: `Container image "${image}" already present on machine` };
  }
  if (known !== undefined) {
    return { readyAt: Math.max(time, known), message: `Pulling image "${image}"` };
  }
  if (policy === 'Never') {
    return {
      readyAt: null,
      message: `Container image "${image}" is not present with pull policy of Never`,
    };
  }
  const seconds = settings.imagePullSecondsByImage[image] ?? settings.imagePullSeconds;
  const start = settings.serializeImagePulls ? Math.max(time, node.pullFreeAt) : time;
  const done = start + seconds;
  if (settings.serializeImagePulls) {
    node.pullFreeAt = done;
  }
  node.imageReadyAt.set(image, done);
  return { readyAt: done, message: `Pulling image "${image}"` };
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
