/**
 * ResourceQuota for pods (plugin/pkg/admission/resourcequota/controller.go and pkg/quota/v1/evaluator/core/pods.go),
 * the last plugin: the quotas of the pod's namespace whose scopes match it (BestEffort, NotBestEffort, Terminating,
 * NotTerminating, PriorityClass by scopeSelector) count it. A quota on cpu or memory needs every container to say
 * it, unless the pod sets pod-level resources ("failed quota: NAME: must specify limits.cpu for: app; requests.cpu
 * for: app,sidecar"); then the pod's usage plus what the namespace's
 * pods already use must stay within `hard` ("exceeded quota: NAME, requested: pods=1, used: pods=2, limited:
 * pods=2"). Usage is counted from the pods the simulated cluster holds (the cluster file's and the apply's, in the
 * order they are created), not from a quota's status.used. Other kinds' objects are counted at apply (object-count-quota.ts). Left out: extended resources and
 * hugepages, CrossNamespacePodAffinity.
 */
import { isRecord } from '../../model/objects';
import type { PodSpecObject } from '../../model/objects';
import { computePodRequests } from '../../model/snapshot/pod-requests';
import { computeQosClass } from '../../model/qos';
import { parseQuantity } from '../../model/quantity';
import { ADMISSION_PLUGIN } from '../names';
import type { PodAdmissionPlugin } from '../pod-admission-plugin';

/** A ResourceQuota as the plugin reads it. */
export interface QuotaSpec {
  readonly name: string;
  readonly hard: Readonly<Record<string, string>>;
  readonly selectors: readonly { scopeName: string; operator: string; values: readonly string[] }[];
  /** status.used, as a captured quota reports it (the quota controller's count), when it has one. */
  readonly used?: Readonly<Record<string, string>>;
}

/** The resources a pod's usage has (pods.go podComputeUsageHelper and PodUsageFunc). */
const POD_RESOURCES = new Set([
  'pods',
  'count/pods',
  'cpu',
  'memory',
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'limits.memory',
]);
/** The resources every container must state when a quota tracks them (pods.go validationSet). */
const VALIDATION_SET = new Set([
  'cpu',
  'memory',
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'limits.memory',
]);

/** Reads a ResourceQuota object; `scopes` become Exists selectors, as getScopeSelectorsFromQuota does. */
export function readResourceQuota(object: Record<string, unknown>): QuotaSpec {
  const metadata = isRecord(object['metadata']) ? object['metadata'] : {};
  const spec = isRecord(object['spec']) ? object['spec'] : {};
  const hard = isRecord(spec['hard'])
    ? Object.fromEntries(Object.entries(spec['hard']).map(([name, value]) => [name, String(value)]))
    : {};
  const scopes = Array.isArray(spec['scopes'])
    ? spec['scopes'].filter((scope) => typeof scope === 'string')
    : [];
  const status = isRecord(object['status']) ? object['status'] : {};
  const used = isRecord(status['used'])
    ? Object.fromEntries(Object.entries(status['used']).map(([name, value]) => [name, String(value)]))
    : undefined;
  const selector = isRecord(spec['scopeSelector']) ? spec['scopeSelector'] : {};
  const expressions = Array.isArray(selector['matchExpressions'])
    ? selector['matchExpressions'].filter(isRecord)
    : [];
  return {
    name: typeof metadata['name'] === 'string' ? metadata['name'] : '',
    hard,
    ...(used === undefined ? {} : { used }),
    selectors: [
      ...scopes.map((scopeName: string) => ({ scopeName, operator: 'Exists', values: [] })),
      ...expressions.map((expression) => ({
        scopeName: typeof expression['scopeName'] === 'string' ? expression['scopeName'] : '',
        operator: typeof expression['operator'] === 'string' ? expression['operator'] : '',
        values: Array.isArray(expression['values']) ? expression['values'].map(String) : [],
      })),
    ],
  };
}

