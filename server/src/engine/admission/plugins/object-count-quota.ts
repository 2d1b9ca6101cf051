/**
 * ResourceQuota for the objects of the apply other than pods (plugin/pkg/admission/resourcequota/controller.go with
 * pkg/quota/v1/generic's object count evaluators and pkg/quota/v1/evaluator/core/services.go and
 * persistent_volume_claims.go): creating an object uses `count/<resource>[.<group>]` and, for the core kinds, the
 * legacy name (services, configmaps, secrets, persistentvolumeclaims, replicationcontrollers, resourcequotas); a
 * Service uses services.loadbalancers and services.nodeports; a claim uses requests.storage and its storage
 * class's `<class>.storageclass.storage.k8s.io/requests.storage` and `/persistentvolumeclaims`. A quota that tracks
 * one of them refuses the object when its usage plus the object's would pass `hard`, in the evaluator's words:
 * `exceeded quota: NAME, requested: services=1, used: services=2, limited: services=2`.
 * Usage starts from the quota's status.used when the cluster file's quota has it (what the API server reads), else
 * from the cluster file's objects of that namespace, and grows with each object the apply creates, in order. An
 * object the cluster already holds is an update and uses nothing new. Left out: scoped quotas (their scopes match
 * pods only, so they count no other object), updates that change usage (a Service turned LoadBalancer, a claim
 * resized), and the short while before the quota controller writes a new quota's status.
 */
import { parseQuantity } from '../../model/quantity';
import { isJsonObject, readString, asObject } from '../../model/json';
import type { SourcedObject } from '../../model/load/cluster-load';
import { ADMISSION_PLUGIN } from '../names';
import type { Refusal } from '../rejected';
import { forbiddenMessage } from '../rejected';
import type { QuotaSpec } from './resource-quota';

/** The legacy quota names of core kinds (pkg/quota/v1/evaluator/core/registry.go legacyObjectCountAliases). */
const LEGACY_NAMES: Readonly<Record<string, string>> = {
  ConfigMap: 'configmaps',
  PersistentVolumeClaim: 'persistentvolumeclaims',
  ReplicationController: 'replicationcontrollers',
  ResourceQuota: 'resourcequotas',
  Secret: 'secrets',
  Service: 'services',
};

/** The resource of a kind, as the REST mapper guesses it (UnsafeGuessKindToResource); Endpoints is its own plural. */
export function resourceOf(kind: string): string {
  const singular = kind.toLowerCase();
  if (singular === 'endpoints') {
    return singular;
  }
  if (singular.endsWith('s')) {
    return `${singular}es`;
  }
  return singular.endsWith('y') ? `${singular.slice(0, -1)}ies` : `${singular}s`;
}

/** The group-qualified resource of an object, as Forbidden errors name it: services, deployments.apps. */
export function groupResource(apiVersion: string, kind: string): string {
  const group = apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
  return group === '' ? resourceOf(kind) : `${resourceOf(kind)}.${group}`;
}

/** The usage of an object no quota reads: nothing (read-only). */
const NO_USAGE: ReadonlyMap<string, number> = new Map();

/** The quota resources creating the object uses, with amounts (storage in bytes, counts as counts). */
export function objectUsage(object: Record<string, unknown>): Map<string, number> {
  const kind = readString(object['kind']) ?? '';
  const apiVersion = readString(object['apiVersion']) ?? '';
  const group = apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
  const resource = resourceOf(kind);
  const usage = new Map<string, number>([[`count/${group === '' ? resource : `${resource}.${group}`}`, 1]]);
  const legacy = group === '' ? LEGACY_NAMES[kind] : undefined;
  if (legacy !== undefined) {
    usage.set(legacy, 1);
  }
  const spec = asObject(object['spec']);
  if (group === '' && kind === 'Service') {
    const type = readString(spec['type']) ?? 'ClusterIP';
    const ports = Array.isArray(spec['ports']) ? spec['ports'].length : 0;
    usage.set('services.loadbalancers', type === 'LoadBalancer' ? 1 : 0);
    const allocates =
      type === 'NodePort' || (type === 'LoadBalancer' && spec['allocateLoadBalancerNodePorts'] !== false);
    usage.set('services.nodeports', allocates ? ports : 0);
  }
  if (group === '' && kind === 'PersistentVolumeClaim') {
    const request = asObject(asObject(spec['resources'])['requests'])['storage'];
    const parsed = typeof request === 'string' || typeof request === 'number' ? parseQuantity(request) : null;
    const bytes = parsed?.ok === true ? parsed.quantity.value : 0;
    usage.set('requests.storage', bytes);
    const className = readString(spec['storageClassName']);
    if (className !== undefined && className !== '') {
      usage.set(`${className}.storageclass.storage.k8s.io/requests.storage`, bytes);
      usage.set(`${className}.storageclass.storage.k8s.io/persistentvolumeclaims`, 1);
    }
  }
  return usage;
}

