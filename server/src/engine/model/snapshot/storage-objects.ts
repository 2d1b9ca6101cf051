/**
 * Storage as the scheduler's volume plugins and the PersistentVolume controller see it: PersistentVolumeClaims,
 * PersistentVolumes, StorageClasses and CSINodes, from the cluster file (`kubectl get pvc,pv,storageclass,csinode
 * -A -o yaml`) and from the apply. Claims and volumes are mutable: binding a pod's claims (the scheduler's
 * VolumeBinding PreBind and the PV controller) changes them as the simulation runs.
 *
 * A claim is "fully bound" as upstream's isPVCFullyBound says: spec.volumeName set and the annotation
 * pv.kubernetes.io/bind-completed present. Its class is spec.storageClassName, else the beta annotation
 * volume.beta.kubernetes.io/storage-class (GetPersistentVolumeClaimClass); DefaultStorageClass admission has
 * filled an unset class before a claim reaches here.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/volumebinding/binder.go
 * https://github.com/kubernetes/component-helpers/blob/master/storage/volume/helpers.go
 */
import { parseQuantity } from '../quantity';
import { isRecord } from '../objects';
import type { ObjectSource } from '../source';

/** The annotation the PV controller sets once a claim's binding is complete. */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
/** The annotation the scheduler sets on a claim to provision for the chosen node. */
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
/** The annotation that makes a StorageClass the default. */
export const ANN_DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
/** A class whose volumes are only created by hand (local volumes). */
export const NOT_SUPPORTED_PROVISIONER = 'kubernetes.io/no-provisioner';

/** A PersistentVolumeClaim. */
export interface ClaimInfo {
  readonly namespace: string;
  readonly name: string;
  /** The class it asks for: '' for "no class" (only volumes without class bind it). */
  storageClassName: string;
  /** Whether the claim set no class at all (DefaultStorageClass may give it one). */
  readonly classUnset: boolean;
  readonly accessModes: readonly string[];
  /** spec.resources.requests.storage in bytes, or 0 when absent. */
  readonly requestBytes: number;
  /** spec.volumeMode (Filesystem by default). */
  readonly volumeMode: string;
  /** spec.selector (raw), matched against volume labels. */
  readonly selector: unknown;
  /** spec.volumeName: the volume it is (pre)bound to, '' when none. */
  volumeName: string;
  /** status.phase. */
  phase: 'Pending' | 'Bound' | 'Lost';
  /** pv.kubernetes.io/bind-completed is set. */
  bindCompleted: boolean;
  /** volume.kubernetes.io/selected-node: the node to provision for. */
  selectedNode: string | null;
  /** metadata.deletionTimestamp is set. */
  readonly deleting: boolean;
  /** Where it was written (a manifest or the cluster file), null for a claim a controller created. */
  readonly source: ObjectSource | null;
  /** The controller that created it ("StatefulSet/db"), or null. */
  readonly createdBy: string | null;
}

/** A PersistentVolume. */
export interface VolumeInfo {
  readonly name: string;
  /** spec.storageClassName ('' for none). */
  readonly storageClassName: string;
  /** spec.capacity.storage in bytes. */
  readonly capacityBytes: number;
  readonly accessModes: readonly string[];
  readonly volumeMode: string;
  /** spec.nodeAffinity.required (a NodeSelector), or null. */
  readonly nodeAffinity: unknown;
  readonly labels: Readonly<Record<string, string>>;
  /** spec.claimRef: the claim it is bound or reserved to. */
  claimRef: { readonly namespace: string; readonly name: string } | null;
  /** status.phase. */
  phase: string;
  /** The raw spec (the volume plugins read their source: csi, gcePersistentDisk, …). */
  readonly spec: Readonly<Record<string, unknown>>;
  /** Where it was written, or null for a volume the simulation provisioned. */
  readonly source: ObjectSource | null;
}

