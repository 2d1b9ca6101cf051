/**
 * The simulated API server: every object of the cluster (nodes, pods, workloads, disruption budgets) and the watch
 * that tells controllers what changed. All pod and node changes go through it, and it writes the matching timeline
 * event, so the timeline is complete by construction (protocol/timeline.ts: the panel rebuilds the cluster from it).
 */
import type { PodDisplayPhase, TimelineEventDetails, TimelineEventType } from '../../../../protocol/timeline';
import { EventSources, timelineEvent } from '../model/kubernetes-events';
import type { InvolvedKubeEvent, KubeEvent } from '../model/kubernetes-events';
import { NodeInfo } from '../model/snapshot/node-info';
import type { NodeObject } from '../model/objects';
import type { Simulation } from '../sim/run-loop';
import type { TimelineRecorder } from '../sim/timeline-recorder';
import { ClusterWatch, controllerKey } from './cluster-watch';
import type { SimNode } from './cluster-watch';
import { UnschedulableMarks } from './unschedulable-marks';
import { RunningPodDetails } from './running-pod-details';
import type { SimPod } from './sim-pod';
import type { SimCronJob, SimJob } from './job-objects';
import type {
  SimDaemonSet,
  SimDeployment,
  SimDisruptionBudget,
  SimReplicaSet,
  SimStatefulSet,
} from './workload-objects';

/** What podSetOf returns for a controller without pods. */
const EMPTY_SET: ReadonlySet<SimPod> = new Set();

export { controllerKey } from './cluster-watch';
export type { JobChange, NodeChange, PodChange, SimNode } from './cluster-watch';

/** The cluster's objects over simulated time. */
export class ClusterState extends ClusterWatch {
  readonly pods = new Map<string, SimPod>();
  readonly nodes = new Map<string, SimNode>();
  readonly replicaSets = new Map<string, SimReplicaSet>();
  readonly deployments = new Map<string, SimDeployment>();
  readonly statefulSets = new Map<string, SimStatefulSet>();
  readonly daemonSets = new Map<string, SimDaemonSet>();
  readonly disruptionBudgets = new Map<string, SimDisruptionBudget>();
  /** Jobs by "namespace/name" (deleted ones stay, with deletedAt) and CronJobs. */
  readonly jobs = new Map<string, SimJob>();
  readonly cronJobs = new Map<string, SimCronJob>();
  private readonly byController = new Map<string, Set<SimPod>>();
  private readonly replicaSetsByDeployment = new Map<string, Set<SimReplicaSet>>();
  private readonly byNode = new Map<string, Set<SimPod>>();
  /** The pods the scheduler marked unschedulable since they were last bound (unschedulable-marks.ts). */
  private readonly markedUnschedulable = new UnschedulableMarks();
  private readonly eventSources = new EventSources();
  /** The details of a PodPhaseChanged event, one object per phase shared by all of them (events are never changed). */
  private readonly phaseDetailsByPhase = new Map<PodDisplayPhase, TimelineEventDetails>();
  private readonly runningDetails = new RunningPodDetails();
  private seq = 0;

  /**
   * The instant (epoch seconds) the simulation's t=0 stands for: after every start time of the cluster file, so
   * pods the simulation starts are younger than those that ran before (preemption weighs start times).
   */
  startEpoch = 0;

  constructor(
    readonly sim: Simulation,
    readonly timeline: TimelineRecorder,
  ) {
    super();
  }

  /** The next creation sequence number. */
  nextSeq(): number {
    return this.seq++;
  }

  /** Nodes in cluster order. */
  nodeList(): SimNode[] {
    return [...this.nodes.values()];
  }

  /** The pods (not gone) a controller owns. */
  podsOf(kind: string, namespace: string, name: string): SimPod[] {
    return [...this.podSetOf(kind, namespace, name)];
  }

  /** The same, without a copy: read it before changing pods. */
  podSetOf(kind: string, namespace: string, name: string): ReadonlySet<SimPod> {
    return this.byController.get(controllerKey(kind, namespace, name)) ?? EMPTY_SET;
  }

