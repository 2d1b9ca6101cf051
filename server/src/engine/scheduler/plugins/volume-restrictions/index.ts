/**
 * VolumeRestrictions: two pods may not share some disks, and a ReadWriteOncePod claim serves one pod at a time.
 * Filter first compares the pod's inline gcePersistentDisk, awsElasticBlockStore, iscsi and rbd volumes with those
 * of the pods on the node (see disks.ts): a conflict is "node(s) had no available disk" (Unschedulable: evicting
 * the other pod frees the disk). Then, cluster-wide, each of the pod's ReadWriteOncePod claims already used by a
 * placed pod counts one conflict; any conflict rejects every node (Unschedulable, so that preemption may evict the
 * user: the PreFilter extensions take the victims' uses off the count). PreFilter refuses the pod when a claim does
 * not exist, and skips the plugin when the pod has no such disk and no claim in use.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go
 *
 * As upstream, the extensions match the added or removed pod's claims by name only, whatever its namespace. A claim
 * missing from a namespace whose claims the cluster file does not list is taken to exist, without
 * ReadWriteOncePod (as VolumeBinding does). "In use" means used by a pod bound to a node of the snapshot (the
 * scheduler cache's StorageInfos also counts assumed pods; here a chosen node is bound at once).
 */
import type { PodInfo } from '../../../model/snapshot/pod-info';
import type { StorageObjects } from '../../../model/snapshot/storage-objects';
import type { Cluster } from '../../../model/snapshot/cluster';
import { StateKey } from '../../framework/cycle-state';
import type { ClonableState, CycleState } from '../../framework/cycle-state';
import { PRE_FILTER_PASSED, preFilterSkipped } from '../../framework/plugin';
import type { PluginFactory } from '../../framework/plugin';
import { SUCCESS, unresolvable, unschedulable } from '../../framework/status';
import type { Reason, Status } from '../../framework/status';
import { hasDiskConflict, hasVolumes, readPodVolumes } from './disks';
import type { PodRestrictedVolumes } from './disks';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const VOLUME_RESTRICTIONS = PLUGIN_NAMES.VolumeRestrictions;

/** The access mode a single pod may use a claim with. */
const READ_WRITE_ONCE_POD = 'ReadWriteOncePod';

/** ErrReasonDiskConflict: a pod on the node uses the same disk in a conflicting way. */
export const REASON_DISK_CONFLICT: Reason = {
  code: 'VolumeRestrictions/DiskConflict',
  message: 'node(s) had no available disk',
};

/** ErrReasonReadWriteOncePodConflict (wording since 1.33): one of the pod's ReadWriteOncePod claims is in use. */
export const REASON_READ_WRITE_ONCE_POD_CONFLICT: Reason = {
  code: 'VolumeRestrictions/ReadWriteOncePodConflict',
  message:
    'node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod',
};

/** The claim does not exist (the PVC lister's NotFound error). */
export function restrictionsClaimNotFound(name: string): Reason {
  return { code: 'VolumeRestrictions/ClaimNotFound', message: `persistentvolumeclaim "${name}" not found` };
}

// Statuses are immutable: one object per outcome, not one per rejected node.
const DISK_CONFLICT_STATUS = Object.freeze(unschedulable(VOLUME_RESTRICTIONS, REASON_DISK_CONFLICT));
const READ_WRITE_ONCE_POD_STATUS = Object.freeze(
  unschedulable(VOLUME_RESTRICTIONS, REASON_READ_WRITE_ONCE_POD_CONFLICT),
);

/** The pod's ReadWriteOncePod claims and how many of them placed pods use (preFilterState). */
export class VolumeRestrictionsState implements ClonableState {
  constructor(
    /** Names of the pod's claims with the ReadWriteOncePod access mode. */
    readonly readWriteOncePodClaims: ReadonlySet<string>,
    /** References to those claims by placed pods. */
    public conflictingClaimRefCount: number,
  ) {}

  /** Counts a pod added to (sign 1) or removed from (sign -1) a node in a what-if evaluation (updateWithPod). */
  update(volumes: PodRestrictedVolumes, sign: 1 | -1): void {
    let references = 0;
    for (const name of volumes.claimNames) {
      if (this.readWriteOncePodClaims.has(name)) {
        references++;
      }
    }
    this.conflictingClaimRefCount += sign * references;
  }

  clone(): VolumeRestrictionsState {
    return new VolumeRestrictionsState(this.readWriteOncePodClaims, this.conflictingClaimRefCount);
  }
}

const PRE_FILTER_KEY = new StateKey<VolumeRestrictionsState>('PreFilterVolumeRestrictions');

