/**
 * The replay index of a report: nodes and pods numbered, every event resolved to its pod and node, and the
 * rollouts and disruption-budget verdicts found among the events. Built once per report; the cluster state at
 * any playhead is then folded from it (cluster-state.ts). The panel replays events only: it never re-decides
 * anything the engine decided.
 */
import type { TimelineEvent, TimelineObjectRef } from '../../protocol/timeline';
import type { PanelNode, PanelPod, PanelReport } from '../../protocol/webview-messages';
import { TimeScale } from './time-scale';

/** A pod of the timeline. */
export interface PodEntry {
  readonly index: number;
  /** "namespace/name". */
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly owner: { readonly kind: string; readonly name: string } | null;
  readonly revision: 'old' | 'new' | null;
  readonly cpuMilli: number;
  readonly memoryBytes: number;
  /** The report's entry for the pod (absent for pods a rollout deleted before the end). */
  readonly report: PanelPod | null;
  /** Indices of the events about this pod, in order. */
  readonly events: number[];
}

/** A node of the timeline. */
interface NodeEntry {
  readonly index: number;
  readonly name: string;
  readonly report: PanelNode | null;
  /** Whether a NodeAdded event brings the node in (else it is there from the start). */
  readonly isAddedLater: boolean;
}

/** A workload whose rollout the events follow. */
export interface RolloutEntry {
  /** "Kind namespace/name". */
  readonly key: string;
  readonly object: TimelineObjectRef;
  /** Indices of its RolloutStep, RolloutComplete and ProgressDeadlineExceeded events, in order. */
  readonly steps: readonly number[];
}

const POD_EVENT_TYPES = new Set<string>([
  'PodCreated',
  'PodScheduled',
  'PodUnschedulable',
  'PodPhaseChanged',
  'PodEvicted',
  'PodDeleted',
  'TriggeredScaleUp',
  'NotTriggerScaleUp',
]);
const ROLLOUT_EVENT_TYPES = new Set<string>(['RolloutStep', 'RolloutComplete', 'ProgressDeadlineExceeded']);
const BUDGET_EVENT_TYPES = new Set<string>(['EvictionAllowed', 'EvictionBlocked', 'DrainBlocked']);

/** The replay index of one report. */
export class Timeline {
  readonly events: readonly TimelineEvent[];
  /** Event times, for binary search. */
  readonly times: Float64Array;
  /** The pod index of each event, or -1. */
  readonly eventPod: Int32Array;
  /** The node index of each event, or -1. */
  readonly eventNode: Int32Array;
  readonly pods: PodEntry[] = [];
  readonly nodes: NodeEntry[] = [];
  readonly rollouts: RolloutEntry[] = [];
  /** Indices of the events that carry a disruption-budget verdict. */
  readonly budgetEvents: number[] = [];
  /** Simulated seconds from the start to the last event. */
  readonly duration: number;
  /** The time axis: bursts of activity at a readable scale, idle stretches as breaks (time-scale.ts). */
  readonly scale: TimeScale;
  private readonly podIndex = new Map<string, number>();
  private readonly nodeIndex = new Map<string, number>();

  constructor(readonly report: PanelReport) {
    this.events = sortedEvents(report.events ?? []);
    const count = this.events.length;
    this.times = new Float64Array(count);
    this.eventPod = new Int32Array(count).fill(-1);
    this.eventNode = new Int32Array(count).fill(-1);
    const addedLater = new Set<string>();
    for (const event of this.events) {
      if (event.type === 'NodeAdded') {
        addedLater.add(event.object.name);
      }
    }
    for (const node of report.cluster.nodes) {
      this.addNode(node.name, node, addedLater.has(node.name));
    }
    for (const pod of report.pods) {
      this.addPod(pod.namespace, pod.name, pod, null);
    }
    const rollouts = new Map<string, { object: TimelineObjectRef; steps: number[] }>();
    this.events.forEach((event, index) => {
      this.times[index] = timeOf(event);
      const nodeName = event.type === 'NodeAdded' ? event.object.name : event.node;
      if (nodeName !== null && nodeName !== '') {
        this.eventNode[index] =
          this.nodeIndex.get(nodeName) ?? this.addNode(nodeName, null, addedLater.has(nodeName));
      }
      if (POD_EVENT_TYPES.has(event.type)) {
        const pod = this.podFor(event);
        this.eventPod[index] = pod.index;
        pod.events.push(index);
      } else if (ROLLOUT_EVENT_TYPES.has(event.type)) {
        const key = `${event.object.kind} ${event.object.namespace ?? ''}/${event.object.name}`;
        const entry = rollouts.get(key) ?? { object: event.object, steps: [] };
        entry.steps.push(index);
        rollouts.set(key, entry);
      }
      if (BUDGET_EVENT_TYPES.has(event.type) && event.details?.disruptionBudget !== undefined) {
        this.budgetEvents.push(index);
      }
    });
    for (const [key, entry] of rollouts) {
      this.rollouts.push({ key, object: entry.object, steps: entry.steps });
    }
    this.duration = count === 0 ? 0 : Math.max(0, this.times[count - 1] ?? 0);
    this.scale = new TimeScale(this.times, this.duration);
  }

