/**
 * VolumeZone: the zone and region labels of the PersistentVolumes bound to a pod's claims must match the node's.
 * PreFilter reads, for each persistentVolumeClaim volume, the bound volume's topology labels (GA and the deprecated
 * failure-domain.beta ones; a value may list several zones joined by "__"); an unbound claim of a
 * WaitForFirstConsumer class is skipped (VolumeBinding places it), other unbound claims and missing objects refuse
 * the pod everywhere. With no labelled volume the plugin is skipped. Filter passes a node without any topology
 * label (a single-zone cluster) and otherwise needs each volume label's value, looked up under the same key, or
 * under the GA key for a beta volume label, to be one of the volume's values. VolumeZone has no Score in 1.35.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/volumezone/volume_zone.go
 *
 * Left out: "VolumeBindingMode not set for StorageClass" (the API server defaults the mode to Immediate, so a
 * StorageClass that reached the cluster always has one). A claim missing from a namespace whose claims the cluster
 * file does not list is taken to exist, bound to a volume without zone labels (as VolumeBinding does).
 * Not-found messages are those of the informer listers kube-scheduler reads (`persistentvolumeclaim "x" not found`).
 */
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { isRecord } from '../../../model/objects';
import type { StorageObjects } from '../../../model/snapshot/storage-objects';
import { StateKey } from '../../framework/cycle-state';
import { PRE_FILTER_PASSED, preFilterSkipped } from '../../framework/plugin';
import type { PluginFactory } from '../../framework/plugin';
import { SUCCESS, unresolvable } from '../../framework/status';
import type { Reason, Status } from '../../framework/status';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const VOLUME_ZONE = PLUGIN_NAMES.VolumeZone;

/** ErrReasonConflict: a volume's zone or region label does not match the node's. */
export const REASON_VOLUME_ZONE_CONFLICT: Reason = {
  code: 'VolumeZone/ZoneConflict',
  message: 'node(s) had no available volume zone',
};

/** A persistentVolumeClaim volume naming no claim. */
export const REASON_CLAIM_WITHOUT_NAME: Reason = {
  code: 'VolumeZone/ClaimWithoutName',
  message: 'PersistentVolumeClaim had no name',
};

/** An unbound claim that names no StorageClass either. */
export const REASON_CLAIM_WITHOUT_VOLUME_OR_CLASS: Reason = {
  code: 'VolumeZone/ClaimWithoutVolumeOrClass',
  message: 'PersistentVolumeClaim had no pv name and storageClass name',
};

/** An unbound claim of an Immediate class (the PV controller should have bound it). */
export const REASON_UNBOUND_IMMEDIATE_CLAIM: Reason = {
  code: 'VolumeZone/UnboundImmediateClaim',
  message: 'PersistentVolume had no name',
};

/** The claim does not exist (the PVC lister's NotFound error). */
export function zoneClaimNotFound(name: string): Reason {
  return { code: 'VolumeZone/ClaimNotFound', message: `persistentvolumeclaim "${name}" not found` };
}

/** The claim's StorageClass does not exist. */
export function storageClassNotFound(name: string): Reason {
  return {
    code: 'VolumeZone/StorageClassNotFound',
    message: `storageclass.storage.k8s.io "${name}" not found`,
  };
}

/** The claim's volume does not exist. */
export function volumeNotFound(name: string): Reason {
  return { code: 'VolumeZone/VolumeNotFound', message: `persistentvolume "${name}" not found` };
}

// Statuses are immutable: one object for every rejected node.
const CONFLICT_STATUS = Object.freeze(unresolvable(VOLUME_ZONE, REASON_VOLUME_ZONE_CONFLICT));

/** The topology labels compared, in upstream's order (topologyLabels). */
const TOPOLOGY_LABELS: readonly string[] = [
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
];

/** The GA label a node may carry for a volume's beta label (translateToGALabel). */
const GA_LABEL_OF: Readonly<Record<string, string>> = {
  'failure-domain.beta.kubernetes.io/zone': 'topology.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region': 'topology.kubernetes.io/region',
};

/** The separator of a multi-zone label value (LabelMultiZoneDelimiter). */
const MULTI_ZONE_DELIMITER = '__';

/** One topology label of one of the pod's volumes (pvTopology). */
interface VolumeTopology {
  readonly key: string;
  readonly values: ReadonlySet<string>;
}

/** The labelled volumes' topologies, for Filter (stateData). Never changed after PreFilter: shared by clones. */
const PRE_FILTER_KEY = new StateKey<readonly VolumeTopology[]>('PreFilterVolumeZone');

/**
 * The zones of a label value (LabelZonesToSet): its "__"-separated parts, trimmed. Null when a part is empty: the
 * label is then ignored, as upstream logs and skips it.
 */
