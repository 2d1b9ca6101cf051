/**
 * NodeVolumeLimits (upstream's CSILimits): a node attaches at most CSINode spec.drivers[].allocatable.count
 * volumes of each CSI driver. Filter counts the unique volumes ("<driver>/<volume handle>") of the pods on the node
 * and of the incoming pod, a volume shared by several pods once, and rejects the node when a driver the pod adds
 * volumes of would go over its count ("node(s) exceed max volume count", Unschedulable: evicting pods frees
 * attachments). A claim's volume is its bound PersistentVolume's CSI source, or the CSI translation of an in-tree
 * source (in-tree.ts); an unbound claim, or one whose volume is missing, counts against its StorageClass's
 * provisioner under a handle of its own. Inline in-tree volumes (awsElasticBlockStore, gcePersistentDisk, …)
 * count through their translation too. A node without a CSINode has no limit (and no migrated volumes).
 * PreFilter skips pods with no claim, generic ephemeral volume or migratable inline volume.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/nodevolumelimits/csi.go
 *
 * Left out: VolumeAttachment objects (upstream also counts attachments still on the node, e.g. of deleted pods
 * being detached; the simulation detaches at once and does not model them), the ownership check of an ephemeral
 * volume's claim (claims carry no ownerReferences here), and the VolumeLimitScaling gate (alpha, off in 1.35).
 * Upstream prefixes unbound claims' handles with a random string; a fixed prefix keeps runs deterministic. A claim
 * missing from a namespace whose claims the cluster file does not list is taken to exist, bound to a volume of
 * unknown driver (not counted), as VolumeBinding does; not-found messages use the informer lister's wording.
 */
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { isRecord } from '../../../model/objects';
import type { ClaimInfo, CsiNodeDriver, StorageObjects } from '../../../model/snapshot/storage-objects';
import { StateKey } from '../../framework/cycle-state';
import { PRE_FILTER_PASSED, preFilterSkipped } from '../../framework/plugin';
import type { PluginFactory } from '../../framework/plugin';
import { SUCCESS, errorStatus, unresolvable, unschedulable } from '../../framework/status';
import type { Reason, Status } from '../../framework/status';
import { driverOfProvisioner, isInlineMigratable, migrateInTree } from './in-tree';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const NODE_VOLUME_LIMITS = PLUGIN_NAMES.NodeVolumeLimits;

/** ErrReasonMaxVolumeCountExceeded. */
export const REASON_MAX_VOLUME_COUNT_EXCEEDED: Reason = {
  code: 'NodeVolumeLimits/MaxVolumeCountExceeded',
  message: 'node(s) exceed max volume count',
};

/** The incoming pod's claim does not exist: it cannot run until the claim is created. */
export function claimLookupFailed(namespace: string, name: string): Reason {
  return {
    code: 'NodeVolumeLimits/ClaimNotFound',
    message: `looking up PVC ${namespace}/${name}: persistentvolumeclaim "${name}" not found`,
  };
}

/** The handle prefix of an unbound claim's volume (upstream: randomVolumeIDPrefix, 32 random characters). */
const UNBOUND_HANDLE_PREFIX = 'unbound-claim';

// Statuses are immutable: one object for every rejected node.
const MAX_VOLUME_COUNT_STATUS = Object.freeze(
  unschedulable(NODE_VOLUME_LIMITS, REASON_MAX_VOLUME_COUNT_EXCEEDED),
);

/** Unique volume name ("<driver>/<handle>") → driver. */
type AttachableVolumes = Map<string, string>;

/** The incoming pod's volumes, or the status refusing it. */
type NewPodVolumes = { readonly volumes: ReadonlyMap<string, string> } | { readonly refusal: Status };

/** The incoming pod's volumes on nodes without and with a CSINode (migrated in-tree volumes count only there). */
interface PreFilterState {
  readonly withoutCsiNode: NewPodVolumes;
  readonly withCsiNode: NewPodVolumes;
}

