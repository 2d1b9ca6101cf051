/**
 * What a plan cannot know, said in it rather than dropped: kinds whose controllers the engine does not run, kinds
 * the cluster file holds no object of (their objects may already exist), admission webhooks (never called), the
 * objects the run assumed, operators' resources, and a cluster that is a profile (nothing runs on it).
 */
import type { JsonObject } from '../model/json';
import { isJsonObject } from '../model/json';
import type { ApplyPlanInput } from './build-plan';
import type { PlanObject } from './plan-types';

/**
 * Kinds whose effect the simulation models (their controller, or how the scheduler, admission and the kubelet read
 * them). Objects of other kinds are applied as objects; what their controllers do is not predicted.
 */
const MODELLED_KINDS = new Set([
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'Pod',
  'ReplicationController',
  'PodDisruptionBudget',
  'HorizontalPodAutoscaler',
  'PersistentVolumeClaim',
  'PersistentVolume',
  'StorageClass',
  'PriorityClass',
  'Namespace',
  'LimitRange',
  'ResourceQuota',
  'ServiceAccount',
  'Service',
  'ConfigMap',
  'Secret',
  'CustomResourceDefinition',
]);

/** Finding codes that say the run assumed something or left a controller out. */
const SCOPE_CODES = new Set([
  'service-account-assumed',
  'storage-class-assumed',
  'claim-assumed',
  'config-object-assumed',
  'operator-pods-not-simulated',
  'plugin-not-modelled',
]);

const WEBHOOK_KINDS = new Set(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);

/** The plan's scope sentences, in a fixed order. */
export function planScope(
  input: ApplyPlanInput,
  objects: readonly PlanObject[],
  liveKinds: ReadonlySet<string>,
): string[] {
  const scope: string[] = [];
  if (input.after.cluster.kind === 'profile') {
    scope.push(
      `${input.after.cluster.source}: node shapes only, with nothing running, so every object is created`,
    );
  }
  const count = (filter: (object: PlanObject) => boolean): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const object of objects.filter(filter)) {
      counts.set(object.kind, (counts.get(object.kind) ?? 0) + 1);
    }
    return counts;
  };
  const notModelled = count((object) => !MODELLED_KINDS.has(object.kind));
  if (notModelled.size > 0) {
    scope.push(
      `not simulated: what the controllers of ${listCounts(notModelled)} do once applied ` +
        '(the objects are compared and applied; their effects are not predicted)',
    );
  }
  const notCaptured = count((object) => object.action === 'created' && !liveKinds.has(object.kind));
  if (notCaptured.size > 0 && input.after.cluster.kind !== 'profile') {
    scope.push(
      `the cluster file holds no object of these kinds: ${listCounts(notCaptured)}; ` +
        'they are planned as created, and may already exist',
    );
  }
  const webhooks = [...input.cluster, ...input.manifests].filter(
    ({ object }) => isJsonObject(object) && WEBHOOK_KINDS.has(String(object['kind'])),
  );
  if (webhooks.length === 0) {
    // A capture does not list webhook configurations (model/load/capture-resources.ts): none seen is not none.
    scope.push(
      'admission webhooks are not called, and the cluster file lists none: a webhook of the real cluster ' +
        'may change or refuse what this plan shows',
    );
  } else {
    scope.push(
      `${webhooks.length} admission webhook configuration(s) (${webhookNames(webhooks.map((entry) => entry.object))}) ` +
        'are not called: a webhook may change or refuse what this plan shows',
    );
  }
  const seen = new Set<string>();
  for (const finding of input.findings) {
    if (SCOPE_CODES.has(finding.code) && !seen.has(finding.message)) {
      seen.add(finding.message);
      scope.push(`${finding.code}: ${finding.message}`);
    }
  }
  return scope;
}

function listCounts(counts: ReadonlyMap<string, number>): string {
  return [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([kind, n]) => `${kind} (${n})`)
    .join(', ');
}

function webhookNames(objects: readonly unknown[]): string {
  return objects
    .map((object) => {
      const metadata = isJsonObject(object) ? (object['metadata'] as JsonObject | undefined) : undefined;
      return isJsonObject(metadata) && typeof metadata['name'] === 'string' ? metadata['name'] : '?';
    })
    .sort()
    .join(', ');
}