  /** The pod with this "namespace/name", if any. */
  podByKey(key: string): PodEntry | undefined {
    const index = this.podIndex.get(key);
    return index === undefined ? undefined : this.pods[index];
  }

  /** The index of the node with this name, or -1. */
  nodeIndexOf(name: string): number {
    return this.nodeIndex.get(name) ?? -1;
  }

  /** How many events happen at or before `time`: the cursor of a playhead at that time. */
  cursorAt(time: number): number {
    let low = 0;
    let high = this.times.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.times[middle] ?? 0) <= time) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }

  private addNode(name: string, report: PanelNode | null, isAddedLater: boolean): number {
    const index = this.nodes.length;
    this.nodes.push({ index, name, report, isAddedLater });
    this.nodeIndex.set(name, index);
    return index;
  }

  private addPod(
    namespace: string,
    name: string,
    report: PanelPod | null,
    created: TimelineEvent | null,
  ): PodEntry {
    const key = `${namespace}/${name}`;
    const existing = this.podByKey(key);
    const details = created?.details;
    if (existing !== undefined) {
      if (details === undefined) {
        return existing;
      }
      // A PodCreated event completes the report's entry with what only the timeline knows.
      const completed: PodEntry = {
        ...existing,
        owner: existing.owner ?? details.owner ?? null,
        revision: details.revision ?? existing.revision,
        cpuMilli: details.requests?.cpuMilli ?? existing.cpuMilli,
        memoryBytes: details.requests?.memoryBytes ?? existing.memoryBytes,
      };
      this.pods[existing.index] = completed;
      return completed;
    }
    const entry: PodEntry = {
      index: this.pods.length,
      key,
      namespace,
      name,
      owner: report?.owner ?? details?.owner ?? null,
      revision: details?.revision ?? null,
      cpuMilli: details?.requests?.cpuMilli ?? 0,
      memoryBytes: details?.requests?.memoryBytes ?? 0,
      report,
      events: [],
    };
    this.pods.push(entry);
    this.podIndex.set(key, entry.index);
    return entry;
  }

  private podFor(event: TimelineEvent): PodEntry {
    const namespace = event.object.namespace ?? 'default';
    const key = `${namespace}/${event.object.name}`;
    const existing = this.podByKey(key);
    if (event.type === 'PodCreated' || existing === undefined) {
      return this.addPod(namespace, event.object.name, existing?.report ?? null, event);
    }
    return existing;
  }
}

/** The events in time order; the engine's order among equal times is kept (a stable sort). */
function sortedEvents(events: readonly TimelineEvent[]): readonly TimelineEvent[] {
  for (let index = 1; index < events.length; index++) {
    const current = events[index];
    const previous = events[index - 1];
    if (current !== undefined && previous !== undefined && timeOf(current) < timeOf(previous)) {
      return [...events].sort((a, b) => timeOf(a) - timeOf(b));
    }
  }
  return events;
}

/** An event's time; a time that is not a finite, non-negative number reads as 0. */
function timeOf(event: TimelineEvent): number {
  return Number.isFinite(event.time) && event.time > 0 ? event.time : 0;
}
