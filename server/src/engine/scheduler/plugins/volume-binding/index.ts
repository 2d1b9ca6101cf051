/**
 * VolumeBinding: a pod's PersistentVolumeClaims must be bindable where it lands. PreFilter refuses the pod
 * everywhere when a claim is missing, lost or being deleted, or when an immediate claim is still unbound ("pod has
 * unbound immediate PersistentVolumeClaims": the PV controller binds those before any consumer). Filter asks the
 * binder (binder.ts) whether each node accepts the bound claims' volumes and can bind or provision the
 * WaitForFirstConsumer ones. After the pod is bound, `prebindPodVolumes` makes the bindings (PreBind).
 * VolumeBinding scores only with the StorageCapacityScoring gate (off by default in 1.35): no score here.
 *
 * A claim that is not in the manifests, in a namespace whose claims the cluster file does not list, may exist in
 * the real cluster: it is taken as bound to a volume without constraints (the prediction says so elsewhere).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/volumebinding/volume_binding.go
 */
import type { PodInfo } from '../../../model/snapshot/pod-info';
import type { ClaimInfo, StorageObjects } from '../../../model/snapshot/storage-objects';
import { StateKey } from '../../framework/cycle-state';
import type { CycleState } from '../../framework/cycle-state';
import { preFilterSkipped } from '../../framework/plugin';
import type { PluginFactory } from '../../framework/plugin';
import { SUCCESS, errorStatus, unresolvable } from '../../framework/status';
import type { Reason, Status } from '../../framework/status';
import type { BinderNode, PodVolumeClaims, VolumeBindingOutcome } from './binder';
import {
  CONFLICT_NODE,
  bindPodVolumes,
  eligibleNodes,
  findPodVolumes,
  getPodVolumeClaims,
  podClaimNames,
} from './binder';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
export const VOLUME_BINDING = PLUGIN_NAMES.VolumeBinding;

/** PreFilter: an immediate claim not yet bound. */
export const REASON_UNBOUND_IMMEDIATE: Reason = {
  code: 'VolumeBinding/UnboundImmediateClaims',
  message: 'pod has unbound immediate PersistentVolumeClaims',
};

/** PreFilter (podHasPVCs): the claim does not exist. */
export function bindingClaimNotFound(name: string): Reason {
  return { code: 'VolumeBinding/ClaimNotFound', message: `persistentvolumeclaim "${name}" not found` };
}

/** PreFilter: a generic ephemeral volume's claim, not created yet. */
export function ephemeralClaimMissing(name: string): Reason {
  return {
    code: 'VolumeBinding/EphemeralClaimMissing',
    message: `waiting for ephemeral volume controller to create the persistentvolumeclaim "${name}"`,
  };
}

/** PreFilter: a claim whose volume is gone (phase Lost). */
export function claimLost(name: string, volumeName: string): Reason {
  return {
    code: 'VolumeBinding/ClaimLost',
    message: `persistentvolumeclaim "${name}" bound to non-existent persistentvolume "${volumeName}"`,
  };
}

/** PreFilter: a claim being deleted. */
export function claimDeleting(name: string): Reason {
  return { code: 'VolumeBinding/ClaimDeleting', message: `persistentvolumeclaim "${name}" is being deleted` };
}

/** Filter reasons, as FindPodVolumes returns them. */
const CONFLICT_CODES: Readonly<Record<string, string>> = {
  [CONFLICT_NODE]: 'VolumeBinding/NodeConflict',
  "node(s) didn't find available persistent volumes to bind": 'VolumeBinding/BindConflict',
  'node(s) did not have enough free storage': 'VolumeBinding/NotEnoughSpace',
  'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)': 'VolumeBinding/PVNotExist',
};

/** The pod's claims, sorted, for Filter. */
const STATE_KEY = new StateKey<PodVolumeClaims>('PreFilterVolumeBinding');

/** readPodClaims' answer for a pod without claims: one read-only object, for the many calls (every cycle). */
const NO_CLAIMS: { readonly claims: null; readonly refusal: null } = Object.freeze({
  claims: null,
  refusal: null,
});