/** A StorageClass. */
export interface StorageClassInfo {
  readonly name: string;
  readonly provisioner: string;
  readonly volumeBindingMode: 'Immediate' | 'WaitForFirstConsumer';
  /** allowedTopologies (TopologySelectorTerms), raw; empty allows every node. */
  readonly allowedTopologies: readonly unknown[];
  readonly isDefault: boolean;
  /** reclaimPolicy of the volumes it provisions (Delete by default). */
  readonly reclaimPolicy: string;
  /** metadata.creationTimestamp, '' when absent. */
  readonly creationTimestamp: string;
  readonly source: ObjectSource;
}

/** One CSI driver of a node (CSINode spec.drivers[]). */
export interface CsiNodeDriver {
  readonly name: string;
  /** allocatable.count: how many of its volumes the node can attach, or null when unlimited. */
  readonly allocatableCount: number | null;
  readonly topologyKeys: readonly string[];
}

/** The storage objects of a simulation. */
export class StorageObjects {
  /** Claims by "namespace/name", in input order. */
  readonly claims = new Map<string, ClaimInfo>();
  /** Volumes by name, in input order. */
  readonly volumes = new Map<string, VolumeInfo>();
  /** Classes by name. */
  readonly classes = new Map<string, StorageClassInfo>();
  /** CSINode drivers by node name. */
  readonly csiNodes = new Map<string, ReadonlyMap<string, CsiNodeDriver>>();
  /**
   * Namespaces whose claims the cluster file lists: a claim missing there is missing for certain; elsewhere (the
   * embedded default cluster, a capture without claims) the real cluster may have it.
   */
  readonly claimNamespacesListed = new Set<string>();
  /** Whether the cluster is a capture whose header covers PersistentVolumeClaims: every namespace's are listed. */
  claimsCovered = false;
  /** Whether the cluster file lists PersistentVolumes (else a volume a claim names may exist in the cluster). */
  volumesListed = false;
  /** Counts changes, so callers can tell when a binding changed what a plugin read. */
  generation = 0;

  /** Whether the claims of a namespace are known: a claim missing there does not exist. */
  areClaimsKnownIn(namespace: string): boolean {
    return this.claimsCovered || this.claimNamespacesListed.has(namespace);
  }

  /** Keeps an object of a storage kind; returns false for other kinds. */
  add(kind: string, object: Record<string, unknown>, source: ObjectSource, fromCluster: boolean): boolean {
    const metadata = isRecord(object['metadata']) ? object['metadata'] : {};
    const name = typeof metadata['name'] === 'string' ? metadata['name'] : '';
    const spec = isRecord(object['spec']) ? object['spec'] : {};
    switch (kind) {
      case 'PersistentVolumeClaim': {
        const claim = readClaim(object, source);
        if (!this.claims.has(`${claim.namespace}/${claim.name}`)) {
          this.claims.set(`${claim.namespace}/${claim.name}`, claim);
        }
        if (fromCluster) {
          this.claimNamespacesListed.add(claim.namespace);
        }
        return true;
      }
      case 'PersistentVolume':
        this.volumesListed ||= fromCluster;
        if (name !== '' && !this.volumes.has(name)) {
          this.volumes.set(name, readVolume(object, source));
        }
        return true;
      case 'StorageClass':
        if (name !== '' && !this.classes.has(name)) {
          this.classes.set(name, readClass(object, name, source));
        }
        return true;
      case 'CSINode': {
        const drivers = new Map<string, CsiNodeDriver>();
        for (const entry of Array.isArray(spec['drivers']) ? spec['drivers'] : []) {
          if (!isRecord(entry) || typeof entry['name'] !== 'string') {
            continue;
          }
          const allocatable = isRecord(entry['allocatable']) ? entry['allocatable'] : {};
          const count = allocatable['count'];
          drivers.set(entry['name'], {
            name: entry['name'],
            allocatableCount: typeof count === 'number' && Number.isInteger(count) ? count : null,
            topologyKeys: stringList(entry['topologyKeys']),
          });
        }
        if (name !== '') {
          this.csiNodes.set(name, drivers);
        }
        return true;
      }
      default:
        return false;
    }
  }

  claim(namespace: string, name: string): ClaimInfo | undefined {
    return this.claims.get(`${namespace}/${name}`);
  }

