/**
 * What the HPA controller reads of its scale target's pods: the pods (the Deployment's ReplicaSets' pods, the
 * StatefulSet's or ReplicaSet's own), each pod's cpu request as calculatePodRequests sums it (containers and
 * restartable init containers; a request defaults to the limit, as the API server defaults it), and a metrics API
 * sample: the scenario's load on the workload, spread evenly over its Ready pods (a Service balances over Ready
 * endpoints); a Running pod that is not Ready reports nothing of it, a Pending pod has no sample.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/podautoscaler/replica_calculator.go
 * Left out: per-pod differences in usage, and metrics-server's scrape delay (a sample is there at once).
 */
import { parseQuantity } from '../../model/quantity';
import { asArray, asObject, readString } from '../../model/json';
import type { ClusterState } from '../../apiserver/cluster-state';
import type { HpaPodSample } from './hpa-replicas';
import type { ScalableKind } from '../../apiserver/scale-subresource';
import type { SimPod } from '../../apiserver/sim-pod';

/** The pods (not gone) of a scale target. */
export function targetPods(
  state: ClusterState,
  kind: ScalableKind,
  namespace: string,
  name: string,
): SimPod[] {
  if (kind === 'Deployment') {
    return state
      .replicaSetsOf(`${namespace}/${name}`)
      .flatMap((replicaSet) => state.podsOf('ReplicaSet', namespace, replicaSet.name));
  }
  return state.podsOf(kind, namespace, name);
}

/** A pod's cpu request (millicores) and the first container without one. */
export function podCpuRequest(pod: SimPod): { milli: number; containerWithoutRequest: string | null } {
  const spec = asObject(pod.object.spec);
  const sidecars = asArray(spec['initContainers'])
    .map(asObject)
    .filter((container) => container['restartPolicy'] === 'Always');
  let milli = 0;
  for (const container of [...asArray(spec['containers']).map(asObject), ...sidecars]) {
    const resources = asObject(container['resources']);
    const value = asObject(resources['requests'])['cpu'] ?? asObject(resources['limits'])['cpu'];
    const parsed = typeof value === 'string' || typeof value === 'number' ? parseQuantity(value) : null;
    if (parsed === null || !parsed.ok) {
      return { milli, containerWithoutRequest: readString(container['name']) ?? '' };
    }
    milli += parsed.quantity.milli;
  }
  return { milli, containerWithoutRequest: null };
}

/** Whether the HPA counts a pod at all (not being deleted, not Failed). */
function isCounted(pod: SimPod): boolean {
  return pod.deletionTime === null && pod.terminal === null;
}

/** The sum of the cpu requests of the target's Ready pods (all counted pods when none is Ready). */
export function readyRequestMilli(pods: readonly SimPod[]): number {
  const counted = pods.filter(isCounted);
  const ready = counted.filter((pod) => pod.isReady);
  return (ready.length > 0 ? ready : counted).reduce((sum, pod) => sum + podCpuRequest(pod).milli, 0);
}

/** The calculator's view of the target's pods under a total cpu load (millicores). */
export function podSamples(pods: readonly SimPod[], loadMilli: number): HpaPodSample[] {
  const readyCount = pods.filter((pod) => isCounted(pod) && pod.isReady).length;
  // Whole millicores, the remainder going to the first Ready pods, so that the samples add up to the load exactly.
  const total = Math.round(loadMilli);
  let readySeen = 0;
  return pods.map((pod) => {
    const request = podCpuRequest(pod);
    const state = !isCounted(pod) ? 'deleted' : pod.isReady ? 'ready' : pod.isRunning ? 'unready' : 'pending';
    return {
      name: pod.name,
      state,
      requestMilli: request.milli,
      containerWithoutRequest: request.containerWithoutRequest,
      usageMilli:
        state === 'ready'
          ? Math.floor(total / readyCount) + (readySeen++ < total % readyCount ? 1 : 0)
          : state === 'unready'
            ? 0
            : null,
    };
  });
}
