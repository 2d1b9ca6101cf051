/**
 * The HPA's replica calculator for a resource metric given as a utilization target (percentage of request), as
 * GetResourceReplicas in pkg/controller/podautoscaler/replica_calculator.go computes it: the pods of the scale
 * target's selector are grouped (groupPods), ignored pods (Pending, or not Ready) lose their sample, pods without
 * a sample are "missing"; utilization is the samples' sum over their pods' requests (integer percent, as
 * GetResourceUtilizationRatio in metrics/utilization.go); a change within the tolerance keeps the current count;
 * with ignored or missing pods the ratio is recomputed assuming they use nothing (scale-up) or their whole request
 * (scale-down), and a change of direction keeps the current count.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/podautoscaler/replica_calculator.go
 * Left out: the cpu-initialization-period and metric-window checks of a pod that just became Ready (its sample
 * is taken as it is), container metrics (ContainerResource), raw values (AverageValue) and other metric types.
 */

/** --horizontal-pod-autoscaler-tolerance: changes within 10% of the target do not rescale. */
export const HPA_TOLERANCE = 0.1;

/** A pod of the scale target as the calculator sees it. */
export interface HpaPodSample {
  readonly name: string;
  /** deleted: being deleted or Failed (left out); pending: phase Pending; unready: Running, not Ready. */
  readonly state: 'deleted' | 'pending' | 'unready' | 'ready';
  /** Sum of the containers' cpu requests (millicores); the name of the first container without one, if any. */
  readonly requestMilli: number;
  readonly containerWithoutRequest: string | null;
  /** The metrics API's usage (millicores), or null when it has no sample for the pod. */
  readonly usageMilli: number | null;
}

/** The calculator's answer: a replica count and the utilization it saw, or why it could not compute one. */
export type HpaReplicaResult =
  | { readonly ok: true; readonly replicas: number; readonly utilization: number }
  | { readonly ok: false; readonly error: string };

/**
 * Desired replicas for a cpu utilization target, or the calculator's error (worded as upstream's, which the
 * controller's FailedGetResourceMetric event shows after "failed to get cpu utilization: ").
 */
export function resourceReplicas(
  currentReplicas: number,
  targetUtilization: number,
  pods: readonly HpaPodSample[],
  tolerance = HPA_TOLERANCE,
): HpaReplicaResult {
  if (pods.length === 0) {
    return { ok: false, error: 'no pods returned by selector while calculating replica count' };
  }
  // calculatePodRequests runs over every listed pod before any sample is read.
  const requests = new Map<string, number>();
  for (const pod of pods) {
    if (pod.containerWithoutRequest !== null) {
      return {
        ok: false,
        error: `missing request for cpu in container ${pod.containerWithoutRequest} of Pod ${pod.name}`,
      };
    }
    requests.set(pod.name, pod.requestMilli);
  }
  const metrics = new Map<string, number>();
  const ignored: string[] = [];
  const missing: string[] = [];
  let readyCount = 0;
  for (const pod of pods) {
    if (pod.state === 'deleted') {
      continue;
    }
    if (pod.state === 'pending' || (pod.state === 'unready' && pod.usageMilli !== null)) {
      ignored.push(pod.name);
      continue;
    }
    if (pod.usageMilli === null) {
      missing.push(pod.name);
      continue;
    }
    metrics.set(pod.name, pod.usageMilli);
    readyCount++;
  }
  if (metrics.size === 0) {
    return { ok: false, error: 'did not receive metrics for targeted pods (pods might be unready)' };
  }
  const first = utilizationRatio(metrics, requests, targetUtilization);
  if (first === null) {
    return { ok: false, error: 'no metrics returned matched known pods' };
  }
  const { ratio, utilization } = first;
  const rebalanceIgnored = ignored.length > 0 && ratio > 1;
  if (!rebalanceIgnored && missing.length === 0) {
    if (Math.abs(1 - ratio) <= tolerance) {
      return { ok: true, replicas: currentReplicas, utilization };
    }
    return { ok: true, replicas: Math.ceil(ratio * readyCount), utilization };
  }
  for (const name of missing) {
    if (ratio < 1) {
      metrics.set(name, requests.get(name) ?? 0); // scale-down: a missing pod uses its whole request
    } else if (ratio > 1) {
      metrics.set(name, 0); // scale-up: a missing pod uses nothing
    }
  }
  if (rebalanceIgnored) {
    for (const name of ignored) {
      metrics.set(name, 0);
    }
  }
  const second = utilizationRatio(metrics, requests, targetUtilization);
  if (second === null) {
    return { ok: false, error: 'no metrics returned matched known pods' };
  }
  const newRatio = second.ratio;
  if (Math.abs(1 - newRatio) <= tolerance || (ratio < 1 && newRatio > 1) || (ratio > 1 && newRatio < 1)) {
    return { ok: true, replicas: currentReplicas, utilization };
  }
  const replicas = Math.ceil(newRatio * metrics.size);
  if ((newRatio < 1 && replicas > currentReplicas) || (newRatio > 1 && replicas < currentReplicas)) {
    return { ok: true, replicas: currentReplicas, utilization };
  }
  return { ok: true, replicas, utilization };
}

/** GetResourceUtilizationRatio: integer utilization (percent) of the samples over their requests, and its ratio. */
export function utilizationRatio(
  metrics: ReadonlyMap<string, number>,
  requests: ReadonlyMap<string, number>,
  targetUtilization: number,
): { readonly ratio: number; readonly utilization: number } | null {
  let usage = 0;
  let requested = 0;
  for (const [name, value] of metrics) {
    const request = requests.get(name);
    if (request === undefined) {
      continue;
    }
    usage += value;
    requested += request;
  }
  if (requested === 0) {
    return null;
  }
  const utilization = Math.trunc((usage * 100) / requested);
  return { ratio: utilization / targetUtilization, utilization };
}
