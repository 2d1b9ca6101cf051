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

/** Adds the autoscaler's findings for the pods of the run. */
export function checkAutoscaler(state: ClusterState, log: AutoscalerLog, findings: Finding[]): void {
  const waited = new Map<string, { pods: SimPod[]; records: Set<ScaleUpRecord> }>();
  const refused = new Map<string, { pods: SimPod[]; message: string }>();
  const all = new Map<string, SimPod>();
  for (const pod of state.pods.values()) {
    all.set(pod.key, pod);
  }
  // Every pod that waited, even one a later scale-down of its workload deleted.
  for (const { record, pod } of log.triggeredBy.values()) {
    const entry = waited.get(sourceKey(pod)) ?? { pods: [], records: new Set() };
    entry.pods.push(pod);
    entry.records.add(record);
    waited.set(sourceKey(pod), entry);
  }
  for (const [key, record] of log.noScaleUp) {
    const pod = all.get(key);
    if (pod === undefined || pod.nodeName !== null || pod.isGone) {
      continue;
    }
    const entry = refused.get(sourceKey(pod)) ?? { pods: [], message: record.message };
    entry.pods.push(pod);
    refused.set(sourceKey(pod), entry);
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
        ? `Pending for ~${Math.round(Math.max(...scheduled))} s until the cluster autoscaler adds ${groups.join(' and ')}`
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
    findings.push(
      engineFinding(
        'pod-no-scale-up',
        first.info.source,
        ['spec'],
        `${who}, and the cluster autoscaler cannot help: ${message}`,
      ),
    );
  }
}

function sourceKey(pod: SimPod): string {
  const { source } = pod.info;
  return `${source.file}|${source.documentIndex}|${source.path.join('.')}`;
}

function ownerText(pod: SimPod): string {
  return pod.workload === null ? pod.name : `${pod.workload.kind} ${pod.workload.name}`;
}