  /**
   * The default StorageClass, as DefaultStorageClass admission picks it (GetDefaultClass): among the classes
   * annotated default, the newest by creationTimestamp, then by name; null when there is none.
   */
  defaultClass(): StorageClassInfo | null {
    let chosen: StorageClassInfo | null = null;
    for (const candidate of this.classes.values()) {
      if (!candidate.isDefault) {
        continue;
      }
      if (
        chosen === null ||
        candidate.creationTimestamp > chosen.creationTimestamp ||
        (candidate.creationTimestamp === chosen.creationTimestamp && candidate.name < chosen.name)
      ) {
        chosen = candidate;
      }
    }
    return chosen;
  }

  /** Whether a claim is fully bound (isPVCFullyBound). */
  static isFullyBound(claim: ClaimInfo): boolean {
    return claim.volumeName !== '' && claim.bindCompleted;
  }

  /** Whether a claim waits for its first consumer (IsDelayBindingMode): a class that exists and says so. */
  isDelayBinding(claim: ClaimInfo): boolean {
    if (claim.storageClassName === '') {
      return false;
    }
    return this.classes.get(claim.storageClassName)?.volumeBindingMode === 'WaitForFirstConsumer';
  }

  /** Adds a claim a controller creates (a StatefulSet's volumeClaimTemplates). */
  addClaim(claim: ClaimInfo): void {
    this.claims.set(`${claim.namespace}/${claim.name}`, claim);
    this.generation++;
  }

  /** Adds a volume the simulation provisioned. */
  addVolume(volume: VolumeInfo): void {
    this.volumes.set(volume.name, volume);
    this.generation++;
  }

  /**
   * Deletes a claim; its volume is released (reclaimPolicy Retain) or deleted with it (Delete, the default of
   * provisioned volumes).
   */
  deleteClaim(claim: ClaimInfo): void {
    this.claims.delete(`${claim.namespace}/${claim.name}`);
    const volume = claim.volumeName === '' ? undefined : this.volumes.get(claim.volumeName);
    if (volume !== undefined) {
      if (volume.spec['persistentVolumeReclaimPolicy'] === 'Retain') {
        volume.phase = 'Released';
      } else {
        this.volumes.delete(volume.name);
      }
    }
    this.generation++;
  }

  /** Binds a claim to a volume, both ways, as the PV controller completes it. */
  bind(claim: ClaimInfo, volume: VolumeInfo): void {
    claim.volumeName = volume.name;
    claim.bindCompleted = true;
    claim.phase = 'Bound';
    volume.claimRef = { namespace: claim.namespace, name: claim.name };
    volume.phase = 'Bound';
    this.generation++;
  }
}

/** A claim object as the model reads it (createdBy: the controller that made it, for claims made in the simulation). */
export function readClaim(
  object: Record<string, unknown>,
  source: ObjectSource | null,
  createdBy: string | null = null,
): ClaimInfo {
  const metadata = isRecord(object['metadata']) ? object['metadata'] : {};
  const spec = isRecord(object['spec']) ? object['spec'] : {};
  const status = isRecord(object['status']) ? object['status'] : {};
  const annotations = isRecord(metadata['annotations']) ? metadata['annotations'] : {};
  const betaClass = annotations['volume.beta.kubernetes.io/storage-class'];
  const specClass = spec['storageClassName'];
  const className =
    typeof betaClass === 'string' ? betaClass : typeof specClass === 'string' ? specClass : null;
  const resources = isRecord(spec['resources']) ? spec['resources'] : {};
  const requests = isRecord(resources['requests']) ? resources['requests'] : {};
  const phase = status['phase'];
  const selectedNode = annotations[ANN_SELECTED_NODE];
  return {
    namespace:
      typeof metadata['namespace'] === 'string' && metadata['namespace'] !== ''
        ? metadata['namespace']
        : 'default',
    name: typeof metadata['name'] === 'string' ? metadata['name'] : '',
    storageClassName: className ?? '',
    classUnset: className === null,
    accessModes: stringList(spec['accessModes']),
    requestBytes: bytesOf(requests['storage']),
    volumeMode: typeof spec['volumeMode'] === 'string' ? spec['volumeMode'] : 'Filesystem',
    selector: spec['selector'] ?? null,
    volumeName: typeof spec['volumeName'] === 'string' ? spec['volumeName'] : '',
    phase: phase === 'Bound' || phase === 'Lost' ? phase : 'Pending',
    bindCompleted: ANN_BIND_COMPLETED in annotations,
    selectedNode: typeof selectedNode === 'string' ? selectedNode : null,
    deleting: metadata['deletionTimestamp'] !== undefined && metadata['deletionTimestamp'] !== null,
    source,
    createdBy,
  };
}

