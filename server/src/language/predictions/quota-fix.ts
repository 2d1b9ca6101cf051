/**
 * The fix of a ResourceQuota's "must specify" refusal (a quota on cpu or memory needs every container to state
 * them): the default resources (kubeForesight.defaultResources) added to the containers. Its title says when the
 * quota, with what the namespace's other pods already use (the refusal's room, admission/rejected.ts QuotaRoom),
 * would still refuse some of the pods once they state the defaults: the quota's evaluator then refuses them for
 * exceeding it (plugin/pkg/admission/resourcequota, "exceeded quota").
 */
import type { FixData } from '../../../../protocol/finding';
import { parseQuantity } from '../../engine/model/quantity';
import type { DefaultResources, TemplateLocation } from './template-fixes';
import { defaultResourcesFix } from './template-fixes';

type Path = readonly (string | number)[];
type Json = Record<string, unknown>;

/** What the refusal says of the quota: its room per tracked resource, and how many pods the workload wants. */
export interface QuotaFixContext {
  /** The finding's data.quotaRoom: JSON of { quota, room }. */
  readonly quotaRoom: string | undefined;
  readonly desired: number;
}

/**
 * The fix, offered only when no container states any resources and the defaults name every resource the quota
 * asks for (a limit stands for the request, as the API server defaults it).
 */
export function quotaResourcesFix(
  location: TemplateLocation,
  refusedPath: Path,
  message: string,
  defaults: DefaultResources,
  context: QuotaFixContext = { quotaRoom: undefined, desired: 1 },
): FixData | undefined {
  // "must specify limits.cpu for: app; requests.memory for: app,sidecar" (resource-quota.ts mustSpecifyReason).
  const named = /failed quota: [^:]+: must specify (.+)$/.exec(message)?.[1];
  if (named === undefined || refusedPath.at(-1) !== 'containers' || refusedPath.at(-2) !== 'spec') {
    return undefined;
  }
  const resources = named.split('; ').map((part) => part.split(' for: ')[0] ?? '');
  const covered = resources.every((resource) => perContainer(resource, defaults) !== undefined);
  const spec = asObject(asObject(location.value)['spec']);
  const containers = Array.isArray(spec['containers']) ? (spec['containers'] as unknown[]) : [];
  const initContainers = Array.isArray(spec['initContainers']) ? (spec['initContainers'] as unknown[]) : [];
  const untouched = [...initContainers, ...containers].every(
    (container) => asObject(container)['resources'] === undefined,
  );
  const fix =
    covered && untouched && containers.length > 0 ? defaultResourcesFix(location, defaults) : undefined;
  if (fix === undefined) {
    return undefined;
  }
  // Every container gets the same defaults; a sidecar (an init container that keeps running) adds its own, and
  // a plain init container's never exceed the running containers' sum.
  const running =
    containers.length +
    initContainers.filter((container) => asObject(container)['restartPolicy'] === 'Always').length;
  const refused = refusedByRoom(context, defaults, running);
  return refused === undefined ? fix : { ...fix, title: `${fix.title ?? ''} ${refused}` };
}

/**
 * "(still refused for 2 of 3 pods: quota "compute" has requests.cpu 200m left)" when the room admits fewer pods
 * than desired with the defaults, or undefined (no room known, or enough).
 */
function refusedByRoom(
  context: QuotaFixContext,
  defaults: DefaultResources,
  running: number,
): string | undefined {
  const quotaRoom = parseRoom(context.quotaRoom);
  if (quotaRoom === undefined) {
    return undefined;
  }
  let fits = Number.POSITIVE_INFINITY;
  let limiting: string | undefined;
  for (const [resource, left] of Object.entries(quotaRoom.room)) {
    const isCount = resource === 'pods' || resource === 'count/pods';
    const each = isCount ? 1 : (perContainer(resource, defaults) ?? 0) * running;
    const available = isCount ? Number(left) : amountOf(left, resource);
    if (each <= 0 || !Number.isFinite(available)) {
      continue;
    }
    const pods = Math.floor(available / each);
    if (pods < fits) {
      fits = pods;
      limiting = `${resource} ${left}`;
    }
  }
  if (limiting === undefined || fits >= context.desired) {
    return undefined;
  }
  const refused = context.desired - fits;
  return `(still refused for ${refused} of ${context.desired} pod(s): quota "${quotaRoom.quota}" has ${limiting} left)`;
}

/** What one container states for a quota resource with the defaults ("requests.cpu", "cpu", "limits.memory"). */
function perContainer(resource: string, defaults: DefaultResources): number | undefined {
  const [scope, name] = resource.includes('.') ? resource.split('.', 2) : ['requests', resource];
  const text =
    scope === 'limits'
      ? defaults.limits[name ?? '']
      : (defaults.requests[name ?? ''] ?? defaults.limits[name ?? '']);
  return text === undefined ? undefined : amountOf(text, resource);
}

/** A quantity in the unit the quota counts: milli-cpu for cpu, bytes (or the value) otherwise. */
function amountOf(text: string, resource: string): number {
  const parsed = parseQuantity(text);
  if (!parsed.ok) {
    return Number.NaN;
  }
  return resource.endsWith('cpu') ? parsed.quantity.milli : parsed.quantity.value;
}

function parseRoom(text: string | undefined): { quota: string; room: Record<string, string> } | undefined {
  if (text === undefined) {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as unknown;
    const object = asObject(value);
    const room = asObject(object['room']);
    return typeof object['quota'] === 'string'
      ? {
          quota: object['quota'],
          room: Object.fromEntries(
            Object.entries(room).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
          ),
        }
      : undefined;
  } catch {
    return undefined;
  }
}

function asObject(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}
