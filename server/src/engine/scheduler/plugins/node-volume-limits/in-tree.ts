/**
 * The part of csi-translation-lib NodeVolumeLimits needs: which in-tree volume sources and provisioners migrate to
 * which CSI driver, and the volume handle a migrated volume gets (so that the same disk, written in-tree in one pod
 * and as CSI in another, counts once). Migration counts only for the plugins isCSIMigrationOn accepts in 1.35
 * (AWS EBS, GCE PD, Azure Disk, Cinder, Portworx), and only on a node with a CSINode object.
 * https://github.com/kubernetes/kubernetes/tree/master/staging/src/k8s.io/csi-translation-lib/plugins
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/nodevolumelimits/utils.go
 *
 * Left out: the translations' other fields (fsType, partitions, access modes), which do not change the count.
 */
import { isRecord } from '../../../model/objects';

/** A handle, or why the in-tree source cannot be translated. */
type Translation = { readonly handle: string } | { readonly error: string };

/** An in-tree volume plugin with a CSI migration. */
interface InTreePlugin {
  /** The in-tree plugin name, also its provisioner name ("kubernetes.io/aws-ebs"). */
  readonly pluginName: string;
  /** The volume source field in a pod volume or PersistentVolume spec. */
  readonly sourceKey: string;
  /** The CSI driver it migrates to. */
  readonly driver: string;
  /** Whether isCSIMigrationOn accepts it (Azure File and vSphere translate, but are never counted). */
  readonly counted: boolean;
  /** The CSI volume handle of a source; `labels` are the PersistentVolume's, null for an inline volume. */
  handle(source: Record<string, unknown>, labels: Readonly<Record<string, string>> | null): Translation;
}

const UNSPECIFIED = 'UNSPECIFIED';
const BETA_ZONE_LABEL = 'failure-domain.beta.kubernetes.io/zone';
const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** The in-tree plugins csi-translation-lib migrates. */
const IN_TREE_PLUGINS: readonly InTreePlugin[] = [
  {
    pluginName: 'kubernetes.io/aws-ebs',
    sourceKey: 'awsElasticBlockStore',
    driver: 'ebs.csi.aws.com',
    counted: true,
    handle: (source) => ebsVolumeId(stringField(source, 'volumeID')),
  },
  {
    pluginName: 'kubernetes.io/gce-pd',
    sourceKey: 'gcePersistentDisk',
    driver: 'pd.csi.storage.gke.io',
    counted: true,
    handle: (source, labels) => gcePdHandle(stringField(source, 'pdName'), labels),
  },
  {
    pluginName: 'kubernetes.io/azure-disk',
    sourceKey: 'azureDisk',
    driver: 'disk.csi.azure.com',
    counted: true,
    handle: (source) => ({ handle: stringField(source, 'diskURI') }),
  },
  {
    pluginName: 'kubernetes.io/cinder',
    sourceKey: 'cinder',
    driver: 'cinder.csi.openstack.org',
    counted: true,
    handle: (source) => ({ handle: stringField(source, 'volumeID') }),
  },
  {
    pluginName: 'kubernetes.io/portworx-volume',
    sourceKey: 'portworxVolume',
    driver: 'pxd.portworx.com',
    counted: true,
    handle: (source) => ({ handle: stringField(source, 'volumeID') }),
  },
  {
    pluginName: 'kubernetes.io/azure-file',
    sourceKey: 'azureFile',
    driver: 'file.csi.azure.com',
    counted: false,
    handle: (source) => ({ handle: stringField(source, 'shareName') }),
  },
  {
    pluginName: 'kubernetes.io/vsphere-volume',
    sourceKey: 'vsphereVolume',
    driver: 'csi.vsphere.vmware.com',
    counted: false,
    handle: (source) => ({ handle: stringField(source, 'volumePath') }),
  },
];

/** A migrated volume: its CSI driver and handle, or the translation error. */
export type MigratedVolume =
  { readonly driver: string; readonly handle: string } | { readonly error: string };

