/**
 * One scan's removal simulation (core/scaledown/planner/planner.go categorizeNodes, simulator/cluster.go
 * SimulateNodeRemoval): the eligible candidates are tried in node order; for each, the drainability rules pick the
 * pods to move (scale-down-eligibility.ts), and those pods — their spec.nodeName cleared, as findPlaceFor does — must
 * each fit one of the pod destinations other than the candidate (the scheduler's PreFilter and Filter plugins,
 * scheduling-snapshot.ts), the candidate itself staying in the snapshot as a pod-less node tainted
 * ToBeDeletedByClusterAutoscaler (replaceWithTaintedGhostNode, so topology spread still counts its domain). A node
 * that passes is removable: it stops being a destination, the pods it sheds stay where the simulation put them for
 * the next candidates (the planner's snapshot persists successful simulations), and its budgets lose what those
 * pods take (RemainingPdbTracker). A node that fails is unremovable (BlockedByPod, NoPlaceToMovePods).
 * Pods are tried on nodes in node order (upstream's hinting simulator starts from the last node used).
 */
import type { BudgetIndex } from '../apiserver/budget-index';
import type { SimNode } from '../apiserver/cluster-state';
import { gracePeriodSeconds } from '../kubelet/pod-startup';
import type { SimPod } from '../apiserver/sim-pod';
import type { PodInfo } from '../model/snapshot/pod-info';
import type { NodeObject } from '../model/objects';
import type { BlockingPod, DrainCandidatePod } from './scale-down-eligibility';
import { TO_BE_DELETED_TAINT, podsToMove } from './scale-down-eligibility';
import { SchedulingSnapshot } from './scheduling-snapshot';
import type { SnapshotSetup } from './scheduling-snapshot';

/** What is left of each budget's disruptionsAllowed during one scan, by budget key. */
export type RemainingBudgets = Map<string, number>;

/** A node the simulation found removable, with the pods to evict (none: an empty node). */
export interface RemovableNode {
  readonly name: string;
  readonly move: readonly SimPod[];
}

/** A node the simulation found unremovable. */
export interface UnremovableNode {
  readonly name: string;
  readonly reason: 'BlockedByPod' | 'NoPlaceToMovePods';
  readonly blocking: BlockingPod | null;
}

/** What a scan's simulation needs. */
export interface PlanInput {
  readonly setup: SnapshotSetup;
  /** The eligible candidates, in node order. */
  readonly candidates: readonly SimNode[];
  /** The nodes pods may move to (registered, alive, not being deleted), in node order. */
  readonly destinations: readonly SimNode[];
  /** The pods of a node as the snapshot holds them (scheduled, not finished). */
  readonly podsOf: (node: SimNode) => readonly SimPod[];
  /** The drainability view of a pod, with the budgets' remaining disruptions. */
  readonly drainView: (pod: SimPod, remaining: RemainingBudgets) => DrainCandidatePod;
  /** The budget keys selecting a pod. */
  readonly budgetsOf: (pod: SimPod) => readonly string[];
  readonly budgets: RemainingBudgets;
}

/** The outcome of one scan's simulation. */
export interface ScaleDownPlan {
  readonly removable: readonly RemovableNode[];
  readonly unremovable: readonly UnremovableNode[];
}

/** Simulates the removal of each candidate in turn. */
export function planRemovals(input: PlanInput): ScaleDownPlan {
  const removed = new Set<string>();
  /** Pods moved by earlier removals, by the node they now sit on. */
  const movedOnto = new Map<string, SimPod[]>();
  const removable: RemovableNode[] = [];
  const unremovable: UnremovableNode[] = [];
  for (const candidate of input.candidates) {
    const pods = [...input.podsOf(candidate), ...(movedOnto.get(candidate.name) ?? [])];
    const byName = new Map(pods.map((pod) => [`${pod.namespace}/${pod.name}`, pod]));
    const plan = podsToMove(pods.map((pod) => input.drainView(pod, input.budgets)));
    if (plan.blocking !== null) {
      unremovable.push({ name: candidate.name, reason: 'BlockedByPod', blocking: plan.blocking });
      continue;
    }
    const move = plan.move.flatMap((view) => byName.get(`${view.namespace}/${view.name}`) ?? []);
    const placements =
      move.length === 0 ? new Map<SimPod, string>() : placeAll(input, candidate, move, removed, movedOnto);
    if (placements === null) {
      unremovable.push({ name: candidate.name, reason: 'NoPlaceToMovePods', blocking: null });
      continue;
    }
    removed.add(candidate.name);
    movedOnto.delete(candidate.name);
    for (const [pod, nodeName] of placements) {
      movedOnto.set(nodeName, [...(movedOnto.get(nodeName) ?? []), pod]);
      for (const key of input.budgetsOf(pod)) {
        input.budgets.set(key, (input.budgets.get(key) ?? 0) - 1);
      }
    }
    removable.push({ name: candidate.name, move });
  }
  return { removable, unremovable };
}

