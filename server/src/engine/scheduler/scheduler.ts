/**
 * The scheduling loop: pods are taken one at a time in queue order (priority descending, then input order, as
 * PrioritySort with equal timestamps), each cycle sees the pods bound before it, and a placed pod is bound at once
 * (NodeInfo.addPod). When no node fits and PostFilter plugins are enabled (DefaultPreemption), their victims are
 * evicted and the pod is tried again on the nominated node straight away; evicted pods are reported as
 * preempted and not re-queued (their controllers would recreate them).
 */
import type { Cluster } from '../model/snapshot/cluster';
import { listOf } from '../model/objects';
import type { PodInfo } from '../model/snapshot/pod-info';
import type { Diagnosis } from './framework/fit-error';
import type { SchedulerFramework } from './framework/framework';
import type { NodeStatusReader } from './framework/plugin';
import { isSuccess, newStatus, statusMessage } from './framework/status';
import type { Status } from './framework/status';
import { DEFAULT_SCHEDULER_NAME } from './profile';
import type { RecordDetail, SchedulingRecord } from './record';
import { runSchedulingCycle } from './schedule-one';
import { EquivalenceCache } from './equivalence-cache';
import type { PodClassKeys } from './equivalence-cache';
import type { CycleResult, SearchCursor } from './schedule-one';

/** Message when the cluster has no node (ErrNoNodesAvailable). */
const NO_NODES_AVAILABLE_MESSAGE = 'no nodes available to schedule pods';

/**
 * The PodScheduled condition message the API server sets on a pod with scheduling gates (reason SchedulingGated).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/registry/core/pod/strategy.go
 */
export const SCHEDULING_GATED_MESSAGE = 'Scheduling is blocked due to non-empty scheduling gates';

/** The status of a node absent from a diagnosis, as upstream's NewDefaultNodeToStatus. */
const ABSENT_NODE_STATUS: Status = newStatus('UnschedulableAndUnresolvable', '');

/** Options of a scheduling run. */
interface SchedulerOptions {
  /** 'full' keeps every evaluated node's status and all scores; 'compact' only what explains failures. */
  readonly detail: RecordDetail;
  /**
   * Share failed verdicts within a pod class while the cluster is unchanged (equivalence-cache.ts); absent,
   * every cycle is computed. Either way the records are the same. `labelsAlwaysRead`: a profile's plugin
   * arguments may read any pod's labels (EquivalenceCache).
   */
  readonly equivalence?: { readonly labelsAlwaysRead: boolean; readonly podKeys?: PodClassKeys };
}

/** A failed cycle and its preemption verdict, with the search position it started from and left. */
interface CachedFailure {
  readonly start: number;
  readonly next: number;
  readonly cycle: CycleResult;
}

/** Schedules pods into a cluster with one framework per scheduler name. */
export class Scheduler {
  private readonly cursor: SearchCursor = { nextStartNodeIndex: 0 };
  /** Pods evicted by preemption: victim key to the key of the pod that preempted it. */
  readonly preemptedBy = new Map<string, string>();
  private readonly failures: EquivalenceCache<CachedFailure> | null;

  constructor(
    readonly cluster: Cluster,
    /** Frameworks by profile schedulerName. */
    private readonly frameworks: ReadonlyMap<string, SchedulerFramework>,
    private readonly options: SchedulerOptions,
  ) {
    const equivalence = options.equivalence;
    this.failures =
      equivalence === undefined
        ? null
        : new EquivalenceCache(equivalence.labelsAlwaysRead, equivalence.podKeys);
  }

  /** Schedules pods in queue order and returns their records in that order. */
  scheduleAll(pods: readonly PodInfo[]): SchedulingRecord[] {
    return queueOrder(pods).map((pod) => this.scheduleOne(pod));
  }

