/**
 * kube-scheduler over simulated time, reusing the engine's scheduler (scheduler/scheduler.ts) for every cycle: pods
 * wait in a queue ordered by priority then by when they were queued (PrioritySort); a pod that fits no node waits
 * among the unschedulable pods until the cluster changes (a pod leaves a node, a node is added or changes), then
 * retries after its backoff (podInitialBackoffSeconds doubling up to podMaxBackoffSeconds). A failed attempt is a
 * PodUnschedulable event with kube-scheduler's FailedScheduling message (repeats of one message are not recorded
 * again). When a Node object changes, the scheduler's cluster snapshot is rebuilt around the same pods.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/backend/queue/scheduling_queue.go
 * Simplified: every cluster change moves every unschedulable pod (no queueing hints), and a scheduling cycle
 * takes no simulated time.
 */
import { clearIfAny } from '../../model/clear-if-any';
import { Cluster } from '../../model/snapshot/cluster';
import { formatFitError } from '../framework/fit-error';
import type { FitError } from '../framework/fit-error';
import { buildFramework } from '../framework/build-framework';
import type { SchedulerFramework } from '../framework/framework';
import type { SchedulerProfile } from '../profile';
import type { RecordDetail, SchedulingRecord } from '../record';
import type { PluginRegistry } from '../registry';
import { EquivalenceCache } from '../equivalence-cache';
import type { PodClassKeys } from '../equivalence-cache';
import { Scheduler } from '../scheduler';
import { PRIORITY } from '../../sim/priorities';
import type { KubernetesMinor } from '../../version';
import type { ClusterState } from '../../apiserver/cluster-state';
import type { SimPod } from '../../apiserver/sim-pod';
import type { TimingSettings } from '../../sim/timing-settings';
import { EVENT_COMPONENT } from '../../model/kubernetes-events';
import type { KubeEvent } from '../../model/kubernetes-events';

/**
 * kube-scheduler's events (schedule_one.go; the preemption executor for Preempted, whose message names the
 * preemptor by UID: the pod's metadata.uid, or its namespace/name when it has none).
 */
const SCHEDULED: KubeEvent = { reason: 'Scheduled', component: EVENT_COMPONENT.scheduler };
const FAILED_SCHEDULING: KubeEvent = {
  reason: 'FailedScheduling',
  component: EVENT_COMPONENT.scheduler,
  warning: true,
};
const PREEMPTED: KubeEvent = { reason: 'Preempted', component: EVENT_COMPONENT.scheduler };

/** What the scheduler loop is built from. */
interface SchedulerSetup {
  readonly profiles: readonly SchedulerProfile[];
  readonly registry: PluginRegistry;
  readonly version: KubernetesMinor;
  readonly detail: RecordDetail;
  /** The cluster loaded from the input: PriorityClasses, namespace labels and description carry over. */
  readonly base: Cluster;
  /**
   * Whether failed verdicts are shared within pod classes (scheduler/equivalence-cache.ts; default true). The
   * results are the same either way: false is the reference the differential test compares against.
   */
  readonly equivalenceCache?: boolean;
  /** The pods' class keys, shared by the caches of the schedulers built one after another and the autoscaler's. */
  readonly podClassKeys?: PodClassKeys;
}

interface QueuedPod {
  readonly pod: SimPod;
  readonly seq: number;
  attempts: number;
  /** When it entered the queue (the tie-break after priority). */
  queuedAt: number;
  /** When it may be tried (backoff). */
  eligibleAt: number;
  lastAttempt: number;
}

/** Message for a pod that names (spec.nodeName) a node the cluster does not have. */
function missingNodeMessage(nodeName: string): string {
  return `spec.nodeName "${nodeName}" names no node of the cluster: no kubelet will run the pod and the scheduler ignores it`;
}

