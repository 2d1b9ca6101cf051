/**
 * LimitRanger (plugin/pkg/admission/limitranger/admission.go) for pods: the LimitRanges of the pod's namespace
 * first give every container (and init container) the defaults it lacks (`default` as limits, `defaultRequest` as
 * requests, each only for a resource the container does not set), then check each container against the
 * Container items' min, max and maxLimitRequestRatio and the sum of the containers against the Pod items', in the
 * API server's words ("maximum cpu usage per Container is 2, but limit is 4"). The LimitRange's own defaults are
 * applied as the API server stores them (SetDefaults_LimitRangeItem: default from max, defaultRequest from default,
 * then from min). The QoS class, scheduling and eviction then read the defaulted pod.
 * A PersistentVolumeClaim of the apply is checked against the PersistentVolumeClaim items' min and max storage
 * (PersistentVolumeClaimValidateLimitFunc: requests only, never defaulted) by limitRangeClaimRefusal.
 * Left out: quantities in messages are shown as written (the API server prints them canonically).
 */
import { parseQuantity } from '../../model/quantity';
import { isRecord } from '../../model/objects';
import { ADMISSION_PLUGIN } from '../names';
import type { PodAdmissionPlugin } from '../pod-admission-plugin';

type ResourceList = Readonly<Record<string, string>>;

/** One item of a LimitRange's spec.limits, defaulted as the API server stores it. */
export interface LimitRangeItem {
  readonly type: string; // 'Container', 'Pod' or 'PersistentVolumeClaim'
  readonly min: ResourceList;
  readonly max: ResourceList;
  readonly default: ResourceList;
  readonly defaultRequest: ResourceList;
  readonly maxLimitRequestRatio: ResourceList;
}

/** Reads a LimitRange object's items, with the API server's defaults (SetDefaults_LimitRangeItem). */
export function readLimitRange(object: Record<string, unknown>): LimitRangeItem[] {
  const spec = isRecord(object['spec']) ? object['spec'] : {};
  const limits = Array.isArray(spec['limits']) ? spec['limits'].filter(isRecord) : [];
  return limits.map((item) => {
    const list = (key: string): Record<string, string> => {
      const value = item[key];
      return isRecord(value)
        ? Object.fromEntries(Object.entries(value).map(([name, amount]) => [name, String(amount)]))
        : {};
    };
    const type = typeof item['type'] === 'string' ? item['type'] : '';
    const min = list('min');
    const max = list('max');
    const defaults = list('default');
    const defaultRequest = list('defaultRequest');
    if (type === 'Container') {
      for (const [name, amount] of Object.entries(max)) {
        defaults[name] ??= amount;
      }
      for (const [name, amount] of Object.entries(defaults)) {
        defaultRequest[name] ??= amount;
      }
      for (const [name, amount] of Object.entries(min)) {
        defaultRequest[name] ??= amount;
      }
    }
    return {
      type,
      min,
      max,
      default: defaults,
      defaultRequest,
      maxLimitRequestRatio: list('maxLimitRequestRatio'),
    };
  });
}