export function labelZonesToSet(value: string): ReadonlySet<string> | null {
  const zones = new Set<string>();
  for (const part of value.split(MULTI_ZONE_DELIMITER)) {
    const zone = part.trim();
    if (zone === '') {
      return null;
    }
    zones.add(zone);
  }
  return zones;
}

/** The claim names of the pod's persistentVolumeClaim volumes, in order (getPersistentVolumeClaimNameFromPod). */
function claimNamesOf(pod: PodInfo): string[] {
  const spec: unknown = pod.pod.spec;
  const volumes = isRecord(spec) && Array.isArray(spec['volumes']) ? (spec['volumes'] as unknown[]) : [];
  const names: string[] = [];
  for (const volume of volumes) {
    const claim = isRecord(volume) ? volume['persistentVolumeClaim'] : undefined;
    if (isRecord(claim)) {
      names.push(typeof claim['claimName'] === 'string' ? claim['claimName'] : '');
    }
  }
  return names;
}

/** Whether the pod has any volume at all (Filter's fast path). */
function hasVolumes(pod: PodInfo): boolean {
  const spec: unknown = pod.pod.spec;
  return isRecord(spec) && Array.isArray(spec['volumes']) && spec['volumes'].length > 0;
}

/** The topologies of the volumes bound to the pod's claims, or the status refusing the pod (getPVbyPod). */
function volumeTopologiesOf(
  storage: StorageObjects,
  pod: PodInfo,
): { readonly topologies: VolumeTopology[] } | { readonly refusal: Status } {
  const topologies: VolumeTopology[] = [];
  for (const claimName of claimNamesOf(pod)) {
    if (claimName === '') {
      return { refusal: unresolvable(VOLUME_ZONE, REASON_CLAIM_WITHOUT_NAME) };
    }
    const claim = storage.claim(pod.namespace, claimName);
    if (claim === undefined) {
      if (!storage.areClaimsKnownIn(pod.namespace)) {
        continue;
      }
      return { refusal: unresolvable(VOLUME_ZONE, zoneClaimNotFound(claimName)) };
    }
    if (claim.volumeName === '') {
      if (claim.storageClassName === '') {
        return { refusal: unresolvable(VOLUME_ZONE, REASON_CLAIM_WITHOUT_VOLUME_OR_CLASS) };
      }
      const storageClass = storage.classes.get(claim.storageClassName);
      if (storageClass === undefined) {
        return { refusal: unresolvable(VOLUME_ZONE, storageClassNotFound(claim.storageClassName)) };
      }
      if (storageClass.volumeBindingMode === 'WaitForFirstConsumer') {
        continue;
      }
      return { refusal: unresolvable(VOLUME_ZONE, REASON_UNBOUND_IMMEDIATE_CLAIM) };
    }
    const volume = storage.volumes.get(claim.volumeName);
    if (volume === undefined) {
      return { refusal: unresolvable(VOLUME_ZONE, volumeNotFound(claim.volumeName)) };
    }
    for (const key of TOPOLOGY_LABELS) {
      const value = volume.labels[key];
      const values = value === undefined ? null : labelZonesToSet(value);
      if (values !== null) {
        topologies.push({ key, values });
      }
    }
  }
  return { topologies };
}

/** Filter on one node: every volume topology label satisfied, or a node without topology labels. */
function zoneStatus(topologies: readonly VolumeTopology[], labels: Readonly<Record<string, string>>): Status {
  if (!TOPOLOGY_LABELS.some((key) => labels[key] !== undefined)) {
    return SUCCESS;
  }
  for (const topology of topologies) {
    const gaKey = GA_LABEL_OF[topology.key];
    const value = labels[topology.key] ?? (gaKey === undefined ? undefined : labels[gaKey]);
    if (value === undefined || !topology.values.has(value)) {
      return CONFLICT_STATUS;
    }
  }
  return SUCCESS;
}

/** Builds the VolumeZone plugin over the cluster's storage objects. */
export const createVolumeZone: PluginFactory = (context) => {
  const storage = context.handle.cluster.objects.storage;
  return {
    name: VOLUME_ZONE,
    preFilter(state, pod) {
      const found = volumeTopologiesOf(storage, pod);
      if ('refusal' in found) {
        return { status: found.refusal, nodeNames: null };
      }
      if (found.topologies.length === 0) {
        return preFilterSkipped(VOLUME_ZONE);
      }
      state.write(PRE_FILTER_KEY, found.topologies);
      return PRE_FILTER_PASSED;
    },
    filter(state, pod, node) {
      if (!hasVolumes(pod)) {
        return SUCCESS;
      }
      let topologies = state.read(PRE_FILTER_KEY);
      if (topologies === undefined) {
        const found = volumeTopologiesOf(storage, pod);
        if ('refusal' in found) {
          return found.refusal;
        }
        topologies = found.topologies;
      }
      return zoneStatus(topologies, node.labels);
    },
  };
};
