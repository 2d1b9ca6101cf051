/**
 * Which pods a ReplicaSet deletes first when it scales down (getPodsToDelete with ActivePodsWithRanks): unassigned
 * before assigned, pending before running, not ready before ready, pods doubled up on a node (more pods of the
 * same workload there) before lonely ones, then the most recently ready, then the newest.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/controller_utils.go (ActivePodsWithRanks)
 * Simplified: upstream compares ready and creation times in log2 buckets and breaks ties by UID (random);
 * here exact times are compared and ties go to the newest pod, then the name.
 */
import type { SimPod } from '../apiserver/sim-pod';

/** The `count` pods to delete first among `candidates`; `related` are all pods of the workload (for ranks). */
export function podsToDelete(
  candidates: readonly SimPod[],
  related: readonly SimPod[],
  count: number,
): SimPod[] {
  if (count <= 0) {
    return [];
  }
  // Only the candidates' nodes are counted: the workload's other pods are spread over many more nodes.
  const onNode = new Map<string, number>();
  for (const pod of candidates) {
    onNode.set(pod.nodeName ?? '', 0);
  }
  for (const pod of related) {
    if (pod.deletionTime === null && !pod.isGone) {
      const node = pod.nodeName ?? '';
      const count = onNode.get(node);
      if (count !== undefined) {
        onNode.set(node, count + 1);
      }
    }
  }
  const ranked = candidates.map((pod) => ({ pod, rank: onNode.get(pod.nodeName ?? '') ?? 0 }));
  if (count >= ranked.length) {
    ranked.sort((a, b) => compareForDeletion(a.pod, a.rank, b.pod, b.rank));
    return ranked.map((entry) => entry.pod);
  }
  return firstInOrder(ranked, count).map((entry) => entry.pod);
}

/** A candidate with its rank (how many pods of the workload share its node). */
interface RankedPod {
  readonly pod: SimPod;
  readonly rank: number;
}

/**
 * The first `count` entries of a stable sort by compareForDeletion, in that order, without sorting them all: a
 * rolling update deletes a few pods of a set at a time (maxUnavailable), and ranks its pods on every step. An
 * entry goes after every kept entry it does not precede, as a stable sort would place it.
 */
function firstInOrder(ranked: readonly RankedPod[], count: number): RankedPod[] {
  const kept: RankedPod[] = [];
  const precedes = (a: RankedPod, b: RankedPod): boolean =>
    compareForDeletion(a.pod, a.rank, b.pod, b.rank) < 0;
  for (const entry of ranked) {
    if (kept.length === count && !precedes(entry, kept[count - 1] as RankedPod)) {
      continue;
    }
    let at = kept.length;
    while (at > 0 && precedes(entry, kept[at - 1] as RankedPod)) {
      at--;
    }
    kept.splice(at, 0, entry);
    if (kept.length > count) {
      kept.pop();
    }
  }
  return kept;
}

/** Negative when `a` should be deleted before `b`. */
function compareForDeletion(a: SimPod, rankA: number, b: SimPod, rankB: number): number {
  const assignedA = a.nodeName !== null;
  const assignedB = b.nodeName !== null;
  if (assignedA !== assignedB) {
    return assignedA ? 1 : -1;
  }
  if (a.isRunning !== b.isRunning) {
    return a.isRunning ? 1 : -1;
  }
  if (a.isReady !== b.isReady) {
    return a.isReady ? 1 : -1;
  }
  if (rankA !== rankB) {
    return rankB - rankA;
  }
  if (a.isReady && b.isReady && a.readySince !== b.readySince) {
    return (b.readySince ?? 0) - (a.readySince ?? 0);
  }
  if (a.createdAt !== b.createdAt) {
    return b.createdAt - a.createdAt;
  }
  if (a.createdSeq !== b.createdSeq) {
    return b.createdSeq - a.createdSeq;
  }
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