  /** Adds (or replaces) a ReplicaSet. */
  addReplicaSet(replicaSet: SimReplicaSet): void {
    const previous = this.replicaSets.get(replicaSet.key);
    if (previous?.deploymentKey !== undefined && previous.deploymentKey !== null) {
      this.replicaSetsByDeployment.get(previous.deploymentKey)?.delete(previous);
    }
    this.replicaSets.set(replicaSet.key, replicaSet);
    if (replicaSet.deploymentKey !== null) {
      let set = this.replicaSetsByDeployment.get(replicaSet.deploymentKey);
      if (set === undefined) {
        set = new Set();
        this.replicaSetsByDeployment.set(replicaSet.deploymentKey, set);
      }
      set.add(replicaSet);
    }
  }

  /** The ReplicaSets a Deployment owns, oldest first. */
  replicaSetsOf(deploymentKey: string): SimReplicaSet[] {
    const list = [...(this.replicaSetsByDeployment.get(deploymentKey) ?? [])];
    // Sets are added as they are created, so the list is almost always in order already: the Deployment sync
    // asks on every change of its pods, and a sort (stable, so a no-op on an ordered list) is then skipped.
    for (let i = 1; i < list.length; i++) {
      if ((list[i - 1] as SimReplicaSet).createdSeq > (list[i] as SimReplicaSet).createdSeq) {
        return list.sort((a, b) => a.createdSeq - b.createdSeq);
      }
    }
    return list;
  }

  /**
   * The pods of the cluster the scheduler marked unschedulable and that are not bound since (a pod whose node is
   * set skips the scheduler, and is marked again when its node is missing), in the order first marked. Read it
   * before changing pods.
   */
  unschedulablePods(): ReadonlySet<SimPod> {
    return this.markedUnschedulable.pods();
  }

  /** Changes whenever unschedulablePods(), or what the autoscaler's list reads of them, may have changed. */
  get unschedulableGeneration(): number {
    return this.markedUnschedulable.generation;
  }

  /** The pods (not gone) bound to a node. */
  podsOn(nodeName: string): SimPod[] {
    return [...this.podSetOn(nodeName)];
  }

  /** The same, without a copy: read it before changing pods. */
  podSetOn(nodeName: string): ReadonlySet<SimPod> {
    return this.byNode.get(nodeName) ?? EMPTY_SET;
  }

  /** Adds a node (its NodeInfo may already hold pods of the initial state). */
  addNode(info: NodeInfo, message: string): SimNode {
    const node: SimNode = {
      name: info.name,
      info,
      object: info.node,
      isKubeletAlive: true,
      imageReadyAt: new Map(),
      pullFreeAt: 0,
    };
    this.nodes.set(node.name, node);
    const allocatable = info.allocatable;
    this.recordNode('NodeAdded', node.name, message, {
      allocatable: {
        cpuMilli: allocatable.milliCpu,
        memoryBytes: allocatable.memory,
        pods: allocatable.allowedPodNumber,
      },
    });
    this.emitNode(node, 'added');
    return node;
  }

  /** Replaces a node's object (taints, spec.unschedulable), keeping its pods; records the change. */
  updateNode(
    node: SimNode,
    object: NodeObject,
    type: TimelineEventType,
    message: string,
    kube?: KubeEvent,
  ): void {
    const info = new NodeInfo(object, node.info.source, node.info.allocatable);
    info.imageStates = node.info.imageStates;
    for (const pod of node.info.pods) {
      info.addPod(pod);
    }
    node.info = info;
    node.object = object;
    this.recordNode(type, node.name, message, undefined, kube);
    this.emitNode(node, 'updated');
  }

  /**
   * Removes a node from the cluster (the cluster autoscaler deleted its instance): pods still bound to it are
   * gone with it (PodDeleted), then NodeRemoved.
   */
  removeNode(node: SimNode, message: string, kube?: KubeEvent): void {
    if (this.nodes.get(node.name) !== node) {
      return;
    }
    for (const pod of this.podsOn(node.name)) {
      this.removePod(pod, `Deleted pod: ${pod.name} (its node ${node.name} was removed)`);
    }
    node.isKubeletAlive = false;
    this.nodes.delete(node.name);
    this.byNode.delete(node.name);
    this.recordNode('NodeRemoved', node.name, message, undefined, kube);
    this.emitNode(node, 'removed');
  }

