/**
 * How many replicas admission kept from existing: after the simulation, the last refusal of each Deployment,
 * ReplicaSet or StatefulSet's pods (or of a StatefulSet's claims, which keep its pods from being created) gets the workload's desired replicas and the pods that exist then. A
 * ReplicaSet controller stops a sync at its first refused pod (slowStartBatch) and a StatefulSet waits for each
 * ordinal, so the replicas not created are the refused one and those not tried after it; they are counted
 * together, as the workload's status shows them (ReplicaFailure, replicas below spec).
 */
import type { RefusedReplicas, RejectedObject } from '../../admission/rejected';
import type { ClusterState } from '../../apiserver/cluster-state';
import { isActive } from '../../apiserver/sim-pod';

/** The workload whose replicas a refused pod's owner counts (a Deployment's ReplicaSet counts for the Deployment). */
function replicasOf(
  state: ClusterState,
  owner: RejectedObject['owner'],
  namespace: string,
): RefusedReplicas | null {
  if (owner === undefined) {
    return null;
  }
  const key = `${namespace}/${owner.name}`;
  const active = (kind: string, name: string): number =>
    state.podsOf(kind, namespace, name).filter(isActive).length;
  if (owner.kind === 'ReplicaSet') {
    const replicaSet = state.replicaSets.get(key);
    const deploymentKey = replicaSet?.deploymentKey ?? null;
    const deployment = deploymentKey === null ? undefined : state.deployments.get(deploymentKey);
    if (deployment !== undefined) {
      const created = state
        .replicaSetsOf(deployment.key)
        .reduce((sum, other) => sum + active('ReplicaSet', other.name), 0);
      return {
        workload: { kind: 'Deployment', name: deployment.name },
        desired: deployment.replicas,
        created,
      };
    }
    return replicaSet === undefined
      ? null
      : { workload: owner, desired: replicaSet.replicas, created: active('ReplicaSet', owner.name) };
  }
  if (owner.kind === 'StatefulSet') {
    const statefulSet = state.statefulSets.get(key);
    return statefulSet === undefined
      ? null
      : { workload: owner, desired: statefulSet.replicas, created: active('StatefulSet', owner.name) };
  }
  return null;
}

/** The refusals with the replicas never created on each workload's last refusal. */
export function withRefusedReplicas(
  rejected: readonly RejectedObject[],
  state: ClusterState,
): RejectedObject[] {
  const counted = rejected.map((entry) =>
    entry.kind === 'Pod' || entry.kind === 'PersistentVolumeClaim'
      ? replicasOf(state, entry.owner, entry.namespace ?? 'default')
      : null,
  );
  const last = new Map<string, number>();
  counted.forEach((replicas, index) => {
    if (replicas !== null) {
      last.set(
        `${rejected[index]?.namespace ?? ''}/${replicas.workload.kind}/${replicas.workload.name}`,
        index,
      );
    }
  });
  return rejected.map((entry, index) => {
    const replicas = counted[index];
    const isLast =
      replicas !== null &&
      replicas !== undefined &&
      last.get(`${entry.namespace ?? ''}/${replicas.workload.kind}/${replicas.workload.name}`) === index;
    return isLast && replicas.created < replicas.desired ? { ...entry, replicas } : entry;
  });
}
