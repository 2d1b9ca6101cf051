/**
 * The contract of workload expansion: manifests in, the pods their controllers would create out.
 */
import type { ObjectSource } from '../model/source';
import type { Finding } from '../../../../protocol/finding';

/** One object from the user's manifests, with where it was written. */
export interface WorkloadInput {
  /** Plain Kubernetes JSON: a Deployment, a Pod, a List, anything (other kinds are ignored). */
  readonly object: unknown;
  readonly source: ObjectSource;
}

/** The workload a user wrote (the Deployment, not the ReplicaSet it creates). */
export interface WorkloadOwner {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
}

/** A pod as the controller of its workload would create it. */
export interface ExpandedPod {
  /**
   * Plain Pod JSON: metadata (name, generateName, namespace, labels, annotations, ownerReferences, finalizers)
   * and the spec from the template with what the controller changes (tolerations and node affinity of daemon
   * pods, hostname and volumes of stateful pods, the completion index of indexed jobs). API-server defaults
   * (requests from limits, schedulerName…) are not applied: the scheduler model applies those it needs.
   */
  readonly pod: Record<string, unknown>;
  /** The workload the user wrote, or null for a bare Pod. */
  readonly owner: WorkloadOwner | null;
  /** Points at the template the pod was made from (['spec','template'], …), or the Pod itself. */
  readonly source: ObjectSource;
  /** The pod's place among its workload's pods, 0..n-1 in creation order (ordinals, nodes and indexes in order). */
  readonly replicaIndex: number;
}

/** What expansion needs besides the objects. */
export interface ExpandOptions {
  /** The cluster's Node objects (plain JSON), in order: DaemonSets create one pod per eligible node. */
  readonly nodes?: readonly unknown[];
  /**
   * The most pods to create (default MAX_EXPANDED_PODS): `replicas: 1000000` would otherwise take the memory
   * and minutes of a million pods. Beyond it no pod is returned and `limitReached` says so.
   */
  readonly maxPods?: number;
}

/** The default of ExpandOptions.maxPods: twice the benchmark's 50,000-pod cluster. */
export const MAX_EXPANDED_PODS = 100_000;

/** The result of expanding workloads: never throws, problems are findings. */
export interface ExpansionResult {
  readonly pods: readonly ExpandedPod[];
  readonly findings: readonly Finding[];
  /** True when the input asks for more pods than maxPods: then `pods` is empty and a finding names the workload. */
  readonly limitReached?: boolean;
}