/** Builds the VolumeRestrictions plugin. */
export const createVolumeRestrictions: PluginFactory = (context) => {
  const cluster = context.handle.cluster;
  const storage = cluster.objects.storage;
  // A pod's volumes are read once: PodInfo's pod object does not change.
  const volumesCache = new WeakMap<PodInfo, PodRestrictedVolumes>();
  const volumesOf = (pod: PodInfo): PodRestrictedVolumes => {
    if (!hasVolumes(pod.pod.spec)) {
      // Nothing to read, nothing to remember: the shared answer of a pod without volumes.
      return readPodVolumes(pod.pod.spec);
    }
    let volumes = volumesCache.get(pod);
    if (volumes === undefined) {
      volumes = readPodVolumes(pod.pod.spec);
      volumesCache.set(pod, volumes);
    }
    return volumes;
  };
  const buildState = (pod: PodInfo): VolumeRestrictionsState | Status =>
    computeState(storage, cluster, pod, volumesOf);

  /** The PreFilter state, recomputed when missing (the framework may call filter alone). */
  const readState = (state: CycleState, pod: PodInfo): VolumeRestrictionsState | Status =>
    state.read(PRE_FILTER_KEY) ?? buildState(pod);

  return {
    name: VOLUME_RESTRICTIONS,
    preFilter(state, pod) {
      const volumes = volumesOf(pod);
      if (volumes.disks.length === 0 && volumes.claimNames.length === 0) {
        // What the state below would conclude for a pod without claims (no conflict), without building it.
        return preFilterSkipped(VOLUME_RESTRICTIONS);
      }
      const built = buildState(pod);
      if (!(built instanceof VolumeRestrictionsState)) {
        return { status: built, nodeNames: null };
      }
      if (volumesOf(pod).disks.length === 0 && built.conflictingClaimRefCount === 0) {
        return preFilterSkipped(VOLUME_RESTRICTIONS);
      }
      state.write(PRE_FILTER_KEY, built);
      return PRE_FILTER_PASSED;
    },
    preFilterExtensions: {
      addPod(state, _podToSchedule, podToAdd) {
        state.read(PRE_FILTER_KEY)?.update(volumesOf(podToAdd), 1);
        return SUCCESS;
      },
      removePod(state, _podToSchedule, podToRemove) {
        state.read(PRE_FILTER_KEY)?.update(volumesOf(podToRemove), -1);
        return SUCCESS;
      },
    },
    filter(state, pod, node) {
      const disks = volumesOf(pod).disks;
      if (disks.length > 0 && node.pods.some((other) => hasDiskConflict(disks, volumesOf(other).disks))) {
        return DISK_CONFLICT_STATUS;
      }
      const stored = readState(state, pod);
      if (!(stored instanceof VolumeRestrictionsState)) {
        return stored;
      }
      return stored.conflictingClaimRefCount > 0 ? READ_WRITE_ONCE_POD_STATUS : SUCCESS;
    },
  };
};

/**
 * The pod's ReadWriteOncePod claims and how many placed pods use them (readWriteOncePodPVCsForPod and
 * calPreFilterState), or the status refusing a pod whose claim does not exist.
 */
function computeState(
  storage: StorageObjects,
  cluster: Cluster,
  pod: PodInfo,
  volumesOf: (pod: PodInfo) => PodRestrictedVolumes,
): VolumeRestrictionsState | Status {
  const readWriteOncePodClaims = new Set<string>();
  for (const name of volumesOf(pod).claimNames) {
    const claim = storage.claim(pod.namespace, name);
    if (claim === undefined) {
      if (!storage.areClaimsKnownIn(pod.namespace)) {
        continue;
      }
      return unresolvable(VOLUME_RESTRICTIONS, restrictionsClaimNotFound(name));
    }
    if (claim.accessModes.includes(READ_WRITE_ONCE_POD)) {
      readWriteOncePodClaims.add(claim.name);
    }
  }
  let conflicts = 0;
  if (readWriteOncePodClaims.size > 0) {
    const inUse = claimsInUse(cluster, pod.namespace, volumesOf);
    for (const name of readWriteOncePodClaims) {
      if (inUse.has(name)) {
        conflicts++;
      }
    }
  }
  return new VolumeRestrictionsState(readWriteOncePodClaims, conflicts);
}

/** The names of the claims of a namespace used by pods bound to nodes (StorageInfos().IsPVCUsedByPods). */
function claimsInUse(
  cluster: Cluster,
  namespace: string,
  volumesOf: (pod: PodInfo) => PodRestrictedVolumes,
): ReadonlySet<string> {
  const used = new Set<string>();
  for (const node of cluster.nodes) {
    for (const placed of node.pods) {
      if (placed.namespace !== namespace) {
        continue;
      }
      for (const name of volumesOf(placed).claimNames) {
        used.add(name);
      }
    }
  }
  return used;
}
