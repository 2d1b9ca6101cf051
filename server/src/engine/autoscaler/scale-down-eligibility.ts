/**
 * Which nodes the cluster autoscaler may remove, and what blocks it.
 *
 * Eligibility (core/scaledown/eligibility/eligibility.go unremovableReasonAndNodeUtilization): a node already
 * tainted ToBeDeletedByClusterAutoscaler or annotated `cluster-autoscaler.kubernetes.io/scale-down-disabled: "true"`
 * stays; a node without cpu or memory allocatable cannot be measured (UnexpectedError); otherwise it is a candidate
 * when its utilization — the larger of requested cpu / allocatable cpu and requested memory / allocatable memory,
 * DaemonSet and mirror pods included (--ignore-daemonsets-utilization=false, --ignore-mirror-pods-utilization=false),
 * pods terminating for longer than their grace period plus 30 s left out (utilization/info.go) — is at or below
 * --scale-down-utilization-threshold (`Utilization > threshold` keeps it, since cluster-autoscaler 1.31).
 *
 * Drainability (simulator/drainability/rules/rules.go Default, in that order; the first rule with a decision wins):
 * mirror and long-terminating pods are skipped; DaemonSet pods go with the node; `safe-to-evict: "true"` and
 * finished pods are drainable; a pod whose controller is not a ReplicationController, Job, ReplicaSet or
 * StatefulSet blocks ("is not replicated", --skip-nodes-with-custom-controller-pods=true), so does a kube-system pod
 * no PodDisruptionBudget covers, a `safe-to-evict: "false"` pod, a pod with local storage (hostPath, or emptyDir not
 * in memory) not listed in its `safe-to-evict-local-volumes` annotation (--skip-nodes-with-local-storage=true) and a
 * pod whose budget has no disruption left. Messages are upstream's.
 * Left out: the GPU and DRA utilization, scale-down of unready nodes, the replica-count rule's checks that the
 * controller still exists, expendable pods (priority under -10), the blocking system pods' disruption timeout.
 */
import type { Resources } from '../model/resources';

/** The annotation that keeps a node from scale-down. */
export const SCALE_DOWN_DISABLED_ANNOTATION = 'cluster-autoscaler.kubernetes.io/scale-down-disabled';
/** The pod annotation that says whether the autoscaler may evict it. */
export const SAFE_TO_EVICT_ANNOTATION = 'cluster-autoscaler.kubernetes.io/safe-to-evict';
/** The pod annotation listing local volumes that do not block a scale-down (comma-separated names). */
export const SAFE_TO_EVICT_LOCAL_VOLUMES_ANNOTATION =
  'cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes';
/** The taint the autoscaler puts on a node it removes. */
export const TO_BE_DELETED_TAINT = 'ToBeDeletedByClusterAutoscaler';

/** A node as the eligibility check reads it. */
export interface ScaleDownNode {
  readonly name: string;
  readonly allocatable: Resources;
  readonly annotations: Readonly<Record<string, string>>;
  readonly taintKeys: readonly string[];
  /** Requests of the pods on it (cpu in millicores, memory in bytes). */
  readonly podRequests: readonly { readonly milliCpu: number; readonly memory: number }[];
}

/** Why a node is not a scale-down candidate (simulator.UnremovableReason names). */
export type UnremovableReason =
  'ScaleDownDisabledAnnotation' | 'CurrentlyBeingDeleted' | 'NotUnderutilized' | 'UnexpectedError';

/** The verdict on one node. */
export interface Eligibility {
  readonly utilization: number;
  /** null: a candidate. */
  readonly reason: UnremovableReason | null;
}

/** The node's utilization: max of the cpu and memory shares its pods request. */
export function nodeUtilization(node: Pick<ScaleDownNode, 'allocatable' | 'podRequests'>): number {
  const cpu = node.podRequests.reduce((sum, pod) => sum + pod.milliCpu, 0);
  const memory = node.podRequests.reduce((sum, pod) => sum + pod.memory, 0);
  const cpuShare = node.allocatable.milliCpu > 0 ? cpu / node.allocatable.milliCpu : 0;
  const memoryShare = node.allocatable.memory > 0 ? memory / node.allocatable.memory : 0;
  return Math.max(cpuShare, memoryShare);
}

/**
 * Whether the node may be considered for removal (FilterOutUnremovable for one node): being deleted and the
 * annotation first; a node without cpu or memory allocatable is not measured (utilization.Calculate errs).
 */