  /** Marks a node's kubelet as gone (the node failed); records nothing (NotReady comes later). */
  failNode(node: SimNode): void {
    node.isKubeletAlive = false;
    this.emitNode(node, 'failed');
  }

  /** Records a node event without changing the node. */
  recordNode(
    type: TimelineEventType,
    nodeName: string,
    message: string,
    details?: TimelineEventDetails,
    kube?: KubeEvent,
  ): void {
    const object = { kind: 'Node', name: nodeName };
    this.timeline.record(
      timelineEvent(this.sim.now, type, object, nodeName, message, details, kube, this.eventSources),
    );
  }

  /**
   * Records a Kubernetes Event that changes nothing else (KubernetesEvent): the kubelet's Pulled, Killing… Its
   * object is the involved object without a field path; `pod` gives a pod's shared reference instead of a copy.
   */
  recordEvent(kube: InvolvedKubeEvent, message: string, node: string | null, pod?: SimPod): void {
    const { kind, namespace, name } = kube.involvedObject;
    const object =
      pod !== undefined && kind === 'Pod' && pod.namespace === namespace && pod.name === name
        ? pod.ref
        : namespace === undefined
          ? { kind, name }
          : { kind, namespace, name };
    this.timeline.record(
      timelineEvent(
        this.sim.now,
        'KubernetesEvent',
        object,
        node,
        message,
        undefined,
        kube,
        this.eventSources,
      ),
    );
  }

  /** Creates a pod (PodCreated); `kube`: its controller's SuccessfulCreate. */
  createPod(pod: SimPod, message: string, revision?: 'old' | 'new', kube?: KubeEvent): void {
    this.storePod(pod);
    const requests = pod.info.requests;
    this.recordPod(
      'PodCreated',
      pod,
      message,
      {
        owner: pod.workload,
        ...(revision === undefined ? {} : { revision }),
        requests: { cpuMilli: requests.milliCpu, memoryBytes: requests.memory },
      },
      kube,
    );
    this.emitPod(pod, 'created');
  }

  /**
   * Adds a pod that runs before the simulation starts, on `nodeName` (whose NodeInfo already holds it), Ready or
   * Running but not Ready: one PodCreated event with its node and `details.phase`, the way a watch's initial list
   * delivers a running pod as one ADDED object, not as the creation, binding and start it went through before.
   * The watch hears the same changes as for a pod created, bound and started.
   */
  addRunningPod(pod: SimPod, nodeName: string, isReady: boolean, message: string): void {
    this.storePod(pod);
    this.placePod(pod, nodeName);
    const phase = isReady ? 'Ready' : 'Running';
    pod.phase = phase;
    pod.isRunning = true;
    pod.isReady = isReady;
    pod.readySince = isReady ? this.sim.now : null;
    this.recordPod(
      'PodCreated',
      pod,
      message,
      this.runningDetails.of(pod.workload, pod.info.requests, phase),
    );
    this.emitPod(pod, 'created');
    this.emitPod(pod, 'scheduled');
    this.emitPod(pod, isReady ? 'ready' : 'started');
  }

  /** Records that a pod is bound to a node (the scheduler already accounted it in the NodeInfo). */
  bindPod(pod: SimPod, nodeName: string, message: string, kube?: KubeEvent): void {
    this.placePod(pod, nodeName);
    this.recordPod('PodScheduled', pod, message, undefined, kube);
    this.emitPod(pod, 'scheduled');
  }

  /** Records a failed scheduling attempt (only when its message changed). */
  recordUnschedulable(pod: SimPod, message: string, kube?: KubeEvent): void {
    this.markedUnschedulable.mark(pod);
    if (pod.lastUnschedulableMessage === message) {
      return;
    }
    pod.lastUnschedulableMessage = message;
    this.recordPod('PodUnschedulable', pod, message, undefined, kube);
  }

