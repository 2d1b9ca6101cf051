/**
 * The kubelet's volume manager over a pod's claims (pkg/kubelet/volumemanager): the desired-state populator looks
 * each persistentVolumeClaim volume up (getPVCExtractPV) and the pod's volumes never mount when one fails, so the
 * pod stays ContainerCreating with FailedMount "Unable to attach or mount volumes: unmounted volumes=[data],
 * unattached volumes=[], failed to process volumes=[data]: error processing PVC default/data: failed to fetch PVC
 * from API server: persistentvolumeclaims "data" not found" (WaitForAttachAndMount). A pod the scheduler places
 * has its claims bound first (VolumeBinding refuses a missing one in its own words); one that names its node skips
 * the scheduler and meets this. A claim is known missing only when the cluster file lists the namespace's claims.
 * Left out: the service account token volume a real pod also has (kube-api-access-…), unmounted or not.
 */
import type { StorageObjects } from '../model/snapshot/storage-objects';
import { podClaimNames } from '../scheduler/plugins/volume-binding/binder';
import type { SimPod } from '../apiserver/sim-pod';

/** Why the pod's volumes never mount, with the claim's field, or null. */
export interface ClaimMountFailure {
  readonly message: string;
  readonly path: readonly (string | number)[];
}

/** The FailedMount of a pod whose claim is missing, being deleted or not bound. */
export function claimMountFailure(storage: StorageObjects, pod: SimPod): ClaimMountFailure | null {
  const spec = pod.object.spec as { volumes?: readonly { name?: unknown }[] } | undefined;
  const failed: { volume: string; error: string; path: (string | number)[] }[] = [];
  for (const { claimName, isEphemeral, volumeIndex } of podClaimNames(pod.name, spec)) {
    if (isEphemeral) {
      continue; // the ephemeral volume controller creates it (volume-controller.ts)
    }
    const error = claimError(storage, pod.namespace, claimName);
    if (error !== null) {
      const name = spec?.volumes?.[volumeIndex]?.name;
      failed.push({
        volume: typeof name === 'string' ? name : '',
        error: `error processing PVC ${pod.namespace}/${claimName}: ${error}`,
        path: ['volumes', volumeIndex, 'persistentVolumeClaim', 'claimName'],
      });
    }
  }
  const first = failed[0];
  if (first === undefined) {
    return null;
  }
  const volumes = `[${failed.map((entry) => entry.volume).join(' ')}]`;
  return {
    message: `Unable to attach or mount volumes: unmounted volumes=${volumes}, unattached volumes=[], failed to process volumes=${volumes}: ${failed.map((entry) => entry.error).join('; ')}`,
    path: first.path,
  };
}

/** getPVCExtractPV's error for one claim, or null when it is bound. */
function claimError(storage: StorageObjects, namespace: string, name: string): string | null {
  const claim = storage.claim(namespace, name);
  if (claim === undefined) {
    return storage.claimNamespacesListed.has(namespace)
      ? `failed to fetch PVC from API server: persistentvolumeclaims "${name}" not found`
      : null;
  }
  if (claim.deleting) {
    return 'PVC is being deleted';
  }
  if (claim.phase !== 'Bound') {
    return 'PVC is not bound';
  }
  return claim.volumeName === '' ? 'PVC has empty pvc.Spec.VolumeName' : null;
}