export function checkEligibility(node: ScaleDownNode, threshold: number): Eligibility {
  const utilization = nodeUtilization(node);
  if (node.taintKeys.includes(TO_BE_DELETED_TAINT)) {
    return { utilization, reason: 'CurrentlyBeingDeleted' };
  }
  if (node.annotations[SCALE_DOWN_DISABLED_ANNOTATION] === 'true') {
    return { utilization, reason: 'ScaleDownDisabledAnnotation' };
  }
  if (node.allocatable.milliCpu <= 0 || node.allocatable.memory <= 0) {
    return { utilization, reason: 'UnexpectedError' };
  }
  return { utilization, reason: utilization > threshold ? 'NotUnderutilized' : null };
}

/** A pod on a node being considered, as the drainability rules read it. */
export interface DrainCandidatePod {
  readonly namespace: string;
  readonly name: string;
  /** The kind of its controller (ownerReference with controller: true), or null. */
  readonly controllerKind: string | null;
  readonly annotations: Readonly<Record<string, string>>;
  readonly isMirror: boolean;
  readonly isTerminal: boolean;
  /** Deleted longer ago than its grace period plus 30 s (drain.IsPodLongTerminating). */
  readonly isLongTerminating: boolean;
  /** Names of its hostPath volumes and emptyDir volumes not backed by memory. */
  readonly localVolumes: readonly string[];
  /** What is left of status.disruptionsAllowed of each PodDisruptionBudget selecting it (RemainingPdbTracker). */
  readonly budgetsAllowed: readonly number[];
}

/** The controller kinds whose pods count as replicated (replicated/rule.go replicatedKind). */
const REPLICATED_KINDS: ReadonlySet<string> = new Set([
  'ReplicationController',
  'Job',
  'ReplicaSet',
  'StatefulSet',
]);

/** Why a pod keeps its node (drain.BlockingPodReason). */
export type BlockingReason =
  | 'NotReplicated'
  | 'UnmovableKubeSystemPod'
  | 'NotSafeToEvictAnnotation'
  | 'LocalStorageRequested'
  | 'NotEnoughPdb';

/** The pod that keeps a node, with upstream's message. */
export interface BlockingPod {
  readonly pod: string;
  readonly reason: BlockingReason;
  readonly message: string;
}

/** What a drain of the node would do (GetPodsToMove): the pods to move, or the first pod that blocks. */
export interface PodsToMove {
  readonly move: readonly DrainCandidatePod[];
  readonly blocking: BlockingPod | null;
}

/** Runs the drainability rules over the node's pods. */
export function podsToMove(pods: readonly DrainCandidatePod[]): PodsToMove {
  const move: DrainCandidatePod[] = [];
  for (const pod of pods) {
    const verdict = drainable(pod);
    if (verdict === 'skip') {
      continue;
    }
    if (verdict !== 'move') {
      return { move: [], blocking: verdict };
    }
    move.push(pod);
  }
  return { move, blocking: null };
}

function drainable(pod: DrainCandidatePod): 'move' | 'skip' | BlockingPod {
  const block = (reason: BlockingReason, message: string): BlockingPod => ({
    pod: `${pod.namespace}/${pod.name}`,
    reason,
    message,
  });
  if (pod.isMirror || pod.isLongTerminating) {
    return 'skip';
  }
  if (pod.controllerKind === 'DaemonSet') {
    return 'skip'; // drainable, and counted among the DaemonSet pods that go with the node
  }
  const safeToEvict = pod.annotations[SAFE_TO_EVICT_ANNOTATION];
  if (safeToEvict === 'true' || pod.isTerminal) {
    return 'move';
  }
  if (pod.controllerKind === null || !REPLICATED_KINDS.has(pod.controllerKind)) {
    return block('NotReplicated', `${pod.namespace}/${pod.name} is not replicated`);
  }
  if (pod.namespace === 'kube-system' && pod.budgetsAllowed.length === 0) {
    return block(
      'UnmovableKubeSystemPod',
      `non-daemonset, non-mirrored, non-pdb-assigned kube-system pod present: ${pod.name}`,
    );
  }
  if (safeToEvict === 'false') {
    return block('NotSafeToEvictAnnotation', `pod annotated as not safe to evict present: ${pod.name}`);
  }
  if (hasBlockingLocalStorage(pod)) {
    return block('LocalStorageRequested', `pod with local storage present: ${pod.name}`);
  }
  if (pod.budgetsAllowed.some((allowed) => allowed < 1)) {
    return block('NotEnoughPdb', `not enough pod disruption budget to move ${pod.namespace}/${pod.name}`);
  }
  return 'move';
}

/** drain.HasBlockingLocalStorage: a local volume the safe-to-evict-local-volumes annotation does not name. */
function hasBlockingLocalStorage(pod: DrainCandidatePod): boolean {
  const listed = pod.annotations[SAFE_TO_EVICT_LOCAL_VOLUMES_ANNOTATION] ?? '';
  const nonBlocking = new Set(listed === '' ? [] : listed.split(','));
  return pod.localVolumes.some((volume) => !nonBlocking.has(volume));
}