  /** Changes a pod's display phase; Running and Ready also change what controllers see. */
  setPhase(pod: SimPod, phase: PodDisplayPhase, message: string, kube?: KubeEvent): void {
    pod.phase = phase;
    this.recordPod('PodPhaseChanged', pod, message, this.phaseDetails(phase), kube);
    if (phase === 'Running' && !pod.isRunning) {
      pod.isRunning = true;
      this.emitPod(pod, 'started');
    } else if (phase === 'Ready' && !pod.isReady) {
      pod.isRunning = true;
      pod.isReady = true;
      pod.readySince = this.sim.now;
      this.emitPod(pod, 'ready');
    }
  }

  /** The Ready condition turns false (node lifecycle controller's MarkPodsNotReady), phase unchanged. */
  markNotReady(pod: SimPod, message: string): void {
    if (!pod.isReady) {
      return;
    }
    pod.isReady = false;
    pod.readySince = null;
    pod.phase = 'Running';
    this.recordPod('PodPhaseChanged', pod, message, this.phaseDetails('Running'));
    this.emitPod(pod, 'unready');
  }

  /** Starts a graceful deletion; with `eviction`, a PodEvicted event comes first. */
  deletePod(
    pod: SimPod,
    message: string,
    eviction?: { readonly reason: string; readonly budget?: string; readonly kube?: KubeEvent },
  ): void {
    if (pod.deletionTime !== null || pod.isGone) {
      return;
    }
    if (eviction !== undefined) {
      const details = {
        reason: eviction.reason,
        ...(eviction.budget === undefined ? {} : { disruptionBudget: eviction.budget }),
      };
      this.recordPod('PodEvicted', pod, message, details, eviction.kube);
    }
    pod.deletionTime = this.sim.now;
    this.markedUnschedulable.touch(pod);
    pod.isDisruptionTarget ||= eviction !== undefined;
    pod.isReady = false;
    pod.lifecycleToken++;
    pod.phase = 'Terminating';
    this.recordPod(
      'PodPhaseChanged',
      pod,
      eviction === undefined ? message : 'Terminating',
      this.phaseDetails('Terminating'),
    );
    this.emitPod(pod, 'deleting');
  }

  /**
   * The kubelet saw the pod's containers end for good (a Job's pod): phase Succeeded or Failed. The scheduler no
   * longer counts a finished pod on its node (its informer drops terminal pods), so its resources are free. With
   * `eviction`, the kubelet evicted it (node pressure): a PodEvicted event first, display phase Evicted.
   */
  finishPod(
    pod: SimPod,
    phase: 'Succeeded' | 'Failed',
    exitCode: number,
    message: string,
    eviction?: { readonly reason: string; readonly kube?: KubeEvent },
  ): void {
    if (pod.isGone || pod.terminal !== null) {
      return;
    }
    if (eviction !== undefined) {
      // The kubelet's eviction manager: phase Failed, reason Evicted, the DisruptionTarget condition.
      this.recordPod('PodEvicted', pod, message, { reason: eviction.reason }, eviction.kube);
      pod.isDisruptionTarget = true;
    }
    pod.terminal = phase;
    this.markedUnschedulable.touch(pod);
    pod.finishedAt = this.sim.now;
    pod.exitCode = exitCode;
    pod.isRunning = false;
    pod.isReady = false;
    pod.readySince = null;
    pod.lifecycleToken++;
    pod.phase = eviction === undefined ? phase : 'Evicted';
    this.recordPod(
      'PodPhaseChanged',
      pod,
      eviction === undefined ? message : eviction.reason,
      this.phaseDetails(pod.phase),
    );
    if (pod.nodeName !== null) {
      this.nodes.get(pod.nodeName)?.info.removePod(pod.info);
    }
    this.emitPod(pod, 'finished');
  }

  /** A container exited and waits to restart in place (restartPolicy OnFailure): Running, not Ready. */
  containerExited(pod: SimPod, exitCode: number, message: string): void {
    pod.exitCode = exitCode;
    pod.isReady = false;
    pod.readySince = null;
    pod.phase = 'Running';
    this.recordPod('PodPhaseChanged', pod, message, this.phaseDetails('Running'));
    this.emitPod(pod, 'unready');
  }

