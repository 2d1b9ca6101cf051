/**
 * The watch side of the simulated API server: what changed (a pod, a node, a ReplicaSet, a disruption budget's
 * status) and who listens, as informers deliver it to controllers. ClusterState (cluster-state.ts) extends it.
 */
import type { NodeInfo } from '../model/snapshot/node-info';
import type { NodeObject } from '../model/objects';
import type { SimPod } from './sim-pod';
import type { SimDisruptionBudget, SimReplicaSet } from './workload-objects';
import type { SimJob } from './job-objects';

/**
 * What happened to a pod. 'finished': its containers ended for good (Succeeded or Failed, a Job's pod);
 * 'restarted': a container restarted in place (restartPolicy OnFailure).
 */
export type PodChange =
  'created' | 'scheduled' | 'started' | 'ready' | 'unready' | 'deleting' | 'gone' | 'finished' | 'restarted';

/** What happened to a Job: created, its status changed, deleted. */
export type JobChange = 'created' | 'status' | 'deleted';

/** What happened to a node ('removed': deleted from the cluster, by the cluster autoscaler). */
export type NodeChange = 'added' | 'updated' | 'failed' | 'removed';

/** A node with its scheduler view and its kubelet's state. */
export interface SimNode {
  readonly name: string;
  /** The scheduler's view; replaced when the Node object changes (taints, unschedulable). */
  info: NodeInfo;
  object: NodeObject;
  /** Whether its kubelet runs (false after a node failure). */
  isKubeletAlive: boolean;
  /** Images present (or being pulled) with the time they are ready. */
  readonly imageReadyAt: Map<string, number>;
  /** With serialized pulls, when the node's puller is free again. */
  pullFreeAt: number;
}

/** A pod watcher. */
type PodListener = (pod: SimPod, change: PodChange) => void;
/** A node watcher. */
type NodeListener = (node: SimNode, change: NodeChange) => void;
/** A ReplicaSet watcher. */
type ReplicaSetListener = (replicaSet: SimReplicaSet, change: 'spec' | 'status') => void;
/** A PodDisruptionBudget watcher. */
type BudgetListener = (budget: SimDisruptionBudget) => void;
/** A Job watcher. */
type JobListener = (job: SimJob, change: JobChange) => void;

/** The key of a controller's pods: "Kind/namespace/name". */
export function controllerKey(kind: string, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

/** Watchers of the cluster's objects. */
export class ClusterWatch {
  private readonly podListeners: PodListener[] = [];
  private readonly nodeListeners: NodeListener[] = [];
  private readonly replicaSetListeners: ReplicaSetListener[] = [];
  private readonly budgetListeners: BudgetListener[] = [];
  private readonly jobListeners: JobListener[] = [];

  /** Watches pods. */
  onPod(listener: PodListener): void {
    this.podListeners.push(listener);
  }

  /** Watches nodes. */
  onNode(listener: NodeListener): void {
    this.nodeListeners.push(listener);
  }

  /** Watches ReplicaSet spec and status changes. */
  onReplicaSet(listener: ReplicaSetListener): void {
    this.replicaSetListeners.push(listener);
  }

  /** Watches PodDisruptionBudget status changes. */
  onBudget(listener: BudgetListener): void {
    this.budgetListeners.push(listener);
  }

  /** Watches Jobs. */
  onJob(listener: JobListener): void {
    this.jobListeners.push(listener);
  }

  /** Tells watchers that a Job was created, deleted or its status changed. */
  jobChanged(job: SimJob, change: JobChange): void {
    for (const listener of this.jobListeners) {
      listener(job, change);
    }
  }

  /** Tells watchers that a PodDisruptionBudget's status changed. */
  budgetChanged(budget: SimDisruptionBudget): void {
    for (const listener of this.budgetListeners) {
      listener(budget);
    }
  }

  /** Tells watchers that a ReplicaSet's spec (replicas) or status changed. */
  replicaSetChanged(replicaSet: SimReplicaSet, change: 'spec' | 'status'): void {
    for (const listener of this.replicaSetListeners) {
      listener(replicaSet, change);
    }
  }

  protected emitPod(pod: SimPod, change: PodChange): void {
    for (const listener of this.podListeners) {
      listener(pod, change);
    }
  }

  protected emitNode(node: SimNode, change: NodeChange): void {
    for (const listener of this.nodeListeners) {
      listener(node, change);
    }
  }
}
