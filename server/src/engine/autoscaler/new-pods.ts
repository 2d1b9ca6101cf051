/**
 * allPodsAreNew of static_autoscaler.go's RunOnce: when the oldest pending pod was created less than
 * unschedulablePodTimeBuffer (2 s) ago, or the oldest one requesting a GPU less than
 * unschedulablePodWithGpuTimeBuffer (30 s) ago, the loop waits for more pods to come. A pod of the cluster file is
 * as old as its creationTimestamp says (before the run when it has one).
 * https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/core/static_autoscaler.go
 */
import type { SimPod } from '../apiserver/sim-pod';
import { minOf } from '../../../../protocol/collections';

/** unschedulablePodTimeBuffer and unschedulablePodWithGpuTimeBuffer of static_autoscaler.go. */
const NEW_POD_SECONDS = 2;
const NEW_GPU_POD_SECONDS = 30;
/** utils/gpu GPUVendorResourceNames: a pod requesting one of these waits the longer buffer. */
const GPU_RESOURCES: readonly string[] = [
  'nvidia.com/gpu',
  'habana.ai/gaudi',
  'gpu.intel.com/xe',
  'amd.com/gpu',
  'microsoft.com/directx',
];

/** When the oldest pod and the oldest GPU pod of a list were created (null: no GPU pod). */
interface Oldest {
  readonly pod: number;
  readonly gpuPod: number | null;
}

/**
 * Whether a scan's pending pods are all new. The creation times of the pods of one scan-input key
 * (scan-inputs.ts: equal keys, the same pending pods) are read once: a still cluster scans every --scan-interval
 * over the same pods.
 */
export class NewPods {
  private last: { readonly key: string; readonly oldest: Oldest } | null = null;

  /** allPodsAreNew at `now` for the pending pods of the scan whose inputs' key is `key` (null: not named). */
  areAllNew(pending: readonly SimPod[], key: string | null, now: number): boolean {
    let oldest = key !== null && this.last?.key === key ? this.last.oldest : null;
    if (oldest === null) {
      oldest = oldestOf(pending);
      this.last = key === null ? null : { key, oldest };
    }
    return (
      oldest.pod + NEW_POD_SECONDS > now ||
      (oldest.gpuPod !== null && oldest.gpuPod + NEW_GPU_POD_SECONDS > now)
    );
  }
}

function oldestOf(pods: readonly SimPod[]): Oldest {
  const gpuPods = pods.filter((pod) =>
    GPU_RESOURCES.some((name) => pod.info.scalarResourceNames.includes(name)),
  );
  return {
    pod: minOf(pods.map(createdAt)),
    gpuPod: gpuPods.length > 0 ? minOf(gpuPods.map(createdAt)) : null,
  };
}

function createdAt(pod: SimPod): number {
  const captured = (pod.object.metadata as { readonly creationTimestamp?: unknown } | undefined)
    ?.creationTimestamp;
  return typeof captured === 'string' && pod.createdAt === 0 && !Number.isNaN(Date.parse(captured))
    ? Number.NEGATIVE_INFINITY
    : pod.createdAt;
}