/** The plugin over the quotas by namespace and the pods each namespace already holds. */
export function resourceQuotaPlugin(
  quotas: ReadonlyMap<string, readonly QuotaSpec[]>,
  podsIn: (namespace: string) => readonly Record<string, unknown>[],
  podLevelResources: boolean,
): PodAdmissionPlugin {
  return {
    name: ADMISSION_PLUGIN.ResourceQuota,
    validate(pod) {
      const metadata = isRecord(pod['metadata']) ? pod['metadata'] : {};
      const namespace = typeof metadata['namespace'] === 'string' ? metadata['namespace'] : 'default';
      for (const quota of quotas.get(namespace) ?? []) {
        if (!matchesScopes(quota, pod, podLevelResources)) {
          continue;
        }
        const tracked = Object.keys(quota.hard).filter((name) => POD_RESOURCES.has(name));
        if (tracked.length === 0) {
          continue;
        }
        const missing = podLevelResources && hasPodLevelResources(pod) ? [] : missingResources(pod, tracked);
        const used = new Map<string, number>();
        for (const other of podsIn(namespace)) {
          if (matchesScopes(quota, other, podLevelResources)) {
            for (const [name, amount] of podUsage(other, podLevelResources)) {
              used.set(name, (used.get(name) ?? 0) + amount);
            }
          }
        }
        if (missing.length > 0) {
          const room = tracked.map((name) => {
            const left = Math.max(0, amountOf(quota.hard[name] ?? '0', name) - (used.get(name) ?? 0));
            return [name, format(left, name)] as const;
          });
          return {
            reason: mustSpecifyReason(quota.name, missing),
            path: ['spec', 'containers'],
            quotaRoom: { quota: quota.name, room: Object.fromEntries(room) },
          };
        }
        const requested = podUsage(pod, podLevelResources);
        const exceeded = tracked
          .filter(
            (name) =>
              (used.get(name) ?? 0) + (requested.get(name) ?? 0) > amountOf(quota.hard[name] ?? '0', name),
          )
          .sort();
        if (exceeded.length > 0) {
          const list = (value: (name: string) => string): string =>
            exceeded.map((name) => `${name}=${value(name)}`).join(',');
          return {
            reason: `exceeded quota: ${quota.name}, requested: ${list((name) => format(requested.get(name) ?? 0, name))}, used: ${list((name) => format(used.get(name) ?? 0, name))}, limited: ${list((name) => quota.hard[name] ?? '')}`,
            path: ['spec'],
          };
        }
      }
      return null;
    },
  };
}

/** Whether every scope selector of a quota matches the pod (podMatchesScopeFunc). */
function matchesScopes(quota: QuotaSpec, pod: Record<string, unknown>, podLevelResources: boolean): boolean {
  const spec = (isRecord(pod['spec']) ? pod['spec'] : {}) as PodSpecObject & Record<string, unknown>;
  return quota.selectors.every((selector) => {
    switch (selector.scopeName) {
      case 'Terminating':
        return typeof spec['activeDeadlineSeconds'] === 'number' && spec['activeDeadlineSeconds'] >= 0;
      case 'NotTerminating':
        return !(typeof spec['activeDeadlineSeconds'] === 'number' && spec['activeDeadlineSeconds'] >= 0);
      case 'BestEffort':
        return computeQosClass(spec, { podLevelResources }).qosClass === 'BestEffort';
      case 'NotBestEffort':
        return computeQosClass(spec, { podLevelResources }).qosClass !== 'BestEffort';
      case 'PriorityClass': {
        const className = typeof spec['priorityClassName'] === 'string' ? spec['priorityClassName'] : '';
        switch (selector.operator) {
          case 'In':
            return selector.values.includes(className);
          case 'NotIn':
            return !selector.values.includes(className);
          case 'Exists':
            return className !== '';
          case 'DoesNotExist':
            return className === '';
          default:
            return false;
        }
      }
      default:
        return false;
    }
  });
}

/** A tracked compute resource some containers do not state, with their names (sorted). */
export interface MissingResource {
  readonly resource: string;
  readonly containers: readonly string[];
}

/**
 * podEvaluator.Constraints' refusal: each missing resource with the containers that lack it, resources sorted and
 * joined by "; " ("must specify limits.cpu for: app,sidecar; requests.memory for: app"). The per-container list
 * dates from kubernetes PR #107210 (v1.24); before it, the resources alone were joined by ",".
 */
export function mustSpecifyReason(quotaName: string, missing: readonly MissingResource[]): string {
  const parts = missing.map((entry) => `${entry.resource} for: ${entry.containers.join(',')}`);
  return `failed quota: ${quotaName}: must specify ${parts.join('; ')}`;
}

