/**
 * The value the API server gives a field that `kubectl apply` removes (the last applied configuration set it, the
 * manifest no longer does): its defaulting runs on the merged object, so `kubectl diff` shows the field going
 * from its old value to the default, or no change when the old value was the default. The defaults are those of
 * kube-apiserver v1.35 for the fields a manifest most often drops:
 *
 * - apps/v1 (pkg/apis/apps/v1/defaults.go): SetDefaults_Deployment (replicas 1, strategy RollingUpdate with
 *   maxUnavailable and maxSurge 25%, revisionHistoryLimit 10, progressDeadlineSeconds 600),
 *   SetDefaults_StatefulSet (replicas 1, podManagementPolicy OrderedReady, updateStrategy RollingUpdate with
 *   partition 0, revisionHistoryLimit 10, persistentVolumeClaimRetentionPolicy Retain/Retain: StatefulSetAutoDeletePVC
 *   is GA), SetDefaults_DaemonSet (updateStrategy RollingUpdate, maxUnavailable 1, maxSurge 0, revisionHistoryLimit
 *   10), SetDefaults_ReplicaSet (replicas 1);
 * - core/v1 (pkg/apis/core/v1/defaults.go) SetDefaults_PodSpec, for a Pod and every pod template: dnsPolicy
 *   ClusterFirst, restartPolicy Always, securityContext {}, terminationGracePeriodSeconds 30, schedulerName
 *   default-scheduler.
 *
 * Any other removed field gets no default here (the change says "removed").
 */
import type { JsonObject } from '../model/json';
import { isJsonObject } from '../model/json';

type Path = readonly (string | number)[];

const POD_SPEC_DEFAULTS: Readonly<Record<string, unknown>> = {
  dnsPolicy: 'ClusterFirst',
  restartPolicy: 'Always',
  securityContext: {},
  terminationGracePeriodSeconds: 30,
  schedulerName: 'default-scheduler',
};

const DEPLOYMENT_ROLLING = { maxUnavailable: '25%', maxSurge: '25%' };
const DAEMONSET_ROLLING = { maxUnavailable: 1, maxSurge: 0 };

/** Where each kind's pod spec is. */
const POD_SPEC_PATHS: Readonly<Record<string, Path>> = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  ReplicationController: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

/**
 * The default the API server gives the field at `path` of `manifest` (the object as applied) when the apply
 * removes it, or undefined when it gives none (or none is known here).
 */
export function removedFieldDefault(manifest: JsonObject, path: Path): unknown {
  const kind = typeof manifest['kind'] === 'string' ? manifest['kind'] : '';
  const podSpec = POD_SPEC_PATHS[kind];
  if (podSpec !== undefined && path.length === podSpec.length + 1 && startsWith(path, podSpec)) {
    const field = path[podSpec.length];
    return typeof field === 'string' ? POD_SPEC_DEFAULTS[field] : undefined;
  }
  const apps = manifest['apiVersion'] === 'apps/v1';
  if (!apps || path[0] !== 'spec' || path.length < 2) {
    return undefined;
  }
  const spec = isJsonObject(manifest['spec']) ? manifest['spec'] : {};
  const field = path.slice(1).join('.');
  switch (kind) {
    case 'Deployment':
      return deploymentDefault(field, spec);
    case 'StatefulSet':
      return statefulSetDefault(field, spec);
    case 'DaemonSet':
      return daemonSetDefault(field, spec);
    case 'ReplicaSet':
      return field === 'replicas' ? 1 : undefined;
    default:
      return undefined;
  }
}

function deploymentDefault(field: string, spec: JsonObject): unknown {
  const type = strategyType(spec['strategy']);
  switch (field) {
    case 'replicas':
      return 1;
    case 'revisionHistoryLimit':
      return 10;
    case 'progressDeadlineSeconds':
      return 600;
    case 'strategy':
      return { type: 'RollingUpdate', rollingUpdate: { ...DEPLOYMENT_ROLLING } };
    case 'strategy.type':
      return 'RollingUpdate';
    case 'strategy.rollingUpdate':
      return type === 'RollingUpdate' ? { ...DEPLOYMENT_ROLLING } : undefined;
    default:
      return undefined;
  }
}

function statefulSetDefault(field: string, spec: JsonObject): unknown {
  switch (field) {
    case 'replicas':
      return 1;
    case 'revisionHistoryLimit':
      return 10;
    case 'podManagementPolicy':
      return 'OrderedReady';
    case 'persistentVolumeClaimRetentionPolicy':
      return { whenDeleted: 'Retain', whenScaled: 'Retain' };
    case 'updateStrategy':
      // An empty type becomes RollingUpdate with a rollingUpdate whose partition is then 0.
      return { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
    case 'updateStrategy.rollingUpdate.partition':
      return strategyType(spec['updateStrategy']) === 'RollingUpdate' ? 0 : undefined;
    default:
      return undefined;
  }
}

function daemonSetDefault(field: string, spec: JsonObject): unknown {
  const type = strategyType(spec['updateStrategy']);
  switch (field) {
    case 'revisionHistoryLimit':
      return 10;
    case 'updateStrategy':
      return { type: 'RollingUpdate', rollingUpdate: { ...DAEMONSET_ROLLING } };
    case 'updateStrategy.type':
      return 'RollingUpdate';
    case 'updateStrategy.rollingUpdate':
      return type === 'RollingUpdate' ? { ...DAEMONSET_ROLLING } : undefined;
    default:
      return undefined;
  }
}

/** The strategy's type once defaulted: RollingUpdate when the manifest writes none. */
function strategyType(strategy: unknown): string {
  const type = isJsonObject(strategy) ? strategy['type'] : undefined;
  return typeof type === 'string' && type !== '' ? type : 'RollingUpdate';
}

function startsWith(path: Path, prefix: Path): boolean {
  return prefix.every((part, index) => path[index] === part);
}
