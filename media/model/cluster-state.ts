/**
 * The cluster at a playhead, folded from the timeline's events in order: each pod's phase and node, each
 * node's requested resources and conditions. Kept in typed arrays so that 5,000 pods replay at frame rate;
 * snapshots every few hundred events make seeking backwards as cheap as seeking forwards.
 */
import { ABSENT, holdsResources, PENDING, phaseIndex } from './phases';
import type { Timeline } from './timeline';

/** Node condition bits of ClusterState.nodeFlags. */
export const NODE_FLAGS = {
  present: 1,
  cordoned: 2,
  notReady: 4,
  tainted: 8,
  draining: 16,
  drained: 32,
  drainBlocked: 64,
} as const;

/** The cluster after `cursor` events. */
export class ClusterState {
  cursor = 0;
  readonly podPhase: Uint8Array;
  /** The node each pod is bound to, or -1. */
  readonly podNode: Int32Array;
  /** The last PodUnschedulable event of each pod, or -1 (cleared when the pod is scheduled). */
  readonly podUnschedulable: Int32Array;
  readonly nodeCpuMilli: Float64Array;
  readonly nodeMemoryBytes: Float64Array;
  readonly nodePods: Int32Array;
  readonly nodeAllocCpuMilli: Float64Array;
  readonly nodeAllocMemoryBytes: Float64Array;
  readonly nodeAllocPods: Int32Array;
  readonly nodeFlags: Uint8Array;

  constructor(pods: number, nodes: number) {
    this.podPhase = new Uint8Array(pods);
    this.podNode = new Int32Array(pods).fill(-1);
    this.podUnschedulable = new Int32Array(pods).fill(-1);
    this.nodeCpuMilli = new Float64Array(nodes);
    this.nodeMemoryBytes = new Float64Array(nodes);
    this.nodePods = new Int32Array(nodes);
    this.nodeAllocCpuMilli = new Float64Array(nodes);
    this.nodeAllocMemoryBytes = new Float64Array(nodes);
    this.nodeAllocPods = new Int32Array(nodes);
    this.nodeFlags = new Uint8Array(nodes);
  }

  /** A copy of this state. */
  clone(): ClusterState {
    const copy = new ClusterState(this.podPhase.length, this.nodeFlags.length);
    copy.copyFrom(this);
    return copy;
  }

  /** Overwrites this state with another of the same timeline. */
  copyFrom(other: ClusterState): void {
    this.cursor = other.cursor;
    this.podPhase.set(other.podPhase);
    this.podNode.set(other.podNode);
    this.podUnschedulable.set(other.podUnschedulable);
    this.nodeCpuMilli.set(other.nodeCpuMilli);
    this.nodeMemoryBytes.set(other.nodeMemoryBytes);
    this.nodePods.set(other.nodePods);
    this.nodeAllocCpuMilli.set(other.nodeAllocCpuMilli);
    this.nodeAllocMemoryBytes.set(other.nodeAllocMemoryBytes);
    this.nodeAllocPods.set(other.nodeAllocPods);
    this.nodeFlags.set(other.nodeFlags);
  }
}

/** The state before any event: nodes that no NodeAdded brings are there; pods no event mentions sit as reported. */
export function initialState(timeline: Timeline): ClusterState {
  const state = new ClusterState(timeline.pods.length, timeline.nodes.length);
  for (const node of timeline.nodes) {
    if (!node.isAddedLater) {
      state.nodeFlags[node.index] = NODE_FLAGS.present;
    }
  }
  for (const pod of timeline.pods) {
    if (pod.events.length === 0 && pod.report !== null) {
      // A report without a timeline: show its outcome from the start.
      state.podPhase[pod.index] = PENDING;
      const node = pod.report.nodeName === null ? -1 : timeline.nodeIndexOf(pod.report.nodeName);
      if (node >= 0) {
        bind(timeline, state, pod.index, node);
      }
    }
  }
  return state;
}

