/**
 * The guard against `replicas: 1000000`: before the timeline runs, the pods the manifests ask for are counted from
 * the fields their controllers read (replicas under an HPA's bounds, a Job's parallelism, one pod per node for a
 * DaemonSet as an upper bound, one per bare Pod). Beyond the limit nothing is simulated and one finding, on the
 * object where the count passed it, says so, instead of the memory and minutes a million pods would take.
 */
import type { SourcedObject } from '../model/load/cluster-load';
import type { AutoscalerIndex } from '../workloads/autoscalers';
import { autoscalerKey, replicasUnderAutoscaler } from '../workloads/autoscalers';
import type { JsonObject } from '../model/json';
import { asObject, isJsonObject, readString } from '../model/json';
import type { Finding } from '../../../../protocol/finding';
import { engineFinding } from '../model/findings';

/** Kinds whose pod count is `spec.replicas` (default 1). */
const REPLICATED_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

/** The finding when the manifests ask for more than `maxPods` pods, or null when they fit. */
export function podLimitFinding(
  manifests: readonly SourcedObject[],
  autoscalers: AutoscalerIndex,
  nodeCount: number,
  maxPods: number,
): Finding | null {
  let total = 0;
  for (const { object, source } of manifests) {
    if (!isJsonObject(object)) {
      continue;
    }
    total += podsAskedFor(object, autoscalers, nodeCount);
    if (total > maxPods) {
      const kind = readString(object['kind']);
      const name = readString(asObject(object['metadata'])['name']);
      const what = `${kind ?? 'object'}${name === undefined ? '' : ` "${name}"`}`;
      return engineFinding(
        'workload-too-many-pods',
        source,
        kind === 'Pod' ? [] : ['spec'],
        `The manifests ask for more than ${maxPods.toLocaleString('en-US')} pods (reached at ${what}), more than one simulation creates; nothing was simulated.`,
      );
    }
  }
  return null;
}

/** How many pods one object's controller would create at most (0 for what creates none, or reads as invalid). */
function podsAskedFor(object: JsonObject, autoscalers: AutoscalerIndex, nodeCount: number): number {
  const kind = readString(object['kind']) ?? '';
  const spec = asObject(object['spec']);
  if (kind === 'Pod') {
    return 1;
  }
  if (kind === 'DaemonSet') {
    return nodeCount;
  }
  if (kind === 'Job') {
    return countOf(spec['parallelism']);
  }
  if (kind === 'CronJob') {
    return countOf(asObject(asObject(spec['jobTemplate'])['spec'])['parallelism']);
  }
  if (!REPLICATED_KINDS.has(kind)) {
    return 0;
  }
  const metadata = asObject(object['metadata']);
  const bounds = autoscalers.get(
    autoscalerKey(readString(metadata['namespace']) ?? 'default', kind, readString(metadata['name']) ?? ''),
  );
  return replicasUnderAutoscaler(countOf(spec['replicas']), bounds);
}

/** A count field as the controllers read it: absent is 1, anything but a non-negative number is 0. */
function countOf(value: unknown): number {
  if (value === undefined) {
    return 1;
  }
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}