/** The LimitRanger plugin over the LimitRanges by namespace. */
export function limitRangerPlugin(
  byNamespace: ReadonlyMap<string, readonly LimitRangeItem[]>,
): PodAdmissionPlugin {
  const itemsOf = (pod: Record<string, unknown>): readonly LimitRangeItem[] => {
    const metadata = isRecord(pod['metadata']) ? pod['metadata'] : {};
    return (
      byNamespace.get(typeof metadata['namespace'] === 'string' ? metadata['namespace'] : 'default') ?? []
    );
  };
  return {
    name: ADMISSION_PLUGIN.LimitRanger,
    mutateSpec(spec, pod) {
      const items = itemsOf(pod).filter((item) => item.type === 'Container');
      if (items.length === 0) {
        return spec;
      }
      const limits: Record<string, string> = {};
      const requests: Record<string, string> = {};
      for (const item of items) {
        Object.assign(limits, item.default);
        Object.assign(requests, item.defaultRequest);
      }
      const withDefaults = (list: unknown): unknown =>
        Array.isArray(list) ? list.map((container) => defaulted(container, limits, requests)) : list;
      return {
        ...spec,
        containers: withDefaults(spec['containers']),
        ...(spec['initContainers'] === undefined
          ? {}
          : { initContainers: withDefaults(spec['initContainers']) }),
      };
    },
    validate(pod) {
      const items = itemsOf(pod);
      if (items.length === 0) {
        return null;
      }
      const spec = isRecord(pod['spec']) ? pod['spec'] : {};
      const containers = Array.isArray(spec['containers']) ? spec['containers'].filter(isRecord) : [];
      const errors: string[] = [];
      let path: (string | number)[] = ['spec', 'containers'];
      for (const item of items) {
        if (item.type === 'Container') {
          // Regular containers, then init containers (validateContainerLimits over each list).
          for (const list of ['containers', 'initContainers'] as const) {
            const entries = Array.isArray(spec[list]) ? (spec[list] as unknown[]) : [];
            entries.forEach((container, index) => {
              if (!isRecord(container)) {
                return;
              }
              const before = errors.length;
              check(item, 'Container', listOf(container, 'requests'), listOf(container, 'limits'), errors);
              if (errors.length > before && before === 0) {
                path = ['spec', list, index, 'resources'];
              }
            });
          }
        } else if (item.type === 'Pod') {
          check(item, 'Pod', sum(containers, 'requests'), sum(containers, 'limits'), errors);
        }
      }
      // utilerrors.NewAggregate: one error as it is, several in brackets.
      return errors.length === 0
        ? null
        : { reason: errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`, path };
    },
  };
}

function defaulted(container: unknown, limits: ResourceList, requests: ResourceList): unknown {
  if (!isRecord(container)) {
    return container;
  }
  const resources = isRecord(container['resources']) ? container['resources'] : {};
  const ownLimits = isRecord(resources['limits']) ? resources['limits'] : {};
  const ownRequests = isRecord(resources['requests']) ? resources['requests'] : {};
  // A container's own limit already stands for its request (the API server's defaulting runs before admission).
  return {
    ...container,
    resources: {
      ...resources,
      limits: { ...limits, ...ownLimits },
      requests: { ...requests, ...ownLimits, ...ownRequests },
    },
  };
}

function listOf(container: Record<string, unknown>, key: 'requests' | 'limits'): ResourceList {
  const resources = isRecord(container['resources']) ? container['resources'] : {};
  const list = resources[key];
  return isRecord(list)
    ? Object.fromEntries(Object.entries(list).map(([name, value]) => [name, String(value)]))
    : {};
}

/**
 * The containers' total of a resource, only when every container sets it (limitranger's sum), written as the
 * API server writes the quantity it builds (cpu as a milli quantity, the rest as an integer, both DecimalSI).
 */
function sum(containers: readonly Record<string, unknown>[], key: 'requests' | 'limits'): ResourceList {
  const lists = containers.map((container) => listOf(container, key));
  const names = new Set(lists.flatMap((list) => Object.keys(list)));
  const total: Record<string, string> = {};
  for (const name of names) {
    if (lists.every((list) => list[name] !== undefined)) {
      const values = lists.map((list) => amount(list[name] ?? '0', name));
      const sumOf = values.reduce((acc, value) => acc + value, 0);
      total[name] = name === 'cpu' ? decimalSi(sumOf, -3) : decimalSi(sumOf, 0);
    }
  }
  return total;
}

/** A DecimalSI quantity's canonical text: value × 10^exponent with the largest exact suffix (1000m → "1"). */
function decimalSi(value: number, exponent: number): string {
  let mantissa = value;
  let power = exponent;
  while (mantissa !== 0 && mantissa % 1000 === 0 && power < 18) {
    mantissa /= 1000;
    power += 3;
  }
  const suffixes: Record<number, string> = {
    [-3]: 'm',
    0: '',
    3: 'k',
    6: 'M',
    9: 'G',
    12: 'T',
    15: 'P',
    18: 'E',
  };
  return `${mantissa}${suffixes[power] ?? ''}`;
}

/** min, max and maxLimitRequestRatio of one item over one set of requests and limits, in the plugin's words. */
function check(
  item: LimitRangeItem,
  kind: string,
  requests: ResourceList,
  limits: ResourceList,
  errors: string[],
): void {
  for (const [name, enforced] of Object.entries(item.min)) {
    const request = requests[name];
    const limit = limits[name];
    if (request === undefined) {
      errors.push(`minimum ${name} usage per ${kind} is ${enforced}.  No request is specified`);
    } else if (milli(request) < milli(enforced)) {
      errors.push(`minimum ${name} usage per ${kind} is ${enforced}, but request is ${request}`);
    } else if (limit !== undefined && milli(limit) < milli(enforced)) {
      errors.push(`minimum ${name} usage per ${kind} is ${enforced}, but limit is ${limit}`);
    }
  }
  for (const [name, enforced] of Object.entries(item.max)) {
    const request = requests[name];
    const limit = limits[name];
    if (limit === undefined) {
      errors.push(`maximum ${name} usage per ${kind} is ${enforced}.  No limit is specified`);
    } else if (milli(limit) > milli(enforced)) {
      errors.push(`maximum ${name} usage per ${kind} is ${enforced}, but limit is ${limit}`);
    } else if (request !== undefined && milli(request) > milli(enforced)) {
      errors.push(`maximum ${name} usage per ${kind} is ${enforced}, but request is ${request}`);
    }
  }
  for (const [name, enforced] of Object.entries(item.maxLimitRequestRatio)) {
    const request = requests[name] === undefined ? 0 : milli(requests[name] ?? '0');
    const limit = limits[name] === undefined ? 0 : milli(limits[name] ?? '0');
    if (request === 0) {
      errors.push(
        `${name} max limit to request ratio per ${kind} is ${enforced}, but no request is specified or request is 0`,
      );
    } else if (limit === 0) {
      errors.push(
        `${name} max limit to request ratio per ${kind} is ${enforced}, but no limit is specified or limit is 0`,
      );
    } else if (limit / request > milli(enforced) / 1000) {
      errors.push(
        `${name} max limit to request ratio per ${kind} is ${enforced}, but provided ratio is ${(limit / request).toFixed(6)}`,
      );
    }
  }
}

/** A quantity in thousandths (MilliValue), the precision the plugin compares at. */
function milli(text: string): number {
  const parsed = parseQuantity(text);
  return parsed.ok ? parsed.quantity.milli : 0;
}

function amount(text: string, resource: string): number {
  const parsed = parseQuantity(text);
  if (!parsed.ok) {
    return 0;
  }
  return resource === 'cpu' ? parsed.quantity.milli : parsed.quantity.value;
}

/**
 * The LimitRanger's refusal of a claim the apply creates, or null: each PersistentVolumeClaim item's min against
 * the claim's requests (its limits are not user input for this check) and max against its requests, in the
 * plugin's words ("maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 100Gi").
 */
export function limitRangeClaimRefusal(
  items: readonly LimitRangeItem[],
  claim: Record<string, unknown>,
): string | null {
  const spec = isRecord(claim['spec']) ? claim['spec'] : {};
  const requests = listOf(spec, 'requests');
  const errors: string[] = [];
  for (const item of items.filter((entry) => entry.type === 'PersistentVolumeClaim')) {
    for (const [name, enforced] of Object.entries(item.min)) {
      const request = requests[name];
      if (request === undefined) {
        errors.push(
          `minimum ${name} usage per PersistentVolumeClaim is ${enforced}.  No request is specified`,
        );
      } else if (amount(request, name) < amount(enforced, name)) {
        errors.push(
          `minimum ${name} usage per PersistentVolumeClaim is ${enforced}, but request is ${request}`,
        );
      }
    }
    for (const [name, enforced] of Object.entries(item.max)) {
      const request = requests[name];
      if (request === undefined) {
        errors.push(
          `maximum ${name} usage per PersistentVolumeClaim is ${enforced}.  No request is specified`,
        );
      } else if (amount(request, name) > amount(enforced, name)) {
        errors.push(
          `maximum ${name} usage per PersistentVolumeClaim is ${enforced}, but request is ${request}`,
        );
      }
    }
  }
  return errors.length === 0 ? null : errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`;
}
