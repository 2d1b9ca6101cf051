/**
 * Which nodes the cluster autoscaler may remove, and what blocks it.
 *
 * Eligibility (core/scaledown/eligibility/eligibility.go): a node annotated
 * `cluster-autoscaler.kubernetes.io/scale-down-disabled: "true"` or already tainted ToBeDeletedByClusterAutoscaler
 * stays; otherwise it is a candidate when its utilization — the larger of requested cpu / allocatable cpu and
 * requested memory / allocatable memory, DaemonSet pods included (--ignore-daemonsets-utilization=false) — is below
 * --scale-down-utilization-threshold (utilization/info.go).
 *
 * Drainability (simulator/drainability/rules, in upstream's order; the first rule with a decision wins): mirror and
 * finished pods need no move; `safe-to-evict: "true"` moves; DaemonSet pods need no move; a pod without a
 * controller blocks ("is not replicated"), so does a kube-system pod no PodDisruptionBudget covers, a
 * `safe-to-evict: "false"` pod, a pod with local storage (hostPath, or emptyDir not in memory;
 * --skip-nodes-with-local-storage=true) and a pod whose budget allows no disruption. Messages are upstream's.
 * Left out: the GPU threshold, scale-down of unready nodes, --skip-nodes-with-custom-controller-pods checks of the
 * controller's replicas, long-terminating pods.
 */
import type { Resources } from '../model/resources';

/** The annotation that keeps a node from scale-down. */
export const SCALE_DOWN_DISABLED_ANNOTATION = 'cluster-autoscaler.kubernetes.io/scale-down-disabled';
/** The pod annotation that says whether the autoscaler may evict it. */
export const SAFE_TO_EVICT_ANNOTATION = 'cluster-autoscaler.kubernetes.io/safe-to-evict';
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
export type UnremovableReason = 'ScaleDownDisabledAnnotation' | 'CurrentlyBeingDeleted' | 'NotUnderutilized';

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

/** Whether the node may be considered for removal (FilterOutUnremovable for one node). */
export function checkEligibility(node: ScaleDownNode, threshold: number): Eligibility {
  const utilization = nodeUtilization(node);
  if (node.taintKeys.includes(TO_BE_DELETED_TAINT)) {
    return { utilization, reason: 'CurrentlyBeingDeleted' };
  }
  if (node.annotations[SCALE_DOWN_DISABLED_ANNOTATION] === 'true') {
    return { utilization, reason: 'ScaleDownDisabledAnnotation' };
  }
  return { utilization, reason: utilization < threshold ? null : 'NotUnderutilized' };
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
  /** hostPath, or emptyDir not backed by memory. */
  readonly hasLocalStorage: boolean;
  /** status.disruptionsAllowed of each PodDisruptionBudget selecting it. */
  readonly budgetsAllowed: readonly number[];
}

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
  const safeToEvict = pod.annotations[SAFE_TO_EVICT_ANNOTATION];
  if (pod.isMirror) {
    return 'skip';
  }
  if (safeToEvict === 'true') {
    return 'move';
  }
  if (pod.isTerminal || pod.controllerKind === 'DaemonSet') {
    return 'skip';
  }
  if (pod.controllerKind === null) {
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
  if (pod.hasLocalStorage) {
    return block('LocalStorageRequested', `pod with local storage present: ${pod.name}`);
  }
  if (pod.budgetsAllowed.some((allowed) => allowed < 1)) {
    return block('NotEnoughPdb', `not enough pod disruption budget to move ${pod.namespace}/${pod.name}`);
  }
  return 'move';
}