/** The first in-tree source a volume or PV spec carries, with its plugin (GetInTreePluginNameFromSpec). */
function inTreeSourceOf(
  spec: Record<string, unknown>,
): { readonly plugin: InTreePlugin; readonly source: Record<string, unknown> } | null {
  for (const plugin of IN_TREE_PLUGINS) {
    const source = spec[plugin.sourceKey];
    if (isRecord(source)) {
      return { plugin, source };
    }
  }
  return null;
}

/** Whether a pod volume has an in-tree source that can migrate to CSI (IsInlineMigratable). */
export function isInlineMigratable(volume: Record<string, unknown>): boolean {
  return inTreeSourceOf(volume) !== null;
}

/**
 * The CSI driver and handle of an in-tree source (a pod volume, or a PersistentVolume spec with its labels), when
 * migration counts for it on a node (`hasCsiNode`); null when it does not (no in-tree source, a plugin whose
 * migration is not counted, or no CSINode).
 */
export function migrateInTree(
  spec: Record<string, unknown>,
  labels: Readonly<Record<string, string>> | null,
  hasCsiNode: boolean,
): MigratedVolume | null {
  const found = inTreeSourceOf(spec);
  if (found === null || !found.plugin.counted || !hasCsiNode) {
    return null;
  }
  const translated = found.plugin.handle(found.source, labels);
  return 'error' in translated ? translated : { driver: found.plugin.driver, handle: translated.handle };
}

/**
 * The CSI driver a StorageClass's provisioner provisions with: itself for a CSI provisioner, the migrated driver
 * for a counted in-tree one on a node with a CSINode, null otherwise (getCSIDriverInfoFromSC).
 */
export function driverOfProvisioner(provisioner: string, hasCsiNode: boolean): string | null {
  const plugin = IN_TREE_PLUGINS.find((candidate) => candidate.pluginName === provisioner);
  if (plugin === undefined) {
    return provisioner;
  }
  return plugin.counted && hasCsiNode ? plugin.driver : null;
}

/** KubernetesVolumeIDToEBSVolumeID: "aws://<zone>/<vol-id>" or a bare id. */
function ebsVolumeId(volumeId: string): Translation {
  const prefix = 'aws://';
  if (!volumeId.startsWith(prefix)) {
    return { handle: volumeId };
  }
  const rest = volumeId.slice(prefix.length);
  const slash = rest.indexOf('/');
  const id = (slash < 0 ? '' : rest.slice(slash)).replace(/^\/+|\/+$/g, '');
  return /^vol-[^/]*$/.test(id) ? { handle: id } : { error: `Invalid format for AWS volume (${volumeId})` };
}

/** The GCE PD handle: zonal or regional from the PV's zone labels, unspecified for an inline volume. */
function gcePdHandle(pdName: string, labels: Readonly<Record<string, string>> | null): Translation {
  const beta = labels?.[BETA_ZONE_LABEL] ?? '';
  const ga = labels?.[ZONE_LABEL] ?? '';
  if (beta !== '' && ga !== '' && beta !== ga) {
    return { error: 'PV has mismatched topology labels' };
  }
  const zones = (beta === '' ? ga : beta).split('__');
  const [first] = zones;
  if (zones.length === 1 && first !== undefined && first !== '') {
    return { handle: `projects/${UNSPECIFIED}/zones/${first}/disks/${pdName}` };
  }
  if (zones.length > 1) {
    const regions = new Set<string>();
    for (const zone of zones) {
      const parts = zone.split('-');
      if (parts.length !== 3) {
        return { error: `zone in unexpected format, expected: {locale}-{region}-{zone}, got: ${zone}` };
      }
      regions.add(`${parts[0] ?? ''}-${parts[1] ?? ''}`);
    }
    const [region] = regions;
    if (regions.size !== 1 || region === undefined) {
      return { error: 'multiple or no regions gotten from zones' };
    }
    return { handle: `projects/${UNSPECIFIED}/regions/${region}/disks/${pdName}` };
  }
  return { handle: `projects/${UNSPECIFIED}/zones/${UNSPECIFIED}/disks/${pdName}` };
}

function stringField(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  return typeof value === 'string' ? value : '';
}
