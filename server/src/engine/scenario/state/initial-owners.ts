/**
 * The workload each pod of the cluster file belongs to, for the initial state (initial-state.ts): by its
 * ownerReferences, else by the workloads' selectors (a Deployment's pods grouped by pod-template-hash).
 *
 * A capture holds 150,000 pods of a few thousand workloads: the owner of a workload is made once per build and
 * shared by its pods, with the key its pods claim. ControllerRef and WorkloadRef are read-only, and a budget's
 * scale lookup that finds a pod by its ref (disruption-controller.ts) finds the first pod of that controller
 * either way, since the lookups go in pod order and the first failing one ends the search.
 */
import type { ClusterState } from '../../apiserver/cluster-state';
import type { ControllerRef, SimPod, WorkloadRef } from '../../apiserver/sim-pod';
import { replicaSetFor } from './initial-replica-sets';

/** The owner of a cluster-file pod. */
export interface Ownership {
  readonly controllerRef: ControllerRef | null;
  readonly workload: WorkloadRef | null;
  /** A StatefulSet pod's ordinal, from its name. */
  readonly ordinal: number | null;
  /** "kind/namespace/name" of the controller, or '' (the controllers whose pods the cluster file lists). */
  readonly claim: string;
}

/** An owner made for the first pod of a workload, and that pod's namespace. */
interface SharedOwner {
  readonly namespace: string;
  readonly ownership: Ownership;
}

/** Finds the owners of the cluster file's pods against one ClusterState's workloads. */
export class InitialOwners {
  /** By the StatefulSet, DaemonSet or ReplicaSet found. */
  private readonly shared = new Map<object, SharedOwner>();

  constructor(private readonly state: ClusterState) {}

  /** The workload a pod belongs to: by ownerReferences, else by the workloads' selectors. */
  of(pod: Pick<SimPod, 'namespace' | 'name' | 'labels' | 'controllerRef'>): Ownership {
    const { state } = this;
    const ref = pod.controllerRef;
    for (const set of state.statefulSets.values()) {
      if (
        set.namespace === pod.namespace &&
        (ref?.kind === 'StatefulSet' ? ref.name === set.name : set.selector.matches(pod.labels))
      ) {
        const owner = this.owner(set, pod.namespace, { kind: 'StatefulSet', name: set.name }, null);
        return { ...owner, ordinal: ordinalOf(pod.name, set.name) };
      }
    }
    for (const set of state.daemonSets.values()) {
      if (
        set.namespace === pod.namespace &&
        (ref?.kind === 'DaemonSet' ? ref.name === set.name : set.selector.matches(pod.labels))
      ) {
        return this.owner(set, pod.namespace, { kind: 'DaemonSet', name: set.name }, null);
      }
    }
    const replicaSet = replicaSetFor(state, pod);
    if (replicaSet !== null) {
      const deployment =
        replicaSet.deploymentKey === null ? undefined : state.deployments.get(replicaSet.deploymentKey);
      return this.owner(
        replicaSet,
        pod.namespace,
        { kind: 'ReplicaSet', name: replicaSet.name },
        deployment === undefined ? null : { kind: 'Deployment', name: deployment.name },
      );
    }
    return { controllerRef: ref, workload: null, ordinal: null, claim: claimOf(ref, pod.namespace) };
  }

  /** The owner shared by the pods of `found` in `namespace` (the workload is the controller unless given). */
  private owner(
    found: object,
    namespace: string,
    controllerRef: ControllerRef,
    workload: WorkloadRef | null,
  ): Ownership {
    const known = this.shared.get(found);
    if (known !== undefined && known.namespace === namespace) {
      return known.ownership;
    }
    const ownership: Ownership = {
      controllerRef,
      workload: workload ?? { kind: controllerRef.kind, name: controllerRef.name },
      ordinal: null,
      claim: claimOf(controllerRef, namespace),
    };
    this.shared.set(found, { namespace, ownership });
    return ownership;
  }
}

function claimOf(ref: ControllerRef | null, namespace: string): string {
  return ref === null ? '' : `${ref.kind}/${namespace}/${ref.name}`;
}

/** The ordinal of a StatefulSet's pod ("web-2" of "web"), or null when its name is not "<set>-<number>". */
function ordinalOf(podName: string, setName: string): number | null {
  const suffix = podName.slice(setName.length + 1);
  return podName.startsWith(`${setName}-`) && /^\d+$/.test(suffix) ? Number(suffix) : null;
}