function readVolume(object: Record<string, unknown>, source: ObjectSource): VolumeInfo {
  const metadata = isRecord(object['metadata']) ? object['metadata'] : {};
  const spec = isRecord(object['spec']) ? object['spec'] : {};
  const status = isRecord(object['status']) ? object['status'] : {};
  const annotations = isRecord(metadata['annotations']) ? metadata['annotations'] : {};
  const betaClass = annotations['volume.beta.kubernetes.io/storage-class'];
  const capacity = isRecord(spec['capacity']) ? spec['capacity'] : {};
  const nodeAffinity = isRecord(spec['nodeAffinity']) ? spec['nodeAffinity'] : {};
  const claimRef = isRecord(spec['claimRef']) ? spec['claimRef'] : null;
  return {
    name: typeof metadata['name'] === 'string' ? metadata['name'] : '',
    storageClassName:
      typeof betaClass === 'string'
        ? betaClass
        : typeof spec['storageClassName'] === 'string'
          ? spec['storageClassName']
          : '',
    capacityBytes: bytesOf(capacity['storage']),
    accessModes: stringList(spec['accessModes']),
    volumeMode: typeof spec['volumeMode'] === 'string' ? spec['volumeMode'] : 'Filesystem',
    nodeAffinity: isRecord(nodeAffinity['required']) ? nodeAffinity['required'] : null,
    labels: stringMap(metadata['labels']),
    claimRef:
      claimRef === null
        ? null
        : {
            namespace: typeof claimRef['namespace'] === 'string' ? claimRef['namespace'] : 'default',
            name: typeof claimRef['name'] === 'string' ? claimRef['name'] : '',
          },
    phase: typeof status['phase'] === 'string' ? status['phase'] : claimRef === null ? 'Available' : 'Bound',
    spec,
    source,
  };
}

function readClass(object: Record<string, unknown>, name: string, source: ObjectSource): StorageClassInfo {
  const metadata = isRecord(object['metadata']) ? object['metadata'] : {};
  const annotations = isRecord(metadata['annotations']) ? metadata['annotations'] : {};
  const isDefault =
    annotations[ANN_DEFAULT_CLASS] === 'true' ||
    annotations['storageclass.beta.kubernetes.io/is-default-class'] === 'true';
  return {
    name,
    provisioner: typeof object['provisioner'] === 'string' ? object['provisioner'] : '',
    volumeBindingMode:
      object['volumeBindingMode'] === 'WaitForFirstConsumer' ? 'WaitForFirstConsumer' : 'Immediate',
    allowedTopologies: Array.isArray(object['allowedTopologies']) ? object['allowedTopologies'] : [],
    isDefault,
    reclaimPolicy: typeof object['reclaimPolicy'] === 'string' ? object['reclaimPolicy'] : 'Delete',
    creationTimestamp: typeof metadata['creationTimestamp'] === 'string' ? metadata['creationTimestamp'] : '',
    source,
  };
}

/** A storage quantity in bytes; 0 when absent or not a quantity. */
export function bytesOf(value: unknown): number {
  if (typeof value !== 'string' && typeof value !== 'number') {
    return 0;
  }
  const parsed = parseQuantity(value);
  return parsed.ok ? parsed.quantity.value : 0;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function stringMap(value: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  if (isRecord(value)) {
    for (const [key, entry] of Object.entries(value)) {
      if (typeof entry === 'string') {
        result[key] = entry;
      }
    }
  }
  return result;
}
