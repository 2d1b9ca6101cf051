/**
 * The two label indexes of TopologyIndex (topology-counter.ts), one label key at a time: placed pods by the key's
 * value (with their node's position), and the pod change log's positions by the key's value. A value is String()
 * of what the pod's labels hold.
 */
import type { PodInfo } from '../../../model/snapshot/pod-info';

/** The value of a pod's label as the index keys it (String() of what the object holds), or undefined. */
function labelOf(pod: PodInfo, key: string): string | undefined {
  const labels = pod.labels;
  return Object.prototype.hasOwnProperty.call(labels, key) ? String(labels[key]) : undefined;
}

/** Adds (sign 1) or removes (-1) a placed pod in a key's index by value. */
export function indexPod(
  byValue: Map<string, Map<PodInfo, number>>,
  key: string,
  pod: PodInfo,
  position: number,
  sign: number,
): void {
  const value = labelOf(pod, key);
  if (value === undefined) {
    return;
  }
  let pods = byValue.get(value);
  if (sign > 0) {
    if (pods === undefined) {
      pods = new Map();
      byValue.set(value, pods);
    }
    pods.set(pod, position);
  } else {
    pods?.delete(pod);
  }
}

/** Records the log position of a change of a pod carrying the key, under its value. */
export function indexChange(
  byValue: Map<string, number[]>,
  key: string,
  pod: PodInfo,
  position: number,
): void {
  const value = labelOf(pod, key);
  if (value === undefined) {
    return;
  }
  let positions = byValue.get(value);
  if (positions === undefined) {
    positions = [];
    byValue.set(value, positions);
  }
  positions.push(position);
}
