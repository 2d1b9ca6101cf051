/**
 * The kubelets of all nodes: start a pod bound to their node (mount its volumes, pull its images, run its init
 * containers one by one, start its containers, wait for its probes), and stop a deleted one within its grace
 * period. A pod whose ConfigMap or Secret is missing never starts (container-config.ts): it shows CannotStart with
 * the kubelet's FailedMount or Failed event and keeps its container's waiting reason. A node whose kubelet
 * died (node failure) does nothing more: its pods keep their state, a deleted pod stays Terminating.
 * The kubelet's container events (kubelet-events.ts: Pulling, Pulled, Created, Started, Killing, FailedMount,
 * Failed, ErrImageNeverPull) are recorded at their times, on the pod, from the node's kubelet.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/kuberuntime/kuberuntime_manager.go
 */
import { EVENT_COMPONENT } from '../model/kubernetes-events';
import { PRIORITY } from '../sim/priorities';
import type { KubernetesMinor } from '../version';
import type { ClusterState } from '../apiserver/cluster-state';
import {
  ContainerRefs,
  alreadyPresentMessage,
  containerEvent,
  createdMessage,
  killingMessage,
  neverPullMessage,
  pulledMessage,
  pullingMessage,
  startedMessage,
} from './kubelet-events';
import { planStart } from './kubelet-start-plan';
import { claimMountFailure } from './kubelet-volume-claims';
import type { StorageObjects } from '../model/snapshot/storage-objects';
import type { ContainerStep } from './kubelet-start-plan';
import { stopDurationSeconds, containerTimingsOf } from './pod-startup';
import type { SimPod } from '../apiserver/sim-pod';
import type { ConfigObjects } from '../model/load/config-objects';
import { checkPodConfig } from './container-config';
import type { ConfigAssumption } from './container-config';
import type { TimingSettings } from '../sim/timing-settings';
import { JobPodRuns, isJobPod } from './job-pod-run';
import type { Finding } from '../../../../protocol/finding';
import { engineFinding } from '../model/findings';