const PRE_FILTER_KEY = new StateKey<PreFilterState>('PreFilterNodeVolumeLimits');

/** A pod's volumes (unchecked JSON). */
function volumesOf(pod: PodInfo): Record<string, unknown>[] {
  const spec: unknown = pod.pod.spec;
  const volumes = isRecord(spec) && Array.isArray(spec['volumes']) ? (spec['volumes'] as unknown[]) : [];
  return volumes.filter(isRecord);
}

/** Whether the pod has any volume (Filter's fast path). */
function hasVolumes(pod: PodInfo): boolean {
  const spec: unknown = pod.pod.spec;
  return isRecord(spec) && Array.isArray(spec['volumes']) && spec['volumes'].length > 0;
}

/** Builds the NodeVolumeLimits plugin over the cluster's storage objects. */
export const createNodeVolumeLimits: PluginFactory = (context) => {
  const storage = context.handle.cluster.objects.storage;
  const newPodVolumes = (pod: PodInfo, hasCsiNode: boolean): NewPodVolumes => {
    const volumes: AttachableVolumes = new Map();
    const refusal = addAttachableVolumes(storage, pod, hasCsiNode, true, volumes);
    return refusal === null ? { volumes } : { refusal };
  };
  const buildState = (pod: PodInfo): PreFilterState => ({
    withoutCsiNode: newPodVolumes(pod, false),
    withCsiNode: newPodVolumes(pod, true),
  });
  return {
    name: NODE_VOLUME_LIMITS,
    preFilter(state, pod) {
      const counted = volumesOf(pod).some(
        (volume) =>
          isRecord(volume['persistentVolumeClaim']) ||
          isRecord(volume['ephemeral']) ||
          isInlineMigratable(volume),
      );
      if (!counted) {
        return preFilterSkipped(NODE_VOLUME_LIMITS);
      }
      state.write(PRE_FILTER_KEY, buildState(pod));
      return PRE_FILTER_PASSED;
    },
    filter(state, pod, node) {
      if (!hasVolumes(pod)) {
        return SUCCESS;
      }
      const drivers = storage.csiNodes.get(node.name);
      const stored = state.read(PRE_FILTER_KEY) ?? buildState(pod);
      const incoming = drivers === undefined ? stored.withoutCsiNode : stored.withCsiNode;
      if ('refusal' in incoming) {
        return incoming.refusal;
      }
      if (incoming.volumes.size === 0) {
        return SUCCESS;
      }
      const limits = volumeLimits(drivers);
      if (limits.size === 0) {
        return SUCCESS;
      }
      const attached: AttachableVolumes = new Map();
      for (const existing of node.pods) {
        const problem = addAttachableVolumes(storage, existing, drivers !== undefined, false, attached);
        if (problem !== null) {
          return problem;
        }
      }
      const attachedCount = new Map<string, number>();
      for (const driver of attached.values()) {
        attachedCount.set(driver, (attachedCount.get(driver) ?? 0) + 1);
      }
      const newCount = new Map<string, number>();
      for (const [uniqueName, driver] of incoming.volumes) {
        // A volume already attached for another pod takes no new slot.
        if (!attached.has(uniqueName)) {
          newCount.set(driver, (newCount.get(driver) ?? 0) + 1);
        }
      }
      for (const [driver, count] of newCount) {
        const limit = limits.get(driver);
        if (limit !== undefined && (attachedCount.get(driver) ?? 0) + count > limit) {
          return MAX_VOLUME_COUNT_STATUS;
        }
      }
      return SUCCESS;
    },
  };
};

/** The attach limit of each driver of a CSINode that reports one (getVolumeLimits); none without a CSINode. */
function volumeLimits(drivers: ReadonlyMap<string, CsiNodeDriver> | undefined): ReadonlyMap<string, number> {
  const limits = new Map<string, number>();
  for (const driver of drivers?.values() ?? []) {
    if (driver.allocatableCount !== null) {
      limits.set(driver.name, driver.allocatableCount);
    }
  }
  return limits;
}

