/**
 * The simulation's records grouped by the workload (or bare pod) they came from: how many replicas landed
 * where, how many stay Pending and why, the QoS class. Hover, code lenses and diagnostics read these.
 */
import type { ObjectSource } from '../../engine/model/source';
import type { QosClassName } from '../../engine/model/qos';
import { computeQosClass } from '../../engine/model/qos';
import { countFilterReasons, formatFitError } from '../../engine/scheduler/framework/fit-error';
import type { FitError } from '../../engine/scheduler/framework/fit-error';
import type { SchedulingRecord } from '../../engine/scheduler/record';

/** One replica's outcome. */
interface ReplicaOutcome {
  readonly podName: string;
  /** The node it lands on, or null when it stays Pending. */
  readonly nodeName: string | null;
  /** Nodes tied for the best score (kube-scheduler picks one at random). */
  readonly tiedNodes: readonly string[];
  /** Pods this one preempts, "namespace/name". */
  readonly preempted: readonly string[];
}

/** A reason nodes gave for rejecting the pending replicas, with the nodes that gave it. */
export interface RejectionCause {
  readonly code: string;
  readonly message: string;
  /** The reason's data (the resource that is short, …). */
  readonly data?: Readonly<Record<string, string>>;
  readonly nodes: readonly string[];
}

/** What the simulation predicts for one workload (or one bare pod). */
export interface WorkloadPrediction {
  /** Where the pod template is written. */
  readonly source: ObjectSource;
  /** The workload's kind and name ("Pod" and the pod's name for a bare pod). */
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly replicas: readonly ReplicaOutcome[];
  readonly scheduled: number;
  readonly pending: number;
  readonly qosClass: QosClassName;
  readonly qosReason: string;
  /** kube-scheduler's message for the first pending replica, or null when all are placed. */
  readonly pendingMessage: string | null;
  /** Per node, the reasons it rejected the first pending replica (its first failing filter). */
  readonly nodeReasons: ReadonlyMap<string, readonly string[]>;
  /** The causes, most nodes first. */
  readonly causes: readonly RejectionCause[];
  /** How many nodes the cluster has. */
  readonly nodeCount: number;
  /** The effective requests of its first pod (what NodeResourcesFit checks): millicores and bytes. */
  readonly requests?: { readonly cpuMilli: number; readonly memoryBytes: number };
  /** Replicas placed that never start (a missing ConfigMap, Secret or key). */
  readonly cannotStart: number;
  /** The first such pod's container waiting reason (CreateContainerConfigError, ContainerCreating). */
  readonly cannotStartReason: string | null;
  /** The kubelet's message for it. */
  readonly cannotStartMessage: string | null;
}

/** Groups the records by the template they were made from, in input order. */
export function buildWorkloadPredictions(
  records: readonly SchedulingRecord[],
  podLevelResources: boolean,
  /** Aligned with `records`: each pod's waiting state when it never starts (the report's pods[].waiting). */
  waiting: readonly ({ readonly reason: string; readonly message: string } | undefined)[] = [],
): WorkloadPrediction[] {
  const groups = new Map<
    string,
    { record: SchedulingRecord; waiting: { readonly reason: string; readonly message: string } | null }[]
  >();
  // The pods of a template share its source object: its key is made once per object, not once per pod.
  const keys = new Map<ObjectSource, string>();
  records.forEach((record, index) => {
    const { source } = record.pod;
    let key = keys.get(source);
    if (key === undefined) {
      key = sourceKey(source);
      keys.set(source, key);
    }
    const entry = { record, waiting: waiting[index] ?? null };
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, [entry]);
    } else {
      group.push(entry);
    }
  });
  const explained: PendingMemo = new WeakMap();
  return [...groups.values()].map((group) =>
    predictionOf(
      group.map((entry) => entry.record),
      podLevelResources,
      explained,
      group.flatMap((entry) => (entry.waiting === null ? [] : [entry.waiting])),
    ),
  );
}

/** A stable key for a source: file, document and path. */
function sourceKey(source: ObjectSource): string {
  return `${source.file}\u0000${source.documentIndex}\u0000${source.path.join('/')}`;
}

/** Why the first Pending replica of a workload waits: what a prediction says of it. */
interface PendingExplanation {
  readonly pendingMessage: string;
  readonly nodeReasons: ReadonlyMap<string, readonly string[]>;
  readonly causes: readonly RejectionCause[];
  readonly nodeCount: number;
}

