/**
 * What the admission plugins look up besides the object itself: the namespaces and service accounts that exist.
 * They come from the cluster file (what the capture lists) and the manifests (what the apply creates, in the same
 * apply). A list is authoritative only when the cluster file has such objects at all, or is a capture whose header
 * covers them (model/load/capture-header.ts): a capture of nodes alone says nothing about namespaces, and the embedded
 * default cluster has only the four namespaces every cluster has.
 */
import { defaultStorageClassName } from './plugins/default-storage-class';
import { captureHeaderOf, isCovered } from '../model/load/capture-header';
import { defaultClusterObjects } from '../model/load/default-cluster';
import type { SourcedObject } from '../model/load/cluster-load';
import { asObject, isJsonObject, readString } from '../model/json';
import { readLimitRange } from './plugins/limit-ranger';
import type { LimitRangeItem } from './plugins/limit-ranger';
import { readResourceQuota } from './plugins/resource-quota';
import type { QuotaSpec } from './plugins/resource-quota';
import { podSecurityLabelErrors } from './plugins/pod-security/namespace-policy';
import { appendAll } from '../../../../protocol/collections';

/** The namespaces every cluster has (and the embedded default cluster's only ones). */
export const BUILT_IN_NAMESPACES: readonly string[] = [
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
];

/** The service account every namespace has (the service account controller creates it). */
export const DEFAULT_SERVICE_ACCOUNT = 'default';

/** Namespaces and service accounts known to exist, and whether their absence is known too. */
export interface KnownObjects {
  readonly namespaces: ReadonlySet<string>;
  /** The cluster file lists Namespaces: one it lacks (and the apply does not create) does not exist. */
  readonly namespacesListed: boolean;
  /** The cluster file's Namespaces in phase Terminating (deleted, their content being removed). */
  readonly terminatingNamespaces: ReadonlySet<string>;
  /** "namespace/name". */
  readonly serviceAccounts: ReadonlySet<string>;
  /** The cluster file lists ServiceAccounts: one it lacks (and the apply does not create) does not exist. */
  readonly serviceAccountsListed: boolean;
  /** The LimitRanges' items by namespace. */
  readonly limitRanges: ReadonlyMap<string, readonly LimitRangeItem[]>;
  /** The ResourceQuotas by namespace. */
  readonly quotas: ReadonlyMap<string, readonly QuotaSpec[]>;
  /** The Namespaces' labels (the cluster file's first, as the cluster loader reads them). */
  readonly namespaceLabels: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** The default StorageClass (DefaultStorageClass admission), or null when there is none. */
  readonly defaultStorageClass: string | null;
}

/** Known objects as they are read: what the cluster file says, then what the manifests add. */
interface KnownState {
  readonly namespaces: Set<string>;
  readonly terminatingNamespaces: Set<string>;
  readonly serviceAccounts: Set<string>;
  readonly limitRanges: Map<string, LimitRangeItem[]>;
  readonly quotas: Map<string, QuotaSpec[]>;
  readonly namespaceLabels: Map<string, Readonly<Record<string, string>>>;
  namespacesListed: boolean;
  serviceAccountsListed: boolean;
}

/** What the cluster file alone says (read-only), and its StorageClasses, kept by its array. */
interface ClusterKnowledge {
  readonly state: KnownState;
  readonly storageClasses: readonly SourcedObject[];
}

const CLUSTER_KNOWLEDGE = new WeakMap<readonly SourcedObject[], ClusterKnowledge>();

/**
 * The known objects of a cluster file (null: the embedded default cluster), the classes assumed for it (assumed
 * storage: StorageClasses only) and the apply's manifests.
 *
 * What the cluster file says is read once per array and copied per call: every object of a namespace shows the
 * namespace exists, so a capture's 150,000 pods were walked on every prediction.
 */
