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

/** The known objects of a cluster file (null: the embedded default cluster) and the apply's manifests. */
export function knownObjects(
  cluster: readonly SourcedObject[] | null,
  manifests: readonly SourcedObject[],
): KnownObjects {
  const namespaces = new Set(BUILT_IN_NAMESPACES);
  const serviceAccounts = new Set<string>();
  const limitRanges = new Map<string, LimitRangeItem[]>();
  const quotas = new Map<string, QuotaSpec[]>();
  const namespaceLabels = new Map<string, Readonly<Record<string, string>>>();
  let namespacesListed = false;
  let serviceAccountsListed = false;
  const terminatingNamespaces = new Set<string>();
  const read = (objects: readonly SourcedObject[], fromCluster: boolean): void => {
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
        namespacesListed ||= fromCluster;
      } else if (kind === 'ServiceAccount' && name !== undefined) {
        serviceAccounts.add(`${namespace ?? 'default'}/${name}`);
        serviceAccountsListed ||= fromCluster;
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
  };
  read(cluster ?? [], true);
  read(manifests, false);
  // A capture whose header lists every Namespace or ServiceAccount knows the missing ones are missing.
  const header = captureHeaderOf(cluster);
  namespacesListed ||= isCovered(header, 'namespaces');
  serviceAccountsListed ||= isCovered(header, 'serviceaccounts');
  return {
    namespaces,
    namespacesListed,
    terminatingNamespaces,
    serviceAccounts,
    serviceAccountsListed,
    limitRanges,
    quotas,
    namespaceLabels,
    defaultStorageClass: defaultStorageClassName([...(cluster ?? defaultClusterObjects()), ...manifests]),
  };
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