/**
 * The explanations of the FitErrors of one simulation. The Pending pods of workloads whose pods are alike share
 * one FitError (engine/scheduler/equivalence-cache.ts): it is explained once, and each prediction gets copies of
 * the lists.
 */
type PendingMemo = WeakMap<FitError, PendingExplanation>;

function predictionOf(
  records: readonly SchedulingRecord[],
  podLevelResources: boolean,
  explained: PendingMemo,
  /** The waiting states of its pods that never start. */
  stuck: readonly { readonly reason: string; readonly message: string }[],
): WorkloadPrediction {
  const first = records[0] as SchedulingRecord;
  const pending = records.filter((record) => record.nodeName === null);
  const firstPending = pending[0];
  const qos = computeQosClass(first.pod.pod.spec ?? {}, { podLevelResources });
  const explanation = firstPending === undefined ? undefined : explain(firstPending, explained);
  return {
    source: first.pod.source,
    kind: first.pod.owner?.kind ?? 'Pod',
    name: first.pod.owner?.name ?? first.pod.name,
    namespace: first.pod.namespace,
    replicas: records.map((record) => ({
      podName: record.pod.name,
      nodeName: record.nodeName,
      tiedNodes: record.tiedNodes,
      preempted: record.preempted.map((pod) => pod.key),
    })),
    scheduled: records.length - pending.length,
    pending: pending.length,
    qosClass: qos.qosClass,
    qosReason: qos.reason,
    pendingMessage: explanation?.pendingMessage ?? null,
    nodeReasons: new Map(explanation?.nodeReasons ?? []),
    causes: [...(explanation?.causes ?? [])],
    nodeCount: explanation?.nodeCount ?? 0,
    requests: { cpuMilli: first.pod.requests.milliCpu, memoryBytes: first.pod.requests.memory },
    // Built in one literal, in the order a spread of the rest and these three gave: spreading 333 predictions into
    // new objects was half of summarising a 1,000-resource simulation.
    cannotStart: stuck.length,
    cannotStartReason: stuck[0]?.reason ?? null,
    cannotStartMessage: stuck[0]?.message ?? null,
  };
}

/** The explanation of a Pending record, through the memo when it has a FitError. */
function explain(record: SchedulingRecord, explained: PendingMemo): PendingExplanation {
  const fitError = record.fitError;
  const known = fitError === null ? undefined : explained.get(fitError);
  if (known !== undefined) {
    return known;
  }
  const explanation: PendingExplanation = {
    pendingMessage: pendingMessageOf(record),
    nodeReasons: nodeReasonsOf(record),
    causes: causesOf(record),
    nodeCount: fitError?.numAllNodes ?? 0,
  };
  if (fitError !== null) {
    explained.set(fitError, explanation);
  }
  return explanation;
}

function pendingMessageOf(record: SchedulingRecord): string {
  if (record.fitError !== null) {
    return formatFitError(record.fitError);
  }
  if (record.notAttempted !== null) {
    return record.notAttempted.message;
  }
  return record.error?.reasons.map((reason) => reason.message).join(', ') ?? 'not scheduled';
}

function nodeReasonsOf(record: SchedulingRecord): Map<string, readonly string[]> {
  const result = new Map<string, readonly string[]>();
  for (const [node, status] of record.fitError?.diagnosis.nodeStatuses ?? []) {
    result.set(
      node,
      status.reasons.map((reason) => reason.message),
    );
  }
  return result;
}

function causesOf(record: SchedulingRecord): RejectionCause[] {
  const fitError = record.fitError;
  if (fitError === null) {
    return [];
  }
  const byMessage = new Map<
    string,
    { code: string; data?: Readonly<Record<string, string>>; nodes: string[] }
  >();
  for (const [node, status] of fitError.diagnosis.nodeStatuses) {
    for (const reason of status.reasons) {
      const entry = byMessage.get(reason.message);
      if (entry === undefined) {
        byMessage.set(reason.message, {
          code: reason.code,
          ...(reason.data === undefined ? {} : { data: reason.data }),
          nodes: [node],
        });
      } else {
        entry.nodes.push(node);
      }
    }
  }
  const order = [...countFilterReasons(fitError).keys()];
  return [...byMessage.entries()]
    .map(([message, entry]) => ({ ...entry, message }))
    .sort((a, b) => b.nodes.length - a.nodes.length || order.indexOf(a.message) - order.indexOf(b.message));
}