export function knownObjects(
  cluster: readonly SourcedObject[] | null,
  manifests: readonly SourcedObject[],
  assumed: readonly SourcedObject[] = [],
): KnownObjects {
  const fromCluster = cluster === null ? null : clusterKnowledge(cluster);
  const kept = fromCluster?.state ?? null;
  const state: KnownState = {
    namespaces: new Set(kept?.namespaces ?? BUILT_IN_NAMESPACES),
    terminatingNamespaces: new Set(kept?.terminatingNamespaces ?? []),
    serviceAccounts: new Set(kept?.serviceAccounts ?? []),
    // The items lists grow in place (readKnown): each call has its own.
    limitRanges: new Map([...(kept?.limitRanges ?? [])].map(([namespace, items]) => [namespace, [...items]])),
    quotas: new Map(kept?.quotas ?? []),
    namespaceLabels: new Map(kept?.namespaceLabels ?? []),
    namespacesListed: kept?.namespacesListed ?? false,
    serviceAccountsListed: kept?.serviceAccountsListed ?? false,
  };
  readKnown(state, manifests, false);
  // A capture whose header lists every Namespace or ServiceAccount knows the missing ones are missing.
  const header = captureHeaderOf(cluster);
  state.namespacesListed ||= isCovered(header, 'namespaces');
  state.serviceAccountsListed ||= isCovered(header, 'serviceaccounts');
  return {
    namespaces: state.namespaces,
    namespacesListed: state.namespacesListed,
    terminatingNamespaces: state.terminatingNamespaces,
    serviceAccounts: state.serviceAccounts,
    serviceAccountsListed: state.serviceAccountsListed,
    limitRanges: state.limitRanges,
    quotas: state.quotas,
    namespaceLabels: state.namespaceLabels,
    defaultStorageClass: defaultStorageClassName([
      ...(fromCluster?.storageClasses ?? defaultClusterObjects()),
      ...assumed,
      ...manifests,
    ]),
  };
}

/** What a cluster file says, read once per array. */
function clusterKnowledge(cluster: readonly SourcedObject[]): ClusterKnowledge {
  const known = CLUSTER_KNOWLEDGE.get(cluster);
  if (known !== undefined) {
    return known;
  }
  const state: KnownState = {
    namespaces: new Set(BUILT_IN_NAMESPACES),
    terminatingNamespaces: new Set(),
    serviceAccounts: new Set(),
    limitRanges: new Map(),
    quotas: new Map(),
    namespaceLabels: new Map(),
    namespacesListed: false,
    serviceAccountsListed: false,
  };
  readKnown(state, cluster, true);
  const storageClasses = cluster.filter(
    ({ object }) => isJsonObject(object) && object['kind'] === 'StorageClass',
  );
  const knowledge: ClusterKnowledge = { state, storageClasses: Object.freeze(storageClasses) };
  CLUSTER_KNOWLEDGE.set(cluster, knowledge);
  return knowledge;
}

/** Reads objects of the cluster file (`fromCluster`) or of the apply into `state`. */
function readKnown(state: KnownState, objects: readonly SourcedObject[], fromCluster: boolean): void {
  const { namespaces, terminatingNamespaces, serviceAccounts, limitRanges, quotas, namespaceLabels } = state;
  for (const { object } of objects) {
    if (!isJsonObject(object)) {
      continue;
    }
    const kind = object['kind'];
    const metadata = asObject(object['metadata']);
    const name = readString(metadata['name']);
    const namespace = readString(metadata['namespace']);
    if (kind === 'Namespace' && name !== undefined) {
      const labels = stringLabelsOf(metadata);
      // The API server refuses a Namespace with invalid pod-security labels: the apply does not create it.
      if (!fromCluster && podSecurityLabelErrors(labels).length > 0) {
        continue;
      }
      namespaces.add(name);
      // The namespace registry sets phase Terminating on deletion; an apply cannot bring it back.
      if (fromCluster && asObject(object['status'])['phase'] === 'Terminating') {
        terminatingNamespaces.add(name);
      }
      // An apply sets the labels it names and keeps the others the live namespace has.
      namespaceLabels.set(name, { ...(namespaceLabels.get(name) ?? {}), ...labels });
      state.namespacesListed ||= fromCluster;
    } else if (kind === 'ServiceAccount' && name !== undefined) {
      serviceAccounts.add(`${namespace ?? 'default'}/${name}`);
      state.serviceAccountsListed ||= fromCluster;
    } else if (kind === 'ResourceQuota') {
      quotas.set(namespace ?? 'default', [
        ...(quotas.get(namespace ?? 'default') ?? []),
        readResourceQuota(object),
      ]);
    } else if (kind === 'LimitRange') {
      const items = limitRanges.get(namespace ?? 'default') ?? [];
      appendAll(items, readLimitRange(object));
      limitRanges.set(namespace ?? 'default', items);
    }
    if (fromCluster && namespace !== undefined && kind !== 'Namespace') {
      namespaces.add(namespace); // what runs in a namespace shows it exists
    }
  }
}

/** A namespace's labels whose values are strings. */
export function stringLabelsOf(metadata: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(asObject(metadata['labels'])).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/** Whether a service account exists in a namespace: `default` always does, others when known. */
export function hasServiceAccount(known: KnownObjects, namespace: string, name: string): boolean {
  return name === DEFAULT_SERVICE_ACCOUNT || known.serviceAccounts.has(`${namespace}/${name}`);
}
