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
}

/** Schedules pods into a cluster with one framework per scheduler name. */
export class Scheduler {
  private readonly cursor: SearchCursor = { nextStartNodeIndex: 0 };
  /** Pods evicted by preemption: victim key to the key of the pod that preempted it. */
  readonly preemptedBy = new Map<string, string>();

  constructor(
    readonly cluster: Cluster,
    /** Frameworks by profile schedulerName. */
    private readonly frameworks: ReadonlyMap<string, SchedulerFramework>,
    private readonly options: SchedulerOptions,
  ) {}

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
    const cycle = runSchedulingCycle(framework, pod, this.cursor, this.options.detail, nominated || null);
    if (cycle.fitError === null || !framework.hasPostFilterPlugins) {
      return this.finish(pod, cycle, []);
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
    return this.finish(pod, { ...cycle, fitError: { ...cycle.fitError, diagnosis } }, []);
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
