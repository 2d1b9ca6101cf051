/**
 * The scale subresource of the workloads that have one (Deployment, StatefulSet, ReplicaSet): what `kubectl scale`
 * and the HPA controller read and write. Writing spec.replicas is all they do; each workload's own controller sees
 * its object change and acts.
 * https://kubernetes.io/docs/reference/kubernetes-api/autoscaling-resources/scale-v1/
 */
import type { ClusterState } from './cluster-state';

/** The kinds a scale step or an HPA can target. */
export type ScalableKind = 'Deployment' | 'StatefulSet' | 'ReplicaSet';

/** Whether a kind has a scale subresource the simulation models. */
export function isScalableKind(kind: string): kind is ScalableKind {
  return kind === 'Deployment' || kind === 'StatefulSet' || kind === 'ReplicaSet';
}

/** Reads and writes spec.replicas through the scale subresource. */
export class ScaleSubresource {
  constructor(
    private readonly state: ClusterState,
    /** Syncs a Deployment or StatefulSet whose spec.replicas changed (the controllers' watch on their objects). */
    private readonly resync: (kind: 'Deployment' | 'StatefulSet', key: string) => void,
  ) {}

  /** spec.replicas of "namespace/name", or undefined when there is no such object. */
  replicas(kind: ScalableKind, key: string): number | undefined {
    const { state } = this;
    const object =
      kind === 'ReplicaSet'
        ? state.replicaSets.get(key)
        : kind === 'Deployment'
          ? state.deployments.get(key)
          : state.statefulSets.get(key);
    return object?.replicas;
  }

  /** Writes spec.replicas; false when there is no such object. */
  write(kind: ScalableKind, key: string, replicas: number): boolean {
    const { state } = this;
    if (kind === 'ReplicaSet') {
      const replicaSet = state.replicaSets.get(key);
      if (replicaSet === undefined) {
        return false;
      }
      replicaSet.replicas = replicas;
      state.replicaSetChanged(replicaSet, 'spec');
      return true;
    }
    const target = kind === 'Deployment' ? state.deployments.get(key) : state.statefulSets.get(key);
    if (target === undefined) {
      return false;
    }
    target.replicas = replicas;
    this.resync(kind, key);
    return true;
  }
}