/** The scheduling of pods over time. */
export class SchedulerLoop {
  /** The last scheduling record of each pod, by key. */
  readonly records = new Map<string, SchedulingRecord>();
  private scheduler: Scheduler;
  private readonly active: QueuedPod[] = [];
  private readonly unschedulable = new Map<string, QueuedPod>();
  private readonly batchTimes = new Set<number>();
  private readonly fitErrorMessages = new WeakMap<FitError, string>();
  /** PreBind (VolumeBinding): runs for a pod between choosing its node and binding it. */
  preBind: ((pod: SimPod, node: { name: string; labels: Readonly<Record<string, string>> }) => void) | null =
    null;

  constructor(
    private readonly state: ClusterState,
    private readonly settings: TimingSettings,
    private readonly setup: SchedulerSetup,
  ) {
    this.scheduler = this.buildScheduler();
    state.onPod((pod, change) => {
      if (change === 'created') {
        this.add(pod);
      } else if ((change === 'gone' || change === 'finished') && pod.nodeName !== null) {
        // A finished pod (Succeeded, Failed) leaves the scheduler's cache as a deleted one does.
        this.moveAllToActive();
      }
    });
    state.onNode((_node, change) => {
      if (change !== 'failed') {
        this.scheduler = this.buildScheduler();
        this.moveAllToActive();
      }
    });
  }

  /** Pods waiting to be scheduled, in no particular order. */
  pendingPods(): SimPod[] {
    return [
      ...this.active.map((queued) => queued.pod),
      ...[...this.unschedulable.values()].map((q) => q.pod),
    ];
  }

  private add(pod: SimPod): void {
    if (pod.nodeName !== null) {
      this.bindDirectly(pod, pod.nodeName);
      return;
    }
    const now = this.state.sim.now;
    this.active.push({
      pod,
      seq: pod.createdSeq,
      attempts: 0,
      queuedAt: now,
      eligibleAt: now,
      lastAttempt: now,
    });
    this.requestBatch(now);
  }

  /** A pod naming its node skips the scheduler: the node's kubelet runs it (or nobody does). */
  private bindDirectly(pod: SimPod, nodeName: string): void {
    const node = this.state.nodes.get(nodeName);
    if (node === undefined) {
      pod.nodeName = null;
      this.state.recordUnschedulable(pod, missingNodeMessage(nodeName));
      return;
    }
    if (!node.info.pods.includes(pod.info)) {
      node.info.addPod(pod.info);
    }
    this.state.bindPod(pod, nodeName, `Bound to node ${nodeName} by spec.nodeName (no scheduling)`);
  }

  private requestBatch(time: number): void {
    if (this.batchTimes.has(time)) {
      return;
    }
    this.batchTimes.add(time);
    this.state.sim.at(time, PRIORITY.scheduler, () => {
      this.batchTimes.delete(time);
      this.runBatch();
    });
  }

  private runBatch(): void {
    const now = this.state.sim.now;
    const due: QueuedPod[] = [];
    const waiting: QueuedPod[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const queued of this.active) {
      if (queued.eligibleAt <= now) {
        due.push(queued);
      } else {
        waiting.push(queued);
        next = Math.min(next, queued.eligibleAt);
      }
    }
    this.active.length = 0;
    for (const queued of waiting) {
      this.active.push(queued);
    }
    due.sort((a, b) => b.pod.info.priority - a.pod.info.priority || a.queuedAt - b.queuedAt || a.seq - b.seq);
    for (const queued of due) {
      this.attempt(queued);
    }
    if (Number.isFinite(next)) {
      this.requestBatch(next);
    }
  }

