/**
 * A pod's and a node's entries of the simulation report (`pods[]`, `cluster.nodes[]`), built from the scheduling
 * records and the nodes' sums. The timeline builds them for the pods and nodes at the end of a run
 * (timeline-pods.ts), and simulate/report.ts puts them into the report, so this room below simulate/ owns them.
 * Quantities are strings in Kubernetes notation ("1500m", "16Gi", "110").
 */
import type { Cluster } from '../../model/snapshot/cluster';
import type { NodeInfo } from '../../model/snapshot/node-info';
import { formatBytes, formatMilli } from '../../model/quantity';
import type { QosClassName } from '../../model/qos';
import type { Resources } from '../../model/resources';
import { countFilterReasons, formatFitError, reasonsPerNode } from '../../scheduler/framework/fit-error';
import type { FitError } from '../../scheduler/framework/fit-error';
import type { SchedulingRecord } from '../../scheduler/record';

/** A node's capacity and use. */
export interface ReportNode {
  readonly name: string;
  readonly allocatable: Readonly<Record<string, string>>;
  readonly requested: Readonly<Record<string, string>>;
  /** status.capacity.memory when the node gives it (the kubelet's oom_score_adj and eviction read capacity). */
  readonly memoryCapacity?: string;
}

/** Why a pod was not placed. */
interface ReportUnschedulable {
  /** kube-scheduler's message (the FailedScheduling event), or why no scheduling was attempted. */
  readonly message: string;
  /** How many nodes gave each reason. */
  readonly reasons: Readonly<Record<string, number>>;
  /** Each node's reasons (those of its first failing filter plugin). */
  readonly nodes: Readonly<Record<string, readonly string[]>>;
  /** How many nodes each filter plugin rejected. */
  readonly plugins: Readonly<Record<string, number>>;
}

/** One pod's prediction. */
export interface ReportPod {
  readonly namespace: string;
  readonly name: string;
  readonly owner: { readonly kind: string; readonly name: string } | null;
  readonly qosClass: QosClassName;
  readonly priority: number;
  readonly nodeName: string | null;
  /** Nodes that shared the best score (kube-scheduler picks one at random; the engine the first). */
  readonly tiedNodes: readonly string[];
  readonly unschedulable: ReportUnschedulable | null;
  /** Pods evicted to make room for this one, "namespace/name". */
  readonly preempted: readonly string[];
  /** The PersistentVolumeClaims its volumes use (persistentVolumeClaims[] of the report says where each binds). */
  readonly claims?: readonly string[];
  /** Placed but never started: the container's waiting reason and the kubelet's message. */
  readonly waiting?: { readonly reason: string; readonly message: string };
}

/** What a pod's report entry is built from besides its record. */
interface PodOutcome {
  readonly record: SchedulingRecord;
  readonly qosClass: QosClassName;
}

/**
 * What Pending pods' entries share: the Pending replicas of one template that failed on an unchanged cluster share
 * one FitError (scheduler/equivalence-cache.ts), whose message, reason counts and per-node reasons are then
 * formatted once per report instead of once per pod. Valid for one cluster (the nodes the entries name).
 */
export type UnschedulableMemo = WeakMap<FitError, ReportUnschedulable>;

/** Builds a pod's report entry. `memo`: see UnschedulableMemo (given for one cluster only). */
export function reportPod(outcome: PodOutcome, cluster: Cluster, memo?: UnschedulableMemo): ReportPod {
  const { record } = outcome;
  const pod = record.pod;
  return {
    namespace: pod.namespace,
    name: pod.name,
    owner: pod.owner === null ? null : { kind: pod.owner.kind, name: pod.owner.name },
    qosClass: outcome.qosClass,
    priority: pod.priority,
    nodeName: record.nodeName,
    tiedNodes: record.nodeName === null ? [] : [...record.tiedNodes],
    unschedulable: record.nodeName === null ? unschedulableOf(record, cluster, memo) : null,
    preempted: record.preempted.map((victim) => victim.key),
  };
}

function unschedulableOf(
  record: SchedulingRecord,
  cluster: Cluster,
  memo: UnschedulableMemo | undefined,
): ReportUnschedulable {
  if (record.fitError !== null) {
    const known = memo?.get(record.fitError);
    if (known !== undefined) {
      // A copy of the entry; its parts are shared, as they are read only.
      return { ...known };
    }
    const built = fitErrorEntry(record.fitError, cluster);
    memo?.set(record.fitError, built);
    return built;
  }
  const message =
    record.notAttempted?.message ?? record.error?.reasons.map((reason) => reason.message).join(', ');
  return { message: message ?? 'the pod was not scheduled', reasons: {}, nodes: {}, plugins: {} };
}

function fitErrorEntry(fitError: FitError, cluster: Cluster): ReportUnschedulable {
  const names = cluster.nodes.map((node) => node.name);
  const perNode = reasonsPerNode(fitError, names);
  const plugins: Record<string, number> = {};
  for (const name of names) {
    const status = fitError.diagnosis.nodeStatuses.get(name) ?? fitError.diagnosis.absentNodesStatus;
    if (status !== null && status.plugin !== '') {
      plugins[status.plugin] = (plugins[status.plugin] ?? 0) + 1;
    }
  }
  return {
    message: formatFitError(fitError),
    reasons: sortedRecord(countFilterReasons(fitError)),
    nodes: Object.fromEntries(perNode),
    plugins: sortedRecord(new Map(Object.entries(plugins))),
  };
}

/** A node's allocatable and requested resources as quantity strings. */
export function reportNode(node: NodeInfo): ReportNode {
  const requested = formatResources(node.requested, node.allocatable);
  const capacity = node.node.status?.capacity?.['memory'];
  return {
    name: node.name,
    allocatable: formatResources(node.allocatable, node.allocatable),
    requested: { ...requested, pods: String(node.pods.length) },
    ...(capacity === undefined ? {} : { memoryCapacity: String(capacity) }),
  };
}

/**
 * Formats the resources a node lists in allocatable (plus any scalar resource requested), in a fixed order:
 * cpu, memory, ephemeral-storage, pods, then scalar resources by name.
 */
function formatResources(amounts: Resources, allocatable: Resources): Record<string, string> {
  const result: Record<string, string> = {
    cpu: formatMilli(amounts.milliCpu),
    memory: formatBytes(amounts.memory),
    'ephemeral-storage': formatBytes(amounts.ephemeralStorage),
    pods: String(amounts.allowedPodNumber),
  };
  const names = new Set([...allocatable.scalarNames(), ...amounts.scalarNames()]);
  for (const name of [...names].sort()) {
    result[name] = String(amounts.get(name));
  }
  return result;
}

function sortedRecord(map: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
