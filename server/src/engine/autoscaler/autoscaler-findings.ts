/**
 * The autoscaler's predictions as findings, one per workload (the pods' template): `pod-waits-for-scale-up` when
 * its Pending pods triggered a scale-up (how long they waited, which group, its size before and after, its
 * maximum), `pod-no-scale-up` when pods still Pending at the end got "pod didn't trigger scale-up" (the reasons).
 */
import type { ClusterState } from '../apiserver/cluster-state';
import type { SimPod } from '../apiserver/sim-pod';
import type { AutoscalerLog, ScaleUpRecord } from './autoscaler-log';
import type { Finding } from '../../../../protocol/finding';
import { engineFinding } from '../model/findings';
import { formatBytes, formatMilli } from '../model/quantity';
import type { Resources } from '../model/resources';
import type { ObjectSource } from '../model/source';
import { maxOf } from '../../../../protocol/collections';

/** What the findings say of the cluster: its profile's name, and the largest node shapes it has or may add. */
export interface AutoscalerCluster {
  /** The profile the cluster is (model/load/profiles), or null for a cluster file or capture. */
  readonly profile: string | null;
  /** The allocatable of every node shape: the nodes at the start and each group's template. */
  readonly shapes: readonly Resources[];
}

/** Adds the autoscaler's findings for the pods of the run. */
export function checkAutoscaler(
  state: ClusterState,
  log: AutoscalerLog,
  findings: Finding[],
  cluster: AutoscalerCluster = { profile: null, shapes: [] },
): void {
  const waited = new Map<string, { pods: SimPod[]; records: Set<ScaleUpRecord> }>();
  const refused = new Map<string, { pods: SimPod[]; message: string }>();
  // The pods of a template share its source object: its key is made once per object, not twice per pod.
  const sourceKeys = new Map<ObjectSource, string>();
  const keyOf = (pod: SimPod): string => {
    let key = sourceKeys.get(pod.info.source);
    if (key === undefined) {
      key = sourceKey(pod);
      sourceKeys.set(pod.info.source, key);
    }
    return key;
  };
  // Every pod that waited, even one a later scale-down of its workload deleted.
  for (const { record, pod } of log.triggeredBy.values()) {
    const key = keyOf(pod);
    const entry = waited.get(key) ?? { pods: [], records: new Set() };
    entry.pods.push(pod);
    entry.records.add(record);
    waited.set(key, entry);
  }
  for (const [podKey, record] of log.noScaleUp) {
    // state.pods holds each pod under its own key.
    const pod = state.pods.get(podKey);
    if (pod === undefined || pod.nodeName !== null || pod.isGone) {
      continue;
    }
    const key = keyOf(pod);
    const entry = refused.get(key) ?? { pods: [], message: record.message };
    entry.pods.push(pod);
    refused.set(key, entry);
  }
  for (const { pods, records } of waited.values()) {
    const first = pods[0] as SimPod;
    const waits = pods.map((pod) => {
      const at = log.scheduledAt.get(pod.key);
      return at === undefined ? null : at - pod.createdAt;
    });
    const scheduled = waits.filter((wait): wait is number => wait !== null);
    const groups = [...records].map(
      (record) =>
        `${record.to - record.from === 1 ? 'a node' : `${record.to - record.from} nodes`} to group \`${record.group}\` (${record.from} → ${record.to} of max ${record.max})`,
    );
    const who = pods.length === 1 ? `Pod ${first.name}` : `${pods.length} pods of ${ownerText(first)}`;
    const how =
      scheduled.length === pods.length
        ? `Pending for ~${Math.round(maxOf(scheduled))} s until the cluster autoscaler adds ${groups.join(' and ')}`
        : `Pending until the cluster autoscaler adds ${groups.join(' and ')}; ${pods.length - scheduled.length} not scheduled yet when the simulation ended`;
    const data = {
      groups: [...records].map((record) => record.group).join(','),
      nodesAdded: String([...records].reduce((sum, r) => sum + r.to - r.from, 0)),
    };
    findings.push(
      engineFinding('pod-waits-for-scale-up', first.info.source, ['spec'], `${who}: ${how}.`, data),
    );
  }
  for (const { pods, message } of refused.values()) {
    const first = pods[0] as SimPod;
    const who =
      pods.length === 1
        ? `Pod ${first.name} stays Pending`
        : `${pods.length} pods of ${ownerText(first)} stay Pending`;
    const beyond = beyondEveryShape(first.info.requests, cluster.shapes);
    const where =
      cluster.profile === null ? 'the cluster or of its node groups' : `profile "${cluster.profile}"`;
    const never = beyond === '' ? '' : `: no node of ${where} can hold a pod requesting ${beyond}`;
    findings.push(
      engineFinding(
        'pod-no-scale-up',
        first.info.source,
        ['spec'],
        `${who}${never}, and the cluster autoscaler cannot help: ${message}`,
      ),
    );
  }
}

/**
 * The requests no node shape can hold, however empty ("64 cpu", "64 cpu and 300Gi memory"), or '' when each
 * request fits some shape (then taints, selectors or other pods keep the pod out, and the reasons say which).
 */
export function beyondEveryShape(requests: Resources, shapes: readonly Resources[]): string {
  if (shapes.length === 0) {
    return '';
  }
  const largest = (name: string): number =>
    shapes.reduce((most, shape) => Math.max(most, shape.get(name)), Number.NEGATIVE_INFINITY);
  const parts: string[] = [];
  if (requests.milliCpu > largest('cpu')) {
    parts.push(`${formatMilli(requests.milliCpu)} cpu`);
  }
  if (requests.memory > largest('memory')) {
    parts.push(`${formatBytes(requests.memory)} memory`);
  }
  if (requests.ephemeralStorage > largest('ephemeral-storage')) {
    parts.push(`${formatBytes(requests.ephemeralStorage)} ephemeral-storage`);
  }
  for (const name of requests.scalarNames()) {
    if (requests.get(name) > largest(name)) {
      parts.push(`${requests.get(name)} ${name}`);
    }
  }
  return parts.join(' and ');
}

function sourceKey(pod: SimPod): string {
  const { source } = pod.info;
  return `${source.file}|${source.documentIndex}|${source.path.join('.')}`;
}

function ownerText(pod: SimPod): string {
  return pod.workload === null ? pod.name : `${pod.workload.kind} ${pod.workload.name}`;
}