  /** The kubelet started the container again: its restartCount grows (the Job controller counts restarts). */
  restartContainer(pod: SimPod, message: string): void {
    pod.restartCount++;
    this.recordPod('PodPhaseChanged', pod, message, this.phaseDetails('Running'));
    this.emitPod(pod, 'restarted');
  }

  /** Removes a pod for good (PodDeleted) and frees its node's resources unless `alreadyReleased`. */
  removePod(pod: SimPod, message: string, alreadyReleased = false): void {
    if (pod.isGone) {
      return;
    }
    pod.isGone = true;
    pod.isReady = false;
    pod.lifecycleToken++;
    pod.phase = 'Deleted';
    this.pods.delete(pod.key);
    this.markedUnschedulable.unmark(pod);
    if (pod.controllerRef !== null) {
      this.byController
        .get(controllerKey(pod.controllerRef.kind, pod.namespace, pod.controllerRef.name))
        ?.delete(pod);
    }
    if (pod.nodeName !== null) {
      this.byNode.get(pod.nodeName)?.delete(pod);
      if (!alreadyReleased) {
        this.nodes.get(pod.nodeName)?.info.removePod(pod.info);
      }
    }
    this.recordPod('PodDeleted', pod, message);
    this.emitPod(pod, 'gone');
  }

  /** Records an event about a workload (rollout steps, scaling, deadlines). */
  recordWorkload(
    type: TimelineEventType,
    kind: string,
    namespace: string,
    name: string,
    message: string,
    details?: TimelineEventDetails,
    kube?: KubeEvent,
  ): void {
    const object = { kind, namespace, name };
    this.timeline.record(
      timelineEvent(this.sim.now, type, object, null, message, details, kube, this.eventSources),
    );
  }

  /** Records an event about a PersistentVolumeClaim (created, bound, provisioning failed). */
  recordClaim(
    type: TimelineEventType,
    namespace: string,
    name: string,
    message: string,
    node: string | null,
    kube?: KubeEvent,
  ): void {
    const object = { kind: 'PersistentVolumeClaim', namespace, name };
    this.timeline.record(
      timelineEvent(this.sim.now, type, object, node, message, undefined, kube, this.eventSources),
    );
  }

  /** Stores a new pod under its key and its controller (a pod replacing one of the same key drops its mark). */
  private storePod(pod: SimPod): void {
    const replaced = this.pods.get(pod.key);
    if (replaced !== undefined) {
      this.markedUnschedulable.unmark(replaced);
    }
    this.pods.set(pod.key, pod);
    if (pod.controllerRef !== null) {
      const key = controllerKey(pod.controllerRef.kind, pod.namespace, pod.controllerRef.name);
      let set = this.byController.get(key);
      if (set === undefined) {
        set = new Set();
        this.byController.set(key, set);
      }
      set.add(pod);
    }
  }

  /** Sets a pod's node and files it under the node. */
  private placePod(pod: SimPod, nodeName: string): void {
    pod.nodeName = nodeName;
    this.markedUnschedulable.unmark(pod);
    // The kubelet sets status.startTime when it first sees the pod (a captured pod keeps its own).
    pod.info.startTime ??= this.startEpoch + this.sim.now;
    let set = this.byNode.get(nodeName);
    if (set === undefined) {
      set = new Set();
      this.byNode.set(nodeName, set);
    }
    set.add(pod);
    pod.lifecycleToken++;
  }

  /** The details `{ phase }` of a PodPhaseChanged event. */
  private phaseDetails(phase: PodDisplayPhase): TimelineEventDetails {
    let details = this.phaseDetailsByPhase.get(phase);
    if (details === undefined) {
      details = { phase };
      this.phaseDetailsByPhase.set(phase, details);
    }
    return details;
  }

  /** Records an event about a pod. */
  recordPod(
    type: TimelineEventType,
    pod: SimPod,
    message: string,
    details?: TimelineEventDetails,
    kube?: KubeEvent,
  ): void {
    this.timeline.record(
      timelineEvent(this.sim.now, type, pod.ref, pod.nodeName, message, details, kube, this.eventSources),
    );
  }
}