/** findPlaceFor: where each pod goes (breaking on the first that fits nowhere), or null. */
function placeAll(
  input: PlanInput,
  candidate: SimNode,
  move: readonly SimPod[],
  removed: ReadonlySet<string>,
  movedOnto: ReadonlyMap<string, readonly SimPod[]>,
): Map<SimPod, string> | null {
  const snapshot = new SchedulingSnapshot(input.setup);
  const targets: string[] = [];
  for (const node of input.destinations) {
    if (removed.has(node.name)) {
      continue;
    }
    if (node === candidate) {
      snapshot.addNode(ghostOf(node.object), node.info);
      continue;
    }
    snapshot.addCopy(node.info);
    for (const pod of movedOnto.get(node.name) ?? []) {
      snapshot.addPod(pod.info, node.name);
    }
    targets.push(node.name);
  }
  const placements = new Map<SimPod, string>();
  for (const pod of move) {
    const unbound = withoutNodeName(pod.info);
    const fit = snapshot.firstFit(unbound, targets);
    if (fit === null) {
      return null;
    }
    snapshot.addPod(unbound, fit);
    placements.set(pod, fit);
  }
  return placements;
}

/** The candidate as replaceWithTaintedGhostNode leaves it: no pods, the ToBeDeleted taint added. */
function ghostOf(node: NodeObject): NodeObject {
  const taints = [...(node.spec?.taints ?? []), { key: TO_BE_DELETED_TAINT, effect: 'NoSchedule' as const }];
  return { ...node, spec: { ...node.spec, taints } };
}

/** The pod as findPlaceFor schedules it: spec.nodeName cleared (a captured pod names its node). */
export function withoutNodeName(pod: PodInfo): PodInfo {
  const spec = pod.pod.spec;
  if (spec?.nodeName === undefined) {
    return { ...pod, nodeName: null };
  }
  const rest: Record<string, unknown> = { ...spec };
  delete rest['nodeName'];
  return { ...pod, nodeName: null, pod: { ...pod.pod, spec: rest } };
}

/** drain.PodLongTerminatingExtraThreshold: past its grace period by this much, a terminating pod is ignored. */
const LONG_TERMINATING_EXTRA_SECONDS = 30;

/** drain.IsPodLongTerminating: deleted longer ago than its grace period plus 30 s. */
export function isLongTerminating(pod: SimPod, now: number): boolean {
  if (pod.deletionTime === null) {
    return false;
  }
  const grace = gracePeriodSeconds((pod.object.spec ?? {}) as { terminationGracePeriodSeconds?: number });
  return pod.deletionTime + grace + LONG_TERMINATING_EXTRA_SECONDS < now;
}

/** A pod as the drainability rules read it, with what is left of its budgets' disruptions in this scan. */
export function drainViewOf(
  pod: SimPod,
  index: BudgetIndex,
  remaining: RemainingBudgets,
  now: number,
): DrainCandidatePod {
  const volumes =
    (pod.object.spec as { volumes?: readonly Record<string, unknown>[] } | undefined)?.volumes ?? [];
  const localVolumes = volumes.flatMap((volume) => {
    const emptyDir = volume['emptyDir'] as { medium?: string } | undefined | null;
    const hostPath = volume['hostPath'];
    const isLocal =
      (hostPath !== undefined && hostPath !== null) ||
      (emptyDir !== undefined && emptyDir !== null && emptyDir.medium !== 'Memory');
    return isLocal && typeof volume['name'] === 'string' ? [volume['name']] : [];
  });
  return {
    namespace: pod.namespace,
    name: pod.name,
    controllerKind: pod.controllerRef?.kind ?? null,
    annotations: pod.object.metadata?.annotations ?? {},
    isMirror: pod.isMirror,
    isTerminal: pod.terminal !== null,
    isLongTerminating: isLongTerminating(pod, now),
    localVolumes,
    budgetsAllowed: index
      .budgetsOf(pod)
      .map((budget) => remaining.get(budget.key) ?? budget.status.disruptionsAllowed),
  };
}
