/**
 * The workload objects of the simulated API server: what each controller reads and writes. A controller writes
 * only its own objects' status and the objects it owns (the deployment controller scales its ReplicaSets); it
 * reads others' objects, never their internal state.
 */
import type { JsonObject } from '../model/json';
import type { LabelSelector } from '../workloads/label-selector';
import type { ObjectSource } from '../model/source';
import type { BudgetStatus } from '../controllers/disruption/disruption-budget';
import type { DeploymentStrategy } from '../controllers/rollout-arithmetic';
import type { IntOrPercent } from '../model/int-or-percent';

/** A ReplicaSet (made by a Deployment, or written by a person). */
export interface SimReplicaSet {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** The owning Deployment's key, or null. */
  readonly deploymentKey: string | null;
  /** The pod template (with the pod-template-hash label for a Deployment's ReplicaSet). */
  readonly template: JsonObject;
  /** pod-template-hash. */
  readonly templateHash: string;
  readonly source: ObjectSource;
  /** Creation order (ReplicaSetsByCreationTimestamp). */
  readonly createdSeq: number;
  minReadySeconds: number;
  /** spec.replicas. */
  replicas: number;
  /** deployment.kubernetes.io/desired-replicas and max-replicas annotations, and revision. */
  desiredReplicas: number | null;
  maxReplicas: number | null;
  revision: number;
  /** status, written by the ReplicaSet controller. */
  status: ReplicaSetStatus;
  /** How many pods the controller created so far (seeds their names). */
  podsCreated: number;
}

/** ReplicaSet status. */
export interface ReplicaSetStatus {
  readonly replicas: number;
  readonly readyReplicas: number;
  readonly availableReplicas: number;
}

/** The Deployment's Progressing condition, reduced to what the timeline needs. */
interface ProgressCondition {
  readonly reason:
    | 'NewReplicaSetCreated'
    | 'FoundNewReplicaSet'
    | 'ReplicaSetUpdated'
    | 'NewReplicaSetAvailable'
    | 'ProgressDeadlineExceeded';
  /** lastUpdateTime. */
  readonly lastUpdate: number;
}

/** Deployment status (calculateStatus). */
export interface DeploymentStatus {
  readonly replicas: number;
  readonly updatedReplicas: number;
  readonly readyReplicas: number;
  readonly availableReplicas: number;
  readonly unavailableReplicas: number;
}

/** A Deployment. */
export interface SimDeployment {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly source: ObjectSource;
  readonly selector: LabelSelector;
  /** The template as written (without pod-template-hash). */
  readonly template: JsonObject;
  readonly templateHash: string;
  readonly strategy: DeploymentStrategy;
  readonly minReadySeconds: number;
  /** null when progressDeadlineSeconds is unset (the API default is 600). */
  readonly progressDeadlineSeconds: number | null;
  readonly paused: boolean;
  replicas: number;
  progress: ProgressCondition | null;
  status: DeploymentStatus;
  /** Whether a rollout (a new template, or a first creation) is tracked in the report. */
  isTracked: boolean;
}

/** A StatefulSet. */
export interface SimStatefulSet {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly source: ObjectSource;
  readonly selector: LabelSelector;
  /** The object as applied: pods of the update revision are expanded from it. */
  readonly object: JsonObject;
  /** The object pods of the current revision come from (the cluster's, before the update). */
  currentObject: JsonObject;
  currentRevision: string;
  readonly updateRevision: string;
  readonly podManagementPolicy: 'OrderedReady' | 'Parallel';
  readonly updateStrategy: 'RollingUpdate' | 'OnDelete';
  readonly partition: number;
  readonly maxUnavailable: IntOrPercent | undefined;
  readonly minReadySeconds: number;
  readonly startOrdinal: number;
  replicas: number;
  isTracked: boolean;
}

/** A DaemonSet. */
export interface SimDaemonSet {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly source: ObjectSource;
  readonly selector: LabelSelector;
  readonly object: JsonObject;
  /** Objects by revision hash, so old pods can be recreated as they were (not needed after the update). */
  readonly updateRevision: string;
  readonly updateStrategy: 'RollingUpdate' | 'OnDelete';
  readonly maxSurge: IntOrPercent | undefined;
  readonly maxUnavailable: IntOrPercent | undefined;
  readonly minReadySeconds: number;
  isTracked: boolean;
  /** How many pods the controller created on each node so far (seeds their names). */
  readonly podsCreatedOnNode: Map<string, number>;
}

/** A PodDisruptionBudget (policy/v1). */
export interface SimDisruptionBudget {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly source: ObjectSource;
  /** null: the selector is absent and selects nothing. */
  readonly selector: LabelSelector | null;
  /** spec.selector as Go's %v prints it (the UnmanagedPods event's message). */
  readonly selectorText: string;
  readonly minAvailable: IntOrPercent | undefined;
  readonly maxUnavailable: IntOrPercent | undefined;
  readonly unhealthyPodEvictionPolicy: 'IfHealthyBudget' | 'AlwaysAllow';
  /** status, written by the disruption controller and decremented by the eviction API. */
  status: BudgetStatus;
  /**
   * status.disruptionsAllowed each time it changed (simulated seconds), from the first sync: what a plan reads to
   * say how much of the budget an apply's rollout consumed, whichever selected pods were unavailable.
   */
  readonly allowedChanges: { at: number; disruptionsAllowed: number }[];
}
