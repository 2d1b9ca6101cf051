/**
 * A container's oom_score_adj as the kubelet sets it (GetContainerOOMScoreAdjust in pkg/kubelet/qos/policy.go):
 * -997 for a node-critical pod (priorityClassName system-node-critical) and for Guaranteed pods, 1000 for
 * BestEffort pods, and for Burstable pods 1000 − 1000 × memory request / node memory capacity (integer division),
 * kept between 3 (above any Guaranteed process) and 999 (below BestEffort); a sidecar (a restartable init
 * container) gets at most the score of the regular container with the smallest request.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/qos/policy.go
 * Left out: pod-level memory requests shared among containers (PodLevelResources), and critical static pods.
 */
import { computeQosClass } from './qos';
import { parseQuantity } from './quantity';
import { minOf } from '../../../../protocol/collections';

/** guaranteedOOMScoreAdj. */
export const GUARANTEED_OOM_SCORE_ADJ = -997;
/** besteffortOOMScoreAdj. */
export const BEST_EFFORT_OOM_SCORE_ADJ = 1000;

/** The PriorityClass that makes a pod node-critical (IsNodeCriticalPod). */
const SYSTEM_NODE_CRITICAL = 'system-node-critical';

/** The kubelet's default hard eviction threshold, memory.available<100Mi, which allocatable leaves aside. */
const HARD_EVICTION_BYTES = 100 * 1024 * 1024;

/**
 * A node's memory capacity: status.capacity.memory, else allocatable plus the default hard eviction threshold
 * (what a kubelet without kube-reserved or system-reserved keeps back). Used by oom_score_adj and eviction alike.
 */
export function nodeMemoryCapacity(capacity: string | number | undefined, allocatableBytes: number): number {
  const parsed = capacity === undefined ? null : parseQuantity(capacity);
  return parsed !== null && parsed.ok && parsed.quantity.value > 0
    ? parsed.quantity.value
    : allocatableBytes + HARD_EVICTION_BYTES;
}

/** The score and, in words, how it came out. */
export interface OomScore {
  readonly score: number;
  readonly reason: string;
}

/** A container's memory request in bytes as the API server stores it (the limit when no request is given), or 0. */
function memoryRequest(container: Record<string, unknown>): number {
  const resources = asRecord(container['resources']);
  const value = asRecord(resources['requests'])['memory'] ?? asRecord(resources['limits'])['memory'];
  if (typeof value !== 'string' && typeof value !== 'number') {
    return 0;
  }
  const parsed = parseQuantity(value);
  return parsed.ok && !parsed.quantity.isNegative ? parsed.quantity.value : 0;
}

/**
 * The oom_score_adj of the container `containerName` of a pod, on a node with `memoryCapacity` bytes; null when the
 * pod has no such container (regular or sidecar) or the capacity is not positive.
 */
export function containerOomScoreAdjust(
  podSpec: unknown,
  containerName: string,
  memoryCapacity: number,
  options: { readonly podLevelResources?: boolean } = {},
): OomScore | null {
  const spec = asRecord(podSpec);
  const regular = asRecords(spec['containers']);
  const sidecars = asRecords(spec['initContainers']).filter((c) => c['restartPolicy'] === 'Always');
  const container = [...regular, ...sidecars].find((candidate) => candidate['name'] === containerName);
  if (container === undefined || !(memoryCapacity > 0)) {
    return null;
  }
  if (spec['priorityClassName'] === SYSTEM_NODE_CRITICAL) {
    return { score: GUARANTEED_OOM_SCORE_ADJ, reason: 'the pod is node-critical (system-node-critical)' };
  }
  const qos = computeQosClass(spec, options).qosClass;
  if (qos === 'Guaranteed') {
    return { score: GUARANTEED_OOM_SCORE_ADJ, reason: 'the pod is Guaranteed' };
  }
  if (qos === 'BestEffort') {
    return { score: BEST_EFFORT_OOM_SCORE_ADJ, reason: 'the pod is BestEffort' };
  }
  const request = memoryRequest(container);
  let score = 1000 - Math.trunc((1000 * request) / memoryCapacity);
  let basis = `Burstable: 1000 − 1000 × ${request} / ${memoryCapacity} bytes`;
  if (sidecars.includes(container) && regular.length > 0) {
    const smallest = minOf(regular.map(memoryRequest));
    const cap = 1000 - Math.trunc((1000 * smallest) / memoryCapacity);
    if (score > cap) {
      score = cap;
      basis = `Burstable sidecar: at most the score of the regular container with the smallest request (${smallest} bytes)`;
    }
  }
  if (score < 1000 + GUARANTEED_OOM_SCORE_ADJ) {
    return { score: 1000 + GUARANTEED_OOM_SCORE_ADJ, reason: `${basis}, raised to 3 (above Guaranteed)` };
  }
  if (score === BEST_EFFORT_OOM_SCORE_ADJ) {
    return { score: BEST_EFFORT_OOM_SCORE_ADJ - 1, reason: `${basis}, lowered to 999 (below BestEffort)` };
  }
  return { score, reason: basis };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function asRecords(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.map(asRecord) : [];
}
