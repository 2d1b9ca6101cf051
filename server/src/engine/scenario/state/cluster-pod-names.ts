/**
 * The names of the cluster file's pods, taken before the run so that no pod the simulation creates gets one.
 */
import type { Cluster } from '../../model/snapshot/cluster';
import type { PodLoadMemo } from '../../model/load/pod-load-memo';
import { NameAllocator } from '../../workloads/names';

/**
 * A name allocator with the names of the cluster's pods taken, and their latest start time. When a replay of the
 * memo's binding filled the cluster (every call after the first with the same cluster array), the memo's set of
 * their keys serves as is instead of a set of 150,000 names made per call; else each is reserved.
 */
export function takeClusterPodNames(
  cluster: Cluster,
  podMemo: PodLoadMemo | undefined,
): { names: NameAllocator; latestStart: number } {
  const replayed = podMemo?.replayedPods(cluster) ?? null;
  if (replayed !== null) {
    return { names: new NameAllocator(replayed.keys), latestStart: replayed.latestStart };
  }
  const names = new NameAllocator();
  let latestStart = 0;
  for (const node of cluster.nodes) {
    for (const pod of node.pods) {
      names.reserveKey(pod.key);
      latestStart = Math.max(latestStart, pod.startTime ?? 0);
    }
  }
  return { names, latestStart };
}