/** Applies the event at `state.cursor` and advances the cursor. */
export function applyNextEvent(timeline: Timeline, state: ClusterState): void {
  const index = state.cursor;
  const event = timeline.events[index];
  state.cursor = index + 1;
  if (event === undefined) {
    return;
  }
  const pod = timeline.eventPod[index] ?? -1;
  const node = timeline.eventNode[index] ?? -1;
  switch (event.type) {
    case 'PodCreated':
      // A pod running before the simulation comes with its node and phase (protocol/timeline.ts).
      if (pod >= 0) {
        unbind(timeline, state, pod);
        const phase = event.details?.phase;
        state.podPhase[pod] = phase === undefined ? PENDING : phaseIndex(phase);
        state.podUnschedulable[pod] = -1;
        if (node >= 0) {
          bind(timeline, state, pod, node);
        }
      }
      break;
    case 'PodScheduled':
      if (pod >= 0 && node >= 0) {
        state.podPhase[pod] = Math.max(state.podPhase[pod] ?? PENDING, PENDING);
        bind(timeline, state, pod, node);
        state.podUnschedulable[pod] = -1;
      }
      break;
    case 'PodUnschedulable':
      if (pod >= 0) {
        state.podPhase[pod] = PENDING;
        state.podUnschedulable[pod] = index;
      }
      break;
    case 'PodPhaseChanged':
      if (pod >= 0) {
        setPhase(timeline, state, pod, phaseIndex(event.details?.phase ?? 'Pending'));
      }
      break;
    case 'PodEvicted':
      if (pod >= 0) {
        setPhase(timeline, state, pod, phaseIndex('Evicted'));
      }
      break;
    case 'PodDeleted':
      if (pod >= 0) {
        setPhase(timeline, state, pod, phaseIndex('Deleted'));
      }
      break;
    case 'NodeAdded':
      if (node >= 0) {
        const allocatable = event.details?.allocatable;
        state.nodeFlags[node] = NODE_FLAGS.present;
        state.nodeAllocCpuMilli[node] = finite(allocatable?.cpuMilli);
        state.nodeAllocMemoryBytes[node] = finite(allocatable?.memoryBytes);
        state.nodeAllocPods[node] = finite(allocatable?.pods);
      }
      break;
    case 'NodeRemoved':
      // The cluster autoscaler deleted it; its pods' PodDeleted events came first.
      if (node >= 0) {
        state.nodeFlags[node] = 0;
      }
      break;
    case 'ScaleDown':
      // On the node: tainted ToBeDeletedByClusterAutoscaler (on a pod: its eviction, shown by PodEvicted).
      if (event.object.kind === 'Node') {
        setFlag(state, node, NODE_FLAGS.tainted);
      }
      break;
    case 'ScaleDownFailed':
      if (node >= 0) {
        state.nodeFlags[node] = (state.nodeFlags[node] ?? 0) & ~NODE_FLAGS.tainted;
      }
      break;
    case 'NodeCordoned':
      setFlag(state, node, NODE_FLAGS.cordoned);
      break;
    case 'NodeNotReady':
      setFlag(state, node, NODE_FLAGS.notReady);
      break;
    case 'NodeTainted':
      setFlag(state, node, NODE_FLAGS.tainted);
      break;
    case 'NodeUntainted':
      if (node >= 0) {
        state.nodeFlags[node] = (state.nodeFlags[node] ?? 0) & ~NODE_FLAGS.tainted;
      }
      break;
    case 'DrainStarted':
      setFlag(state, node, NODE_FLAGS.draining | NODE_FLAGS.cordoned);
      break;
    case 'DrainCompleted':
      if (node >= 0) {
        const flags = state.nodeFlags[node] ?? 0;
        state.nodeFlags[node] =
          (flags & ~(NODE_FLAGS.draining | NODE_FLAGS.drainBlocked)) | NODE_FLAGS.drained;
      }
      break;
    case 'DrainBlocked':
      setFlag(state, node, NODE_FLAGS.drainBlocked);
      break;
    case 'RolloutStep':
    case 'RolloutComplete':
    case 'ProgressDeadlineExceeded':
    case 'ScaleChanged':
    case 'FailedCreate':
    case 'SuccessfulRescale':
    case 'FailedGetResourceMetric':
    case 'NodeHasInsufficientMemory':
    case 'NodeHasSufficientMemory':
    case 'JobComplete':
    case 'JobFailed':
    case 'JobDeleted':
    case 'CronJobScheduled':
    case 'CronJobSkipped':
    case 'ClaimCreated':
    case 'ClaimBound':
    case 'ClaimDeleted':
    case 'ProvisioningFailed':
    case 'EvictionAllowed':
    case 'EvictionBlocked':
    case 'TriggeredScaleUp':
    case 'NotTriggerScaleUp':
    case 'KubernetesEvent':
    case 'ScenarioStep':
      // Workload, budget, bare Kubernetes and scenario events change no pod or node by themselves: the events that
      // follow do.
      break;
  }
}

function setFlag(state: ClusterState, node: number, flag: number): void {
  if (node >= 0) {
    state.nodeFlags[node] = (state.nodeFlags[node] ?? 0) | flag;
  }
}

function finite(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : 0;
}

function setPhase(timeline: Timeline, state: ClusterState, pod: number, phase: number): void {
  const node = state.podNode[pod] ?? -1;
  const wasHolding = node >= 0 && holdsResources(state.podPhase[pod] ?? ABSENT);
  const isHolding = node >= 0 && holdsResources(phase);
  state.podPhase[pod] = phase;
  if (wasHolding !== isHolding) {
    account(timeline, state, pod, node, isHolding ? 1 : -1);
  }
}

function bind(timeline: Timeline, state: ClusterState, pod: number, node: number): void {
  unbind(timeline, state, pod);
  state.podNode[pod] = node;
  if (holdsResources(state.podPhase[pod] ?? ABSENT)) {
    account(timeline, state, pod, node, 1);
  }
}

function unbind(timeline: Timeline, state: ClusterState, pod: number): void {
  const node = state.podNode[pod] ?? -1;
  if (node >= 0 && holdsResources(state.podPhase[pod] ?? ABSENT)) {
    account(timeline, state, pod, node, -1);
  }
  state.podNode[pod] = -1;
}

function account(timeline: Timeline, state: ClusterState, pod: number, node: number, sign: 1 | -1): void {
  const entry = timeline.pods[pod];
  if (entry === undefined) {
    return;
  }
  state.nodeCpuMilli[node] = (state.nodeCpuMilli[node] ?? 0) + sign * entry.cpuMilli;
  state.nodeMemoryBytes[node] = (state.nodeMemoryBytes[node] ?? 0) + sign * entry.memoryBytes;
  state.nodePods[node] = (state.nodePods[node] ?? 0) + sign;
}
