/**
 * The simulation report: plain, stable JSON (described by schemas/report.schema.json) built from the scheduling
 * records. Pods appear in input order (the order their manifests and controllers produce them), whatever order
 * the scheduler took them in. Quantities are strings in Kubernetes notation ("1500m", "16Gi", "110").
 */
import type { Cluster } from '../model/cluster';
import type { NodeInfo } from '../model/node-info';
import { formatBytes, formatMilli } from '../model/quantity';
import type { QosClassName } from '../model/qos';
import type { Resources } from '../model/resources';
import { countFilterReasons, formatFitError, reasonsPerNode } from '../scheduler/framework/fit-error';
import type { SchedulingRecord } from '../scheduler/record';
import type { KubernetesMinor } from '../version';
import type { TimelineReport } from '../scenario/timeline-report';
import type { RejectedObject } from '../admission/rejected';

/** The report's apiVersion. */
export const REPORT_API_VERSION = 'foresight/v1';

/** A finding as the report lists it. */
export interface ReportFinding {
  readonly severity: 'error' | 'warning' | 'information';
  readonly code: string;
  readonly file: string;
  readonly documentIndex: number;
  /** The field's line in the file, from 1, when the caller read the file's text (the CLI adds it). */
  readonly line?: number;
  /** Path of the object inside its document, then of the field inside the object. */
  readonly path: readonly (string | number)[];
  readonly message: string;
}

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

/**
 * What kind of cluster a prediction ran on, which says how certain it is: a capture (with its header: what it lacks
 * does not exist, and a failure is what a real apply would hit), a cluster file (written by hand, or a `kubectl get`
 * without a header), or a profile (the embedded default or a named one: node shapes assumed, not the user's).
 */
export type ClusterKind = 'capture' | 'file' | 'profile';

/** The cluster a report was made on. */
export interface ReportCluster {
  /** Where it came from: "embedded default cluster", "profile gke", the cluster files. */
  readonly source: string;
  readonly kind: ClusterKind;
  /** The profile's name, for a profile. */
  readonly profile?: string;
  readonly nodes: readonly ReportNode[];
}

/** The whole report; the timeline sections (scenario/timeline-report.ts) are absent when it was not run. */
export interface SimulationReport extends Partial<TimelineReport> {
  readonly apiVersion: typeof REPORT_API_VERSION;
  readonly kubernetesVersion: KubernetesMinor;
  readonly cluster: ReportCluster;
  readonly pods: readonly ReportPod[];
  /** What the API server refused (never simulated): objects of the apply, pods controllers tried to create. */
  readonly rejected: readonly RejectedObject[];
  readonly findings: readonly ReportFinding[];
}

/** What a pod's report entry is built from besides its record. */
interface PodOutcome {
  readonly record: SchedulingRecord;
  readonly qosClass: QosClassName;
}

/** Builds a pod's report entry. */
export function reportPod(outcome: PodOutcome, cluster: Cluster): ReportPod {
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
    unschedulable: record.nodeName === null ? unschedulableOf(record, cluster) : null,
    preempted: record.preempted.map((victim) => victim.key),
  };
}

function unschedulableOf(record: SchedulingRecord, cluster: Cluster): ReportUnschedulable {
  if (record.fitError !== null) {
    const names = cluster.nodes.map((node) => node.name);
    const perNode = reasonsPerNode(record.fitError, names);
    const plugins: Record<string, number> = {};
    for (const name of names) {
      const status =
        record.fitError.diagnosis.nodeStatuses.get(name) ?? record.fitError.diagnosis.absentNodesStatus;
      if (status !== null && status.plugin !== '') {
        plugins[status.plugin] = (plugins[status.plugin] ?? 0) + 1;
      }
    }
    return {
      message: formatFitError(record.fitError),
      reasons: sortedRecord(countFilterReasons(record.fitError)),
      nodes: Object.fromEntries(perNode),
      plugins: sortedRecord(new Map(Object.entries(plugins))),
    };
  }
  const message =
    record.notAttempted?.message ?? record.error?.reasons.map((reason) => reason.message).join(', ');
  return { message: message ?? 'the pod was not scheduled', reasons: {}, nodes: {}, plugins: {} };
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