/**
 * Adds a pod's attachable CSI volumes to `result` (filterAttachableVolumes). For the incoming pod a missing claim
 * refuses it; a placed pod's missing claim is not counted. Returns a status when the pod cannot be evaluated.
 */
function addAttachableVolumes(
  storage: StorageObjects,
  pod: PodInfo,
  hasCsiNode: boolean,
  isNewPod: boolean,
  result: AttachableVolumes,
): Status | null {
  for (const volume of volumesOf(pod)) {
    const volumeName = typeof volume['name'] === 'string' ? volume['name'] : '';
    const persistent = volume['persistentVolumeClaim'];
    let claimName: string;
    let isEphemeral = false;
    if (isRecord(persistent)) {
      claimName = typeof persistent['claimName'] === 'string' ? persistent['claimName'] : '';
    } else if (isRecord(volume['ephemeral'])) {
      // A generic ephemeral volume's claim is named after the pod and the volume (ephemeral.VolumeClaimName).
      claimName = `${pod.name}-${volumeName}`;
      isEphemeral = true;
    } else {
      const migrated = migrateInTree(volume, null, hasCsiNode);
      if (migrated === null) {
        continue;
      }
      if ('error' in migrated) {
        return errorStatus(
          NODE_VOLUME_LIMITS,
          `converting volume(${volumeName}) from inline to csi: ${migrated.error}`,
        );
      }
      result.set(`${migrated.driver}/${migrated.handle}`, migrated.driver);
      continue;
    }
    if (claimName === '') {
      return errorStatus(NODE_VOLUME_LIMITS, 'PersistentVolumeClaim had no name');
    }
    const claim = storage.claim(pod.namespace, claimName);
    if (claim === undefined) {
      if (isNewPod && (isEphemeral || storage.areClaimsKnownIn(pod.namespace))) {
        return unresolvable(NODE_VOLUME_LIMITS, claimLookupFailed(pod.namespace, claimName));
      }
      continue;
    }
    const info = claimDriverInfo(storage, claim, hasCsiNode);
    if (info !== null && info.driver !== '' && info.handle !== '') {
      result.set(`${info.driver}/${info.handle}`, info.driver);
    }
  }
  return null;
}

/** A claim's CSI driver and volume handle, or null when it is not counted (getCSIDriverInfo). */
function claimDriverInfo(
  storage: StorageObjects,
  claim: ClaimInfo,
  hasCsiNode: boolean,
): { readonly driver: string; readonly handle: string } | null {
  const volume = claim.volumeName === '' ? undefined : storage.volumes.get(claim.volumeName);
  if (volume === undefined) {
    return classDriverInfo(storage, claim, hasCsiNode);
  }
  const csi = volume.spec['csi'];
  if (isRecord(csi)) {
    return {
      driver: typeof csi['driver'] === 'string' ? csi['driver'] : '',
      handle: typeof csi['volumeHandle'] === 'string' ? csi['volumeHandle'] : '',
    };
  }
  const migrated = migrateInTree(volume.spec, volume.labels, hasCsiNode);
  return migrated === null || 'error' in migrated ? null : migrated;
}

/**
 * The driver of an unbound claim (or one whose volume is gone): its StorageClass's provisioner, with a handle
 * naming the claim, so that pods sharing the claim count it once (getCSIDriverInfoFromSC). Null without a class.
 */
function classDriverInfo(
  storage: StorageObjects,
  claim: ClaimInfo,
  hasCsiNode: boolean,
): { readonly driver: string; readonly handle: string } | null {
  if (claim.storageClassName === '') {
    return null;
  }
  const storageClass = storage.classes.get(claim.storageClassName);
  if (storageClass === undefined) {
    return null;
  }
  const driver = driverOfProvisioner(storageClass.provisioner, hasCsiNode);
  return driver === null
    ? null
    : { driver, handle: `${UNBOUND_HANDLE_PREFIX}-${claim.namespace}/${claim.name}` };
}