/** The kind identityOf puts in an identity: objects of another kind never share one. */
const kindOf = (object: Record<string, unknown>): string => readString(object['kind']) ?? '';

const identityOf = (object: Record<string, unknown>): string => {
  const metadata = asObject(object['metadata']);
  // The group: the apiVersion up to its last slash ("apps/v1" → "apps", "v1" → ""), without splitting it.
  const apiVersion = readString(object['apiVersion']) ?? '';
  const group = apiVersion.slice(0, Math.max(apiVersion.lastIndexOf('/'), 0));
  return `${group}/${readString(object['kind']) ?? ''}/${readString(metadata['namespace']) ?? 'default'}/${readString(metadata['name']) ?? ''}`;
};

/** A quota amount in usage units (storage in bytes), 0 when malformed. */
const amountOf = (text: string): number => {
  const parsed = parseQuantity(text);
  return parsed.ok ? parsed.quantity.value : 0;
};

/** Usage as the evaluator prints it: storage in binary units when exact, counts as they are. */
function formatAmount(amount: number, resource: string): string {
  if (resource.endsWith('requests.storage')) {
    for (const [suffix, size] of [
      ['Ti', 2 ** 40],
      ['Gi', 2 ** 30],
      ['Mi', 2 ** 20],
      ['Ki', 2 ** 10],
    ] as const) {
      if (amount !== 0 && amount % size === 0) {
        return `${amount / size}${suffix}`;
      }
    }
  }
  return String(amount);
}

/** The cluster file's objects by kind, kept by the array given (read-only: the ledger copies the map). */
const BY_KIND = new WeakMap<
  readonly SourcedObject[],
  ReadonlyMap<string, readonly Record<string, unknown>[]>
>();

/**
 * The objects of `clusterObjects` by kind, in order, made once per array: a capture's 155,000 objects are grouped
 * for the first prediction against it, not for each.
 */
function objectsByKind(
  clusterObjects: readonly SourcedObject[],
): ReadonlyMap<string, readonly Record<string, unknown>[]> {
  const known = BY_KIND.get(clusterObjects);
  if (known !== undefined) {
    return known;
  }
  const byKind = new Map<string, Record<string, unknown>[]>();
  for (const { object } of clusterObjects) {
    if (!isJsonObject(object)) {
      continue;
    }
    const kind = kindOf(object);
    let sameKind = byKind.get(kind);
    if (sameKind === undefined) {
      sameKind = [];
      byKind.set(kind, sameKind);
    }
    sameKind.push(object);
  }
  for (const list of byKind.values()) {
    Object.freeze(list);
  }
  BY_KIND.set(clusterObjects, byKind);
  return byKind;
}

/** The usage of each quota of the apply's namespaces, as the objects are created one by one. */
export class ObjectQuotaLedger {
  private readonly used = new Map<string, Map<string, number>>();
  private readonly existing = new Set<string>();
  /**
   * The cluster file's objects by kind, their identities not yet in `existing`: a kind is indexed when an object
   * of that kind is first looked up. A capture's 150,000 pods were all indexed for an apply of one Deployment.
   */
  private readonly unindexed: Map<string, readonly Record<string, unknown>[]>;