  private attempt(queued: QueuedPod): void {
    const { pod } = queued;
    if (pod.isGone || pod.deletionTime !== null || pod.nodeName !== null) {
      return;
    }
    const now = this.state.sim.now;
    const record = this.scheduler.scheduleOne(pod.info);
    this.records.set(pod.key, record);
    for (const victim of record.preempted) {
      const victimPod = this.state.pods.get(victim.key);
      if (victimPod !== undefined) {
        const reason = `Preempted by pod ${pod.object.metadata?.uid ?? pod.key} on node ${record.nodeName ?? ''}`;
        this.state.deletePod(victimPod, reason, { reason, kube: PREEMPTED });
        this.state.removePod(victimPod, `Deleted pod: ${victimPod.name}`, true);
      }
    }
    if (record.nodeName !== null) {
      const node = this.state.nodes.get(record.nodeName);
      if (node !== undefined) {
        this.preBind?.(pod, { name: record.nodeName, labels: node.info.labels });
      }
      this.state.bindPod(
        pod,
        record.nodeName,
        `Successfully assigned ${pod.key} to ${record.nodeName}`,
        SCHEDULED,
      );
      return;
    }
    // A pod with scheduling gates or for a scheduler no profile serves is never tried: no event.
    this.state.recordUnschedulable(
      pod,
      this.messageOf(record),
      record.notAttempted === null ? FAILED_SCHEDULING : undefined,
    );
    const notAttempted = record.notAttempted?.kind;
    if (notAttempted === 'gated' || notAttempted === 'no-profile') {
      return; // nothing in the simulation lifts a gate or adds a profile
    }
    queued.attempts++;
    queued.lastAttempt = now;
    queued.queuedAt = now;
    this.unschedulable.set(pod.key, queued);
  }

  /**
   * The FailedScheduling message of a record: counting a FitError's reasons walks every node, and the pods of one
   * class that the equivalence cache failed alike share their FitError, so its message is worded once.
   */
  private messageOf(record: SchedulingRecord): string {
    const fitError = record.fitError;
    if (fitError === null) {
      return recordMessage(record);
    }
    let message = this.fitErrorMessages.get(fitError);
    if (message === undefined) {
      message = recordMessage(record);
      this.fitErrorMessages.set(fitError, message);
    }
    return message;
  }

  private moveAllToActive(): void {
    if (this.unschedulable.size === 0) {
      return;
    }
    const now = this.state.sim.now;
    let earliest = Number.POSITIVE_INFINITY;
    for (const queued of this.unschedulable.values()) {
      const backoff = Math.min(
        this.settings.podInitialBackoffSeconds * 2 ** Math.max(0, queued.attempts - 1),
        this.settings.podMaxBackoffSeconds,
      );
      queued.eligibleAt = Math.max(now, queued.lastAttempt + backoff);
      earliest = Math.min(earliest, queued.eligibleAt);
      this.active.push(queued);
    }
    clearIfAny(this.unschedulable);
    this.requestBatch(earliest);
  }

  private buildScheduler(): Scheduler {
    return buildScheduler(this.state, this.setup);
  }

  /** Queues a pod that already exists (a pod of the initial state that did not fit). */
  enqueue(pod: SimPod): void {
    this.add(pod);
  }
}

/** A scheduler over the state's current nodes (their NodeInfos, with the pods bound to them). */
export function buildScheduler(state: ClusterState, setup: SchedulerSetup): Scheduler {
  const { base, profiles, registry, version, detail } = setup;
  const nodes = state.nodeList().map((node) => node.info);
  const cluster = new Cluster(
    nodes,
    base.priorityClasses,
    base.namespaceLabels,
    base.description,
    base.objects,
  );
  const frameworks = new Map<string, SchedulerFramework>();
  for (const profile of profiles) {
    frameworks.set(profile.schedulerName, buildFramework(profile, registry, cluster, version).framework);
  }
  const equivalence = EquivalenceCache.settingsFor(setup);
  return new Scheduler(cluster, frameworks, equivalence === null ? { detail } : { detail, equivalence });
}

/** The FailedScheduling message of a record (or why no cycle ran). */
function recordMessage(record: SchedulingRecord): string {
  if (record.fitError !== null) {
    return formatFitError(record.fitError);
  }
  return (
    record.notAttempted?.message ??
    record.error?.reasons.map((reason) => reason.message).join(', ') ??
    'the pod was not scheduled'
  );
}
