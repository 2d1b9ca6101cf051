/**
 * The report's `pods` and `cluster.nodes` as the one simulation leaves them: every pod the manifests created that
 * still exists at the end (bound, or Pending with kube-scheduler's last message), in input order (file, document,
 * then creation), and each node's use.
 */
import { podClaimNames } from '../../scheduler/plugins/volume-binding/binder';
import { Cluster } from '../../model/snapshot/cluster';
import type { PodInfo } from '../../model/snapshot/pod-info';
import { computeQosClass } from '../../model/qos';
import type { SchedulingRecord } from '../../scheduler/record';
import { reportNode, reportPod } from './report-entries';
import type { ReportNode, ReportPod, UnschedulableMemo } from './report-entries';
import type { TimelineResult } from '../run-timeline';
import type { SimPod } from '../../apiserver/sim-pod';

/** Pods and nodes at the end of the timeline. */
export interface TimelinePods {
  readonly pods: readonly ReportPod[];
  /** Aligned with `pods`. */
  readonly records: readonly SchedulingRecord[];
  readonly nodes: readonly ReportNode[];
}

/**
 * Where the manifests put each workload they name, "namespace/Kind/name" → its file and document: a running
 * workload the apply only changes (scales) keeps pods made from the cluster's copy, and they are its pods too.
 */
export type ManifestWorkloads = ReadonlyMap<
  string,
  { readonly file: string; readonly documentIndex: number }
>;

/** The pods of the manifests (their sources' files, or the workloads they name) at the end of the timeline. */
export function timelinePods(
  result: TimelineResult,
  manifestFiles: ReadonlySet<string>,
  base: Cluster,
  podLevelResources: boolean,
  manifestWorkloads: ManifestWorkloads = new Map(),
): TimelinePods {
  const { state } = result;
  const infos = state.nodeList().map((node) => node.info);
  const cluster = new Cluster(
    infos,
    base.priorityClasses,
    base.namespaceLabels,
    base.description,
    base.objects,
  );
  // Input order, as people read their manifests: by file, then document, then creation.
  const fileOrder = new Map([...manifestFiles].map((file, index) => [file, index]));
  // The names the manifests' workloads have ("namespace/kind/name": neither a namespace nor a kind holds a "/"):
  // a pod of any other workload is not looked up, so no key is made for each of the cluster's pods.
  const workloadNames = new Set(
    [...manifestWorkloads.keys()].map((key) => key.slice(key.indexOf('/', key.indexOf('/') + 1) + 1)),
  );
  const placeOf = (pod: SimPod): { file: string; documentIndex: number } | undefined => {
    if (manifestFiles.has(pod.info.source.file)) {
      return pod.info.source;
    }
    const workload = pod.workload;
    return workload === null || !workloadNames.has(workload.name)
      ? undefined
      : manifestWorkloads.get(`${pod.namespace}/${workload.kind}/${workload.name}`);
  };
  // One pass that keeps the manifests' pods only: the cluster's (150,000 in a capture) make no entry.
  const placed: { pod: SimPod; place: { file: string; documentIndex: number } }[] = [];
  for (const pod of state.pods.values()) {
    const place = placeOf(pod);
    if (place !== undefined) {
      placed.push({ pod, place });
    }
  }
  const pods = placed
    .sort(
      (a, b) =>
        (fileOrder.get(a.place.file) ?? 0) - (fileOrder.get(b.place.file) ?? 0) ||
        a.place.documentIndex - b.place.documentIndex ||
        a.pod.createdSeq - b.pod.createdSeq,
    )
    .map((entry) => entry.pod);
  const records = pods.map((pod) => {
    const record = result.records.get(pod.key);
    if (pod.nodeName !== null) {
      return record?.nodeName === pod.nodeName ? record : boundRecord(pod.info, pod.nodeName);
    }
    return record ?? pendingRecord(pod.info, pod.lastUnschedulableMessage);
  });
  const unschedulable: UnschedulableMemo = new WeakMap();
  return {
    pods: records.map((record, index) => {
      const entry = reportPod(
        { record, qosClass: computeQosClass(record.pod.pod.spec ?? {}, { podLevelResources }).qosClass },
        cluster,
        unschedulable,
      );
      const waiting = pods[index]?.waiting ?? null;
      const claims = podClaimNames(record.pod.name, record.pod.pod.spec).map((entry) => entry.claimName);
      // A pod of the cluster file knows its controller from the state (the workload that owns it).
      const workload = pods[index]?.workload ?? null;
      return {
        ...entry,
        owner: entry.owner ?? (workload === null ? null : { kind: workload.kind, name: workload.name }),
        ...(claims.length === 0 ? {} : { claims }),
        ...(waiting === null ? {} : { waiting: { reason: waiting.reason, message: waiting.message } }),
      };
    }),
    records,
    nodes: infos.map(reportNode),
  };
}

function boundRecord(pod: PodInfo, nodeName: string): SchedulingRecord {
  return { ...emptyRecord(pod), nodeName, tiedNodes: [nodeName] };
}

function pendingRecord(pod: PodInfo, message: string | null): SchedulingRecord {
  const reason = message ?? 'the pod was not scheduled before the simulation ended';
  return { ...emptyRecord(pod), notAttempted: { kind: 'node-not-found', message: reason } };
}

function emptyRecord(pod: PodInfo): SchedulingRecord {
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
    notAttempted: null,
    preempted: [],
  };
}
