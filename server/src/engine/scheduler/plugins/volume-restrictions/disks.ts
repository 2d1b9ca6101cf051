/**
 * The inline disks VolumeRestrictions compares (needsRestrictionsCheck) and when two of them conflict
 * (isVolumeConflict): the same GCE persistent disk unless both mounts are read-only; the same AWS EBS volume
 * always; the same iSCSI IQN unless both are read-only; the same Ceph RBD image (a shared monitor, the same pool
 * and image) unless both are read-only.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go
 */
import { isRecord } from '../../../model/objects';

/** The RBD pool the API server defaults an rbd volume to (SetDefaults_RBDVolumeSource). */
const DEFAULT_RBD_POOL = 'rbd';

/** One pod volume with at least one of the four compared sources (the others are null). */
export interface DiskVolume {
  readonly gcePersistentDisk: { readonly pdName: string; readonly readOnly: boolean } | null;
  readonly awsElasticBlockStore: { readonly volumeID: string } | null;
  readonly iscsi: { readonly iqn: string; readonly readOnly: boolean } | null;
  readonly rbd: {
    readonly monitors: readonly string[];
    readonly pool: string;
    readonly image: string;
    readonly readOnly: boolean;
  } | null;
}

/** What VolumeRestrictions reads of a pod's volumes. */
export interface PodRestrictedVolumes {
  /** Volumes with a gcePersistentDisk, awsElasticBlockStore, iscsi or rbd source. */
  readonly disks: readonly DiskVolume[];
  /** Claim names of the persistentVolumeClaim volumes, in order. */
  readonly claimNames: readonly string[];
}

/** Whether a pod spec lists any volume (readPodVolumes gives the shared empty answer otherwise). */
export function hasVolumes(spec: unknown): boolean {
  return isRecord(spec) && Array.isArray(spec['volumes']) && spec['volumes'].length > 0;
}

/** Reads a pod spec's volumes (unchecked JSON). */
export function readPodVolumes(spec: unknown): PodRestrictedVolumes {
  const volumes = isRecord(spec) && Array.isArray(spec['volumes']) ? (spec['volumes'] as unknown[]) : [];
  const disks: DiskVolume[] = [];
  const claimNames: string[] = [];
  for (const volume of volumes) {
    if (!isRecord(volume)) {
      continue;
    }
    const claim = volume['persistentVolumeClaim'];
    if (isRecord(claim)) {
      claimNames.push(stringField(claim, 'claimName'));
    }
    const disk = readDiskVolume(volume);
    if (disk !== null) {
      disks.push(disk);
    }
  }
  return disks.length === 0 && claimNames.length === 0 ? NO_RESTRICTED_VOLUMES : { disks, claimNames };
}

/** The answer for a pod without disk or claim volumes (most pods): one shared value, not one per pod. */
const NO_RESTRICTED_VOLUMES: PodRestrictedVolumes = Object.freeze({
  disks: Object.freeze([]),
  claimNames: Object.freeze([]),
});

function readDiskVolume(volume: Record<string, unknown>): DiskVolume | null {
  const gce = volume['gcePersistentDisk'];
  const aws = volume['awsElasticBlockStore'];
  const iscsi = volume['iscsi'];
  const rbd = volume['rbd'];
  if (!isRecord(gce) && !isRecord(aws) && !isRecord(iscsi) && !isRecord(rbd)) {
    return null;
  }
  return {
    gcePersistentDisk: isRecord(gce)
      ? { pdName: stringField(gce, 'pdName'), readOnly: gce['readOnly'] === true }
      : null,
    awsElasticBlockStore: isRecord(aws) ? { volumeID: stringField(aws, 'volumeID') } : null,
    iscsi: isRecord(iscsi) ? { iqn: stringField(iscsi, 'iqn'), readOnly: iscsi['readOnly'] === true } : null,
    rbd: isRecord(rbd)
      ? {
          monitors: Array.isArray(rbd['monitors'])
            ? rbd['monitors'].filter((monitor): monitor is string => typeof monitor === 'string')
            : [],
          pool: stringField(rbd, 'pool') || DEFAULT_RBD_POOL,
          image: stringField(rbd, 'image'),
          readOnly: rbd['readOnly'] === true,
        }
      : null,
  };
}

/** Whether any of `disks` conflicts with any of another pod's disks (satisfyVolumeConflicts, negated). */
export function hasDiskConflict(disks: readonly DiskVolume[], others: readonly DiskVolume[]): boolean {
  if (others.length === 0) {
    return false;
  }
  return disks.some((disk) => others.some((other) => isVolumeConflict(disk, other)));
}

/** Whether two volumes name the same disk in a way that cannot be shared (isVolumeConflict, for one pair). */
export function isVolumeConflict(volume: DiskVolume, existing: DiskVolume): boolean {
  const gce = volume.gcePersistentDisk;
  const otherGce = existing.gcePersistentDisk;
  if (
    gce !== null &&
    otherGce !== null &&
    gce.pdName === otherGce.pdName &&
    !(gce.readOnly && otherGce.readOnly)
  ) {
    return true;
  }
  const aws = volume.awsElasticBlockStore;
  const otherAws = existing.awsElasticBlockStore;
  if (aws !== null && otherAws !== null && aws.volumeID === otherAws.volumeID) {
    return true;
  }
  const iscsi = volume.iscsi;
  const otherIscsi = existing.iscsi;
  if (
    iscsi !== null &&
    otherIscsi !== null &&
    iscsi.iqn === otherIscsi.iqn &&
    !(iscsi.readOnly && otherIscsi.readOnly)
  ) {
    return true;
  }
  const rbd = volume.rbd;
  const otherRbd = existing.rbd;
  return (
    rbd !== null &&
    otherRbd !== null &&
    rbd.monitors.some((monitor) => otherRbd.monitors.includes(monitor)) &&
    rbd.pool === otherRbd.pool &&
    rbd.image === otherRbd.image &&
    !(rbd.readOnly && otherRbd.readOnly)
  );
}

function stringField(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  return typeof value === 'string' ? value : '';
}