  constructor(
    private readonly quotas: ReadonlyMap<string, readonly QuotaSpec[]>,
    clusterObjects: readonly SourcedObject[],
  ) {
    // A copy of the kept grouping (a few kinds): indexing a kind takes it out of this ledger's map only.
    this.unindexed = new Map(objectsByKind(clusterObjects));
    const counted = new Map<string, Map<string, number>>();
    // Usage is read only for namespaces with a quota: a cluster file of thousands of pods and no quota counts
    // nothing, and is not walked.
    for (const { object } of quotas.size === 0 ? [] : clusterObjects) {
      if (!isJsonObject(object)) {
        continue;
      }
      const namespace = readString(asObject(object['metadata'])['namespace']);
      if (namespace === undefined || !quotas.has(namespace)) {
        continue;
      }
      const totals = counted.get(namespace) ?? new Map<string, number>();
      for (const [name, amount] of objectUsage(object)) {
        totals.set(name, (totals.get(name) ?? 0) + amount);
      }
      counted.set(namespace, totals);
    }
    for (const [namespace, list] of quotas) {
      for (const quota of list) {
        const usage = new Map<string, number>();
        for (const name of Object.keys(quota.hard)) {
          const reported = quota.used?.[name];
          usage.set(
            name,
            reported !== undefined ? amountOf(reported) : (counted.get(namespace)?.get(name) ?? 0),
          );
        }
        this.used.set(`${namespace}/${quota.name}`, usage);
      }
    }
  }

  /** Whether an object exists already (the cluster file's, or created earlier in the apply): applying it updates it. */
  exists(object: Record<string, unknown>): boolean {
    return this.isExisting(object);
  }

  /** Admits the creation of an object (counting it), or the quota's refusal. */
  admit(object: Record<string, unknown>, namespace: string): Refusal | null {
    const kind = readString(object['kind']) ?? '';
    if (kind === 'Pod' || this.isExisting(object)) {
      return null; // pods are counted as they are created (resource-quota.ts); an update creates nothing
    }
    const quotas = (this.quotas.get(namespace) ?? []).filter((quota) => quota.selectors.length === 0);
    // The usage (a pure function of the object) is read only against the namespace's quotas: with none, as in
    // most applies, it is not made.
    const requested = quotas.length === 0 ? NO_USAGE : objectUsage(object);
    for (const quota of quotas) {
      const used = this.used.get(`${namespace}/${quota.name}`) ?? new Map<string, number>();
      const exceeded = Object.keys(quota.hard)
        .filter(
          (name) =>
            requested.has(name) &&
            (used.get(name) ?? 0) + (requested.get(name) ?? 0) > amountOf(quota.hard[name] ?? '0'),
        )
        .sort();
      if (exceeded.length > 0) {
        const list = (value: (name: string) => string): string =>
          exceeded.map((name) => `${name}=${value(name)}`).join(',');
        const name = readString(asObject(object['metadata'])['name']) ?? '';
        // The Forbidden error names the group-qualified resource: services, deployments.apps.
        const apiVersion = readString(object['apiVersion']) ?? '';
        const group = apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
        return {
          stage: 'admission',
          plugin: ADMISSION_PLUGIN.ResourceQuota,
          message: forbiddenMessage(
            group === '' ? resourceOf(kind) : `${resourceOf(kind)}.${group}`,
            name,
            `exceeded quota: ${quota.name}, requested: ${list((resource) => formatAmount(requested.get(resource) ?? 0, resource))}, used: ${list((resource) => formatAmount(used.get(resource) ?? 0, resource))}, limited: ${list((resource) => quota.hard[resource] ?? '')}`,
          ),
        };
      }
    }
    for (const quota of quotas) {
      const used = this.used.get(`${namespace}/${quota.name}`);
      for (const [name, amount] of requested) {
        if (used?.has(name) === true) {
          used.set(name, (used.get(name) ?? 0) + amount);
        }
      }
    }
    this.existing.add(identityOf(object));
    return null;
  }

  /** Whether an object of that identity exists, indexing the cluster file's objects of its kind first. */
  private isExisting(object: Record<string, unknown>): boolean {
    const kind = kindOf(object);
    const sameKind = this.unindexed.get(kind);
    if (sameKind !== undefined) {
      this.unindexed.delete(kind);
      for (const other of sameKind) {
        this.existing.add(identityOf(other));
      }
    }
    return this.existing.has(identityOf(object));
  }
}
