/**
 * The kubelet eviction manager's choices under memory pressure, pure (pkg/kubelet/eviction/helpers.go):
 * rankMemoryPressure orders the node's pods by exceedMemoryRequests (pods using more than their memory request
 * first), then priority (lowest first), then memory (the largest use above request first); evictionMessage is the
 * message the evicted pod's status and the Evicted event carry.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/eviction/helpers.go
 * Upstream sorts with sort.Sort (not stable); remaining ties go to the pod created first, then by name, so a run
 * is deterministic.
 */
import { formatBytes } from '../model/quantity';

/** A pod the eviction manager may evict, with what the summary API reports of it. */
export interface MemoryCandidate {
  readonly name: string;
  readonly priority: number;
  /** The pod's effective memory request (GetResourceRequestQuantity), bytes. */
  readonly requestBytes: number;
  /** Its working set, bytes. */
  readonly usageBytes: number;
  readonly createdSeq: number;
}

/** A container as evictionMessage reads it. */
export interface ContainerUsage {
  readonly name: string;
  readonly usageBytes: number;
  readonly requestBytes: number;
  /** The request as the pod spec writes it ("0" when none). */
  readonly requestText: string;
}

/** The hard eviction threshold the kubelet defaults to: memory.available<100Mi. */
export const MEMORY_AVAILABLE_THRESHOLD_BYTES = 100 * 1024 * 1024;

/** rankMemoryPressure: the order in which the pods would be evicted. */
export function rankMemoryPressure<T extends MemoryCandidate>(pods: readonly T[]): T[] {
  return [...pods].sort((a, b) => {
    const aExceeds = a.usageBytes > a.requestBytes;
    const bExceeds = b.usageBytes > b.requestBytes;
    if (aExceeds !== bExceeds) {
      return aExceeds ? -1 : 1; // exceedMemoryRequests
    }
    if (a.priority !== b.priority) {
      return a.priority - b.priority; // priority: lowest first
    }
    const above = b.usageBytes - b.requestBytes - (a.usageBytes - a.requestBytes);
    if (above !== 0) {
      return above; // memory: the largest consumption above request first
    }
    return a.createdSeq - b.createdSeq || a.name.localeCompare(b.name);
  });
}

/**
 * evictionMessage for memory: "The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. "
 * then, for each container using more than its request, "Container app was using 300Mi, request is 128Mi, has
 * larger consumption of memory. " (upstream's fragments, trailing spaces included).
 */
export function memoryEvictionMessage(
  thresholdBytes: number,
  availableBytes: number,
  containers: readonly ContainerUsage[],
): string {
  let message = 'The node was low on resource: memory. ';
  // A scenario may give the pods more memory than the node has; a real node's working set never exceeds its
  // capacity (the kernel reclaims or OOM-kills first), so the kubelet never observes less than nothing available.
  const available = formatBytes(Math.max(0, availableBytes));
  message += `Threshold quantity: ${formatBytes(thresholdBytes)}, available: ${available}. `;
  for (const container of containers) {
    if (container.usageBytes > container.requestBytes) {
      message += `Container ${container.name} was using ${formatBytes(container.usageBytes)}, request is ${container.requestText}, has larger consumption of memory. `;
    }
  }
  return message;
}

/**
 * A pod's working set split among its containers (the simulation knows only the pod's): each container up to its
 * request in spec order, what is left to the first container.
 */
export function splitPodUsage(
  usageBytes: number,
  containers: readonly Omit<ContainerUsage, 'usageBytes'>[],
): ContainerUsage[] {
  let left = usageBytes;
  const shares = containers.map((container) => {
    const share = Math.min(left, container.requestBytes);
    left -= share;
    return { ...container, usageBytes: share };
  });
  const first = shares[0];
  if (first !== undefined) {
    shares[0] = { ...first, usageBytes: first.usageBytes + left };
  }
  return shares;
}