/** Starts and stops pods on their nodes. */
export class Kubelets {
  /** The references assumed to exist, once per template and object ("file#doc#Kind/ns/name"). */
  private readonly assumed = new Set<string>();
  /** The involved objects of pods' containers, shared by their events. */
  private readonly containerRefs = new ContainerRefs();
  /**
   * The container messages recorded so far, each kept once: they name only an image, a container and durations,
   * so the pods of a template repeat them, and the timeline keeps every event.
   */
  private readonly messages = new Map<string, string>();
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
    private readonly version: KubernetesMinor = '1.35',
    private readonly storage?: StorageObjects,
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
    const token = pod.lifecycleToken;
    const isCurrent = (): boolean => pod.lifecycleToken === token && node.isKubeletAlive;
    const check = checkPodConfig(pod.object.spec, pod.namespace, this.configObjects);
    this.noteAssumptions(pod, check.assumptions);
    const claims =
      this.storage === undefined || (pod.object.spec?.nodeName ?? '') === ''
        ? null
        : claimMountFailure(this.storage, pod);
    if (claims !== null) {
      // A pod that named its node skipped VolumeBinding: the volume manager meets its claims first.
      pod.waiting = { reason: 'ContainerCreating', message: claims.message, path: claims.path };
      this.state.setPhase(pod, 'CannotStart', claims.message, {
        reason: 'FailedMount',
        component: EVENT_COMPONENT.kubelet,
        host: node.name,
        warning: true,
      });
      return;
    }
    const failure = check.failure;
    if (failure !== null && failure.container === null) {
      // Volumes are mounted before any container: no image is asked for.
      pod.waiting = { reason: failure.reason, message: failure.message, path: failure.path };
      this.state.setPhase(pod, 'CannotStart', failure.event.message, {
        reason: failure.event.reason,
        component: EVENT_COMPONENT.kubelet,
        host: node.name,
        warning: true,
      });
      return;
    }
    const plan = planStart(pod, node, sim.now, this.settings);
    const failing =
      failure === null
        ? -1
        : plan.steps.findIndex((step) => step.list === failure.path[0] && step.name === failure.container);
    const steps = failing < 0 ? plan.steps : plan.steps.slice(0, failing + 1);
    const ending = failing >= 0 ? 'fails' : plan.runningAt === null ? 'stuck' : 'runs';
    const events = this.containerEvents(pod, node.name, steps, ending);
    const [first, ...later] = events;
    this.state.setPhase(pod, 'ContainerCreating', first?.message ?? 'Created pod sandbox', first?.kube);
    for (const event of later) {
      sim.at(event.time, PRIORITY.kubelet, () => {
        if (isCurrent()) {
          this.state.recordEvent(event.kube, event.message, node.name, pod);
        }
      });
    }
    const failingStep = failing < 0 ? undefined : plan.steps[failing];
    if (failure !== null && failingStep !== undefined) {
      // The container is created once its image is there: CreateContainerConfigError then.
      const at = failingStep.pull.kind === 'pulled' ? failingStep.pull.pulledAt : failingStep.requestAt;
      sim.at(at, PRIORITY.kubelet, () => {
        if (isCurrent()) {
          pod.waiting = { reason: failure.reason, message: failure.message, path: failure.path };
          const kube = containerEvent(
            failure.event.reason,
            this.containerRefs,
            pod,
            node.name,
            failingStep,
            true,
          );
          this.state.setPhase(pod, 'CannotStart', failure.event.message, kube);
        }
      });
      return;
    }
    const last = plan.steps.at(-1);
    if (plan.runningAt === null || last === undefined) {
      return;
    }
    sim.at(plan.runningAt, PRIORITY.kubelet, () => {
      if (isCurrent()) {
        const kube = containerEvent('Started', this.containerRefs, pod, node.name, last);
        this.state.setPhase(pod, 'Running', this.shared(startedMessage(last.name)), kube);
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

  /**
   * The kubelet's container events of the plan in order: for each container, Pulling (or Pulled when its image is
   * there, ErrImageNeverPull when it never comes), Pulled once pulled, Created and Started. The last container
   * is not created when the start `fails` there, and its Started is left out when the pod `runs` (the Running
   * phase change records it).
   */
  private containerEvents(
    pod: SimPod,
    node: string,
    steps: readonly ContainerStep[],
    ending: 'runs' | 'fails' | 'stuck',
  ): { time: number; message: string; kube: ContainerKubeEvent }[] {
    const events: { time: number; message: string; kube: ContainerKubeEvent }[] = [];
    const add = (
      time: number,
      reason: string,
      step: ContainerStep,
      message: string,
      warning = false,
    ): void => {
      events.push({
        time,
        message: this.shared(message),
        kube: containerEvent(reason, this.containerRefs, pod, node, step, warning),
      });
    };
    steps.forEach((step, index) => {
      const { pull } = step;
      if (pull.kind === 'never') {
        add(step.requestAt, 'ErrImageNeverPull', step, neverPullMessage(step.image), true);
        return;
      }
      if (pull.kind === 'present') {
        add(step.requestAt, 'Pulled', step, alreadyPresentMessage(step.image, this.version));
      } else {
        add(step.requestAt, 'Pulling', step, pullingMessage(step.image));
        const waited = pull.pulledAt - step.requestAt;
        add(pull.pulledAt, 'Pulled', step, pulledMessage(step.image, pull.pullSeconds, waited));
      }
      const isLast = index === steps.length - 1;
      if (step.startedAt !== null && !(isLast && ending === 'fails')) {
        add(step.startedAt, 'Created', step, createdMessage(step.name));
        if (!(isLast && ending === 'runs')) {
          add(step.startedAt, 'Started', step, startedMessage(step.name));
        }
      }
    });
    return events;
  }

  /** The message, as the first event that had it keeps it (one string kept for many equal ones). */
  private shared(message: string): string {
    const known = this.messages.get(message);
    if (known !== undefined) {
      return known;
    }
    this.messages.set(message, message);
    return message;
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
    if (pod.isRunning) {
      // killContainer: Killing for each running container (sidecars too), once the controller's call is done.
      const running = [
        ...containers.map((container) => ({ list: 'containers' as const, name: container.name ?? '' })),
        ...containerTimingsOf(pod.object.spec?.initContainers)
          .filter((container) => container.restartPolicy === 'Always')
          .map((container) => ({ list: 'initContainers' as const, name: container.name ?? '' })),
      ];
      state.sim.at(state.sim.now, PRIORITY.kubelet, () => {
        if (node.isKubeletAlive) {
          for (const container of running) {
            const kube = containerEvent('Killing', this.containerRefs, pod, node.name, container);
            state.recordEvent(kube, this.shared(killingMessage(container.name)), node.name, pod);
          }
        }
      });
    }
    const delay = pod.isRunning ? stopDurationSeconds({ ...pod.object.spec, containers }, this.settings) : 0;
    state.sim.after(delay, PRIORITY.kubelet, () => {
      if (pod.lifecycleToken === token && node.isKubeletAlive) {
        state.removePod(pod, `Deleted pod: ${pod.name}`);
      }
    });
  }
}

/** A kubelet container event (its involved object is always set). */
type ContainerKubeEvent = ReturnType<typeof containerEvent>;