  /** Schedules one pod and binds it when a node fits. */
  scheduleOne(pod: PodInfo): SchedulingRecord {
    const gates = listOf(pod.pod.spec?.schedulingGates);
    if (gates.length > 0) {
      return notAttempted(pod, { kind: 'gated', message: SCHEDULING_GATED_MESSAGE });
    }
    const schedulerName = pod.pod.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME;
    const framework = this.frameworks.get(schedulerName);
    if (framework === undefined) {
      const message = `no scheduler profile is named "${schedulerName}": the pod stays Pending`;
      return notAttempted(pod, { kind: 'no-profile', message });
    }
    if (this.cluster.nodes.length === 0) {
      return notAttempted(pod, { kind: 'no-nodes', message: NO_NODES_AVAILABLE_MESSAGE });
    }
    const nominated = pod.pod.status?.nominatedNodeName ?? null;
    const failures = nominated ? null : this.failures;
    const changesBefore = failures === null ? 0 : this.changeCount();
    if (failures !== null && !failures.isEmpty) {
      const cached = failures.lookup(pod, this.generation(), this.cluster.nodes);
      if (cached !== undefined && cached.start === this.cursor.nextStartNodeIndex) {
        this.cursor.nextStartNodeIndex = cached.next;
        return this.finish(pod, cached.cycle, []);
      }
    }
    const start = this.cursor.nextStartNodeIndex;
    const failed = (cycle: CycleResult): SchedulingRecord => {
      // A failure changed nothing, so the pod's class fails alike until the cluster changes.
      if (failures !== null && this.changeCount() === changesBefore) {
        failures.store(pod, this.generation(), this.cluster.nodes, {
          start,
          next: this.cursor.nextStartNodeIndex,
          cycle,
        });
      }
      return this.finish(pod, cycle, []);
    };
    const cycle = runSchedulingCycle(framework, pod, this.cursor, this.options.detail, nominated || null);
    if (cycle.fitError === null || !framework.hasPostFilterPlugins) {
      return cycle.fitError === null ? this.finish(pod, cycle, []) : failed(cycle);
    }
    const post = framework.runPostFilterPlugins(cycle.state, pod, statusReader(cycle.fitError.diagnosis));
    if (isSuccess(post.status) && post.nominatedNodeName !== null) {
      const victims = this.evict(post.victims, pod);
      const retry = runSchedulingCycle(
        framework,
        pod,
        this.cursor,
        this.options.detail,
        post.nominatedNodeName,
      );
      return this.finish(pod, retry, victims);
    }
    const diagnosis: Diagnosis = {
      ...cycle.fitError.diagnosis,
      postFilterMessage: statusMessage(post.status),
    };
    return failed({ ...cycle, fitError: { ...cycle.fitError, diagnosis } });
  }

  /** What a verdict depends on besides the pod: the pods placed on nodes and the storage objects. */
  private generation(): string {
    return `${this.cluster.changeLog.length}/${this.cluster.objects.storage.generation}`;
  }

  /** Grows with every change generation() names (both counters only grow): equal counts, no change. */
  private changeCount(): number {
    return this.cluster.changeLog.length + this.cluster.objects.storage.generation;
  }

  private evict(victims: readonly PodInfo[], preemptor: PodInfo): PodInfo[] {
    const evicted: PodInfo[] = [];
    for (const victim of victims) {
      const node = victim.nodeName === null ? undefined : this.cluster.getNode(victim.nodeName);
      if (node?.removePod(victim) === true) {
        victim.nodeName = null;
        this.preemptedBy.set(victim.key, preemptor.key);
        evicted.push(victim);
      }
    }
    return evicted;
  }

  private finish(pod: PodInfo, cycle: CycleResult, preempted: readonly PodInfo[]): SchedulingRecord {
    if (cycle.nodeName !== null) {
      const node = this.cluster.getNode(cycle.nodeName);
      if (node !== undefined) {
        pod.nodeName = node.name;
        node.addPod(pod);
      }
    }
    return {
      pod,
      nodeName: cycle.nodeName,
      tiedNodes: cycle.tiedNodes,
      evaluatedNodes: cycle.evaluatedNodes,
      feasibleNodes: cycle.feasibleNodes,
      filterStatuses: cycle.filterStatuses,
      scores: cycle.scores,
      fitError: cycle.fitError,
      error: cycle.error,
      notAttempted: null,
      preempted,
    };
  }
}

/** Pods in queue order: higher priority first, then input order (a stable sort). */
export function queueOrder(pods: readonly PodInfo[]): PodInfo[] {
  return pods
    .map((pod, index) => ({ pod, index }))
    .sort((a, b) => b.pod.priority - a.pod.priority || a.index - b.index)
    .map((entry) => entry.pod);
}

function notAttempted(pod: PodInfo, reason: NonNullable<SchedulingRecord['notAttempted']>): SchedulingRecord {
  return {
    pod,
    nodeName: null,
    tiedNodes: [],
    evaluatedNodes: 0,
    feasibleNodes: 0,
    filterStatuses: new Map(),
    scores: null,
    fitError: null,
    error: null,
    notAttempted: reason,
    preempted: [],
  };
}

function statusReader(diagnosis: Diagnosis): NodeStatusReader {
  const rejected = new Map<string, Status>();
  for (const [name, status] of diagnosis.nodeStatuses) {
    if (status.code !== 'Success') {
      rejected.set(name, status);
    }
  }
  return {
    rejected,
    get: (nodeName) => rejected.get(nodeName) ?? diagnosis.absentNodesStatus ?? ABSENT_NODE_STATUS,
  };
}