/**
 * Whether the pod sets pod-level resources: then Constraints skips the per-container check (PodLevelResources,
 * beta and on by default since v1.34).
 */
function hasPodLevelResources(pod: Record<string, unknown>): boolean {
  const spec = isRecord(pod['spec']) ? pod['spec'] : {};
  const resources = isRecord(spec['resources']) ? spec['resources'] : {};
  return [resources['requests'], resources['limits']].some(
    (list) => isRecord(list) && Object.keys(list).length > 0,
  );
}

/**
 * The tracked compute resources some container (or init container) does not state, each with the containers that
 * lack it (enforcePodContainerConstraints), resources and names sorted as sets.String.List sorts them.
 */
function missingResources(pod: Record<string, unknown>, tracked: readonly string[]): MissingResource[] {
  const required = tracked.filter((name) => VALIDATION_SET.has(name));
  const spec = isRecord(pod['spec']) ? pod['spec'] : {};
  const containers = [spec['containers'], spec['initContainers']].flatMap((list) =>
    Array.isArray(list) ? list.filter(isRecord) : [],
  );
  const missing = new Map<string, Set<string>>();
  for (const container of containers) {
    const resources = isRecord(container['resources']) ? container['resources'] : {};
    const requests = isRecord(resources['requests']) ? resources['requests'] : {};
    const limits = isRecord(resources['limits']) ? resources['limits'] : {};
    const has = new Set<string>();
    for (const name of ['cpu', 'memory']) {
      if (requests[name] !== undefined || limits[name] !== undefined) {
        // A limit alone stands for the request (defaulted before admission).
        has.add(name).add(`requests.${name}`);
      }
      if (limits[name] !== undefined) {
        has.add(`limits.${name}`);
      }
    }
    const containerName = typeof container['name'] === 'string' ? container['name'] : '';
    for (const name of required) {
      if (!has.has(name)) {
        const names = missing.get(name) ?? new Set<string>();
        missing.set(name, names.add(containerName));
      }
    }
  }
  return [...missing.keys()].sort(compareGoStrings).map((resource) => ({
    resource,
    containers: [...(missing.get(resource) ?? [])].sort(compareGoStrings),
  }));
}

/** Go's string order (bytes), which sets.String.List uses. */
function compareGoStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A pod's usage: one pod, its effective requests (cpu in milli) and the sum of its containers' limits. */
function podUsage(pod: Record<string, unknown>, podLevelResources: boolean): Map<string, number> {
  const spec = (isRecord(pod['spec']) ? pod['spec'] : {}) as PodSpecObject;
  const usage = new Map<string, number>([
    ['pods', 1],
    ['count/pods', 1],
  ]);
  const requests = computePodRequests(spec, { podLevelResources }, []).requests;
  for (const name of ['cpu', 'memory']) {
    const amount = requests.get(name);
    if (amount !== undefined) {
      usage.set(name, amount).set(`requests.${name}`, amount);
    }
  }
  const containers = Array.isArray(spec.containers) ? spec.containers.filter(isRecord) : [];
  for (const name of ['cpu', 'memory']) {
    let total = 0;
    let stated = false;
    for (const container of containers) {
      const resources = isRecord(container['resources']) ? container['resources'] : {};
      const limits = isRecord(resources['limits']) ? resources['limits'] : {};
      const limit = limits[name];
      if (limit !== undefined) {
        stated = true;
        total += amountOf(
          typeof limit === 'number' ? String(limit) : typeof limit === 'string' ? limit : '0',
          name,
        );
      }
    }
    if (stated) {
      usage.set(`limits.${name}`, total);
    }
  }
  return usage;
}

/** A quota quantity in the units usage is counted in: cpu in milli, the rest in whole units. */
function amountOf(text: string, resource: string): number {
  const parsed = parseQuantity(text);
  if (!parsed.ok) {
    return 0;
  }
  return resource.endsWith('cpu') ? parsed.quantity.milli : parsed.quantity.value;
}

/** Usage as the API server prints it: cpu as a milli quantity, memory in binary units when exact, counts as is. */
function format(amount: number, resource: string): string {
  if (resource.endsWith('cpu')) {
    return amount % 1000 === 0 ? String(amount / 1000) : `${amount}m`;
  }
  if (resource.endsWith('memory')) {
    for (const [suffix, size] of [
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
