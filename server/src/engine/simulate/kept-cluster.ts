/**
 * What simulate() keeps of a cluster file between calls given the same array of objects. The editor reads a
 * capture once and predicts on every keystroke with the very same `cluster` array (the same objects, never
 * changed) and a small, changing list of manifests; for the largest cluster Kubernetes supports (5,000 nodes,
 * 150,000 pods) binding the pods alone cost 0.6 s of each prediction.
 *
 * Kept, by the array given (a WeakMap: a cluster no caller holds any more is collected with what was kept):
 * - the objects without null list items, and the findings that left the others out (null-items.ts): a function of
 *   the objects only. Keeping the same array also lets flattenLists find its expansion (cluster-load.ts) instead
 *   of making 150,000 entries again, and the pod binding below compare entries by identity.
 * - the objects the scheduler's cluster loads, its HorizontalPodAutoscalers and the replicas its workloads
 *   declare: functions of the objects.
 * - the binding of the cluster file's pods (model/load/pod-load-memo.ts). The memo replays a binding only when its
 *   inputs are the same (the pod entries, the nodes' names, the version, the PriorityClasses, which manifests may
 *   add), else binds afresh and records that binding instead; what it replays to the timeline are copies of
 *   pristine PodInfos: each node gets its own copy, whose nodeName and startTime (the only fields of a PodInfo
 *   that change, pod-info.ts) the run may set. simulate()'s own load, which no run sees, gets the pristine ones.
 *   Its findings are handed on, as within one call. The replayed pods' keys (the names they take) are one set
 *   per binding that name allocators read and never write (workloads/names.ts).
 *
 * Because the same array reaches the engine's readers, what they derive from it alone is kept by them, by array
 * or by object, each read-only or copied per call: the timeline's split of the objects (scenario/cluster-split.ts),
 * the Pods set apart from the rest (model/load/pod-entries.ts), the capture header (capture-header.ts), the
 * objects by kind for the quota ledger (copied per ledger), what the cluster says of namespaces, service accounts,
 * limits and quotas (admission/known-objects.ts: sets and maps copied per call), and template hashes.
 *
 * Nothing a run changes is kept: every NodeInfo, PodInfo the run sees, pod, event, controller store and name
 * reserved during the run is made afresh per call, so a run cannot change what the next one starts from (the
 * test kept-cluster.test.ts compares calls on one array with calls on a fresh copy). A caller that changes the
 * objects of an array it gave must give a new array (as flattenLists already requires).
 */
import { flattenLists } from '../model/load/cluster-load';
import type { SourcedObject } from '../model/load/cluster-load';
import { isJsonObject } from '../model/json';
import type { JsonObject } from '../model/json';
import { isAutoscaler } from '../workloads/autoscalers';
import { PodLoadMemo } from '../model/load/pod-load-memo';
import { withoutNullListItems } from '../model/load/null-items';
import { clusterModelObjects } from '../scenario/attach-timeline';
import type { Finding } from '../../../../protocol/finding';

/** What is kept of one cluster array. */
export interface KeptCluster {
  /** The objects without null list items (the array given itself when it has none). */
  readonly objects: readonly SourcedObject[];
  /** The findings that left objects out, in order. */
  readonly findings: readonly Finding[];
  /** The objects the scheduler's cluster loads (clusterModelObjects). */
  readonly modelObjects: readonly SourcedObject[];
  /** The cluster file's HorizontalPodAutoscalers (the manifests' come first in the index), in order. */
  readonly autoscalers: readonly JsonObject[];
  /** The replicas the cluster file's workloads declare, against the pod limit. */
  readonly declaredReplicas: number;
  /** The binding of the cluster file's pods, shared by every call's two loads (simulate and the timeline). */
  readonly podMemo: PodLoadMemo;
}

/** Kept clusters, by the array simulate() was given. */
const KEPT = new WeakMap<readonly SourcedObject[], KeptCluster>();

/** What is kept of `cluster`, made on the first call with this array. */
export function keptCluster(cluster: readonly SourcedObject[]): KeptCluster {
  const known = KEPT.get(cluster);
  if (known !== undefined) {
    return known;
  }
  const findings: Finding[] = [];
  const filtered = withoutNullListItems(cluster, findings);
  const objects = filtered.length === cluster.length ? cluster : Object.freeze(filtered);
  const kept: KeptCluster = {
    objects,
    modelObjects: Object.freeze(clusterModelObjects(objects)),
    autoscalers: Object.freeze(
      flattenLists(objects)
        .map((entry) => entry.object)
        .filter(isJsonObject)
        .filter(isAutoscaler),
    ),
    declaredReplicas: declaredReplicas(objects),
    findings: Object.freeze(findings),
    podMemo: new PodLoadMemo(),
  };
  KEPT.set(cluster, kept);
  return kept;
}

/** The replicas the workloads of a cluster file declare (spec.replicas, or an HPA's minReplicas when larger). */
function declaredReplicas(objects: readonly SourcedObject[]): number {
  let total = 0;
  for (const { object } of objects) {
    const spec = (object as { spec?: unknown }).spec;
    if (typeof spec !== 'object' || spec === null) {
      continue;
    }
    for (const field of ['replicas', 'minReplicas']) {
      const value = (spec as Record<string, unknown>)[field];
      if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
        total += value;
      }
    }
  }
  return total;
}