/** The claims a pod uses, or the status that refuses it (podHasPVCs). Null claims: the pod has none. */
export function readPodClaims(
  storage: StorageObjects,
  pod: PodInfo,
): { readonly claims: ClaimInfo[] | null; readonly refusal: Status | null } {
  const names = podClaimNames(pod.name, pod.pod.spec);
  if (names.length === 0) {
    return NO_CLAIMS;
  }
  const claims: ClaimInfo[] = [];
  for (const { claimName, isEphemeral } of names) {
    const claim = storage.claim(pod.namespace, claimName);
    if (claim === undefined) {
      if (isEphemeral) {
        return { claims, refusal: unresolvable(VOLUME_BINDING, ephemeralClaimMissing(claimName)) };
      }
      if (!storage.areClaimsKnownIn(pod.namespace)) {
        continue; // assumed to exist, bound
      }
      return { claims, refusal: unresolvable(VOLUME_BINDING, bindingClaimNotFound(claimName)) };
    }
    if (claim.phase === 'Lost') {
      return { claims, refusal: unresolvable(VOLUME_BINDING, claimLost(claim.name, claim.volumeName)) };
    }
    if (claim.deleting) {
      return { claims, refusal: unresolvable(VOLUME_BINDING, claimDeleting(claim.name)) };
    }
    claims.push(claim);
  }
  return { claims, refusal: null };
}

/** Builds the VolumeBinding plugin. */
export const createVolumeBinding: PluginFactory = (context) => {
  const storage = context.handle.cluster.objects.storage;
  const claimsOf = (state: CycleState, pod: PodInfo): PodVolumeClaims => {
    const cached = state.read(STATE_KEY);
    if (cached !== undefined) {
      return cached;
    }
    const claims = getPodVolumeClaims(storage, readPodClaims(storage, pod).claims ?? []);
    state.write(STATE_KEY, claims);
    return claims;
  };
  return {
    name: VOLUME_BINDING,
    preFilter(state, pod) {
      const { claims, refusal } = readPodClaims(storage, pod);
      if (refusal !== null) {
        return { status: refusal, nodeNames: null };
      }
      if (claims === null || claims.length === 0) {
        return preFilterSkipped(VOLUME_BINDING);
      }
      const sorted = getPodVolumeClaims(storage, claims);
      if (sorted.unboundImmediate.length > 0) {
        return { status: unresolvable(VOLUME_BINDING, REASON_UNBOUND_IMMEDIATE), nodeNames: null };
      }
      state.write(STATE_KEY, sorted);
      // Bound local volumes narrow the nodes to theirs (GetEligibleNodes).
      return { status: SUCCESS, nodeNames: eligibleNodes(storage, sorted.bound) };
    },
    filter(state, pod, node) {
      const found = findPodVolumes(storage, claimsOf(state, pod), { name: node.name, labels: node.labels });
      if (found.kind === 'fits') {
        return SUCCESS;
      }
      if (found.kind === 'error') {
        return errorStatus(VOLUME_BINDING, found.message);
      }
      return unresolvable(
        VOLUME_BINDING,
        ...found.reasons.map((message) => ({
          code: CONFLICT_CODES[message] ?? 'VolumeBinding/Conflict',
          message,
        })),
      );
    },
  };
};

/**
 * PreBind for a pod just bound to `node`: binds its WaitForFirstConsumer claims to the volumes the Filter chose,
 * or provisions them there. Returns what it bound (nothing when the pod's claims were bound already).
 */
export function prebindPodVolumes(
  storage: StorageObjects,
  pod: PodInfo,
  node: BinderNode,
): VolumeBindingOutcome[] {
  const { claims } = readPodClaims(storage, pod);
  if (claims === null || claims.length === 0) {
    return [];
  }
  const sorted = getPodVolumeClaims(storage, claims);
  if (sorted.unboundDelayed.length === 0) {
    return [];
  }
  const found = findPodVolumes(storage, sorted, node);
  return found.kind === 'fits' ? bindPodVolumes(storage, found.volumes, node) : [];
}
