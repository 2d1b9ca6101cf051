/**
 * The names of the cluster file's pods, taken before the run so that no pod the simulation creates gets one.
 */
import type { Cluster } from '../../model/snapshot/cluster';
import type { PodLoadMemo } from '../../model/load/pod-load-memo';
import { NameAllocator } from '../../workloads/names';

/**
 * A name allocator with the names of the cluster's pods taken, and their latest start time. When the pods are
 * exactly those the memo's binding added (a replay, as every call after the first with the same cluster), the
 * memo's set of their keys serves as is instead of a set of 150,000 names made per call; else each is reserved.
 */
export function takeClusterPodNames(
  cluster: Cluster,
  podMemo: PodLoadMemo | undefined,
): { names: NameAllocator; latestStart: number } {
  const bound = podMemo?.boundKeys();
  let latestStart = 0;
  let count = 0;
  let boundCount = 0;
  for (const node of cluster.nodes) {
    for (const pod of node.pods) {
      count++;
      if (bound?.has(pod.key) === true) {
        boundCount++;
      }
      latestStart = Math.max(latestStart, pod.startTime ?? 0);
    }
  }
  // Keys are unique on a cluster's nodes (cluster-load.ts drops duplicates): equal counts mean equal sets.
  if (bound !== undefined && boundCount === count && count === bound.size) {
    return { names: new NameAllocator(bound), latestStart };
  }
  const names = new NameAllocator();
  for (const node of cluster.nodes) {
    for (const pod of node.pods) {
      names.reserveKey(pod.key);
    }
  }
  return { names, latestStart };
}
