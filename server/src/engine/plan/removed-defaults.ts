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
 * - batch/v1 (pkg/apis/batch/v1/defaults.go): SetDefaults_Job (parallelism 1, completions 1 when parallelism is
 *   unset too, backoffLimit 6 or MaxInt32 with backoffLimitPerIndex, completionMode NonIndexed, suspend false,
 *   podReplacementPolicy TerminatingOrFailed or Failed with a podFailurePolicy: JobPodReplacementPolicy is GA,
 *   manualSelector false), SetDefaults_CronJob (concurrencyPolicy Allow, suspend false, history limits 3 and 1);
 * - core/v1 (pkg/apis/core/v1/defaults.go): SetDefaults_Service (sessionAffinity None, type ClusterIP, ports'
 *   protocol TCP and targetPort the port, externalTrafficPolicy Cluster when externally accessible,
 *   internalTrafficPolicy Cluster unless ExternalName, allocateLoadBalancerNodePorts true for a LoadBalancer),
 *   SetDefaults_Secret (type Opaque), and for a Pod and every pod template the pod spec's, containers' and
 *   probes' defaults (pod-defaults.ts).
 *
 * Any other removed field gets no default here (the change says "removed").
 */
import type { JsonObject } from '../model/json';
import { isJsonObject } from '../model/json';
import { podSpecFieldDefault } from './pod-defaults';

type Path = readonly (string | number)[];

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
  const podSpecPath = POD_SPEC_PATHS[kind];
  if (podSpecPath !== undefined && path.length > podSpecPath.length && startsWith(path, podSpecPath)) {
    const podSpec = valueAt(manifest, podSpecPath);
    return isJsonObject(podSpec) ? podSpecFieldDefault(podSpec, path.slice(podSpecPath.length)) : undefined;
  }
  const spec = isJsonObject(manifest['spec']) ? manifest['spec'] : {};
  const core = manifest['apiVersion'] === 'v1';
  if (core && kind === 'Secret') {
    return path.length === 1 && path[0] === 'type' ? 'Opaque' : undefined;
  }
  if (path[0] !== 'spec' || path.length < 2) {
    return undefined;
  }
  if (core && kind === 'Service') {
    return serviceDefault(path.slice(1), spec);
  }
  const field = path.slice(1).join('.');
  if (manifest['apiVersion'] === 'batch/v1') {
    return kind === 'Job'
      ? jobDefault(field, spec)
      : kind === 'CronJob'
        ? CRONJOB_DEFAULTS[field]
        : undefined;
  }
  if (manifest['apiVersion'] !== 'apps/v1') {
    return undefined;
  }
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

const CRONJOB_DEFAULTS: Readonly<Record<string, unknown>> = {
  concurrencyPolicy: 'Allow',
  suspend: false,
  successfulJobsHistoryLimit: 3,
  failedJobsHistoryLimit: 1,
};

/** SetDefaults_Job on the merged spec. */
function jobDefault(field: string, spec: JsonObject): unknown {
  switch (field) {
    case 'parallelism':
      return 1;
    case 'completions':
      // Only when parallelism is unset too: a parallel Job without completions runs until one pod succeeds.
      return spec['parallelism'] === undefined ? 1 : undefined;
    case 'backoffLimit':
      return spec['backoffLimitPerIndex'] === undefined ? 6 : 2147483647;
    case 'completionMode':
      return 'NonIndexed';
    case 'suspend':
    case 'manualSelector':
      return false;
    case 'podReplacementPolicy':
      return spec['podFailurePolicy'] === undefined ? 'TerminatingOrFailed' : 'Failed';
    default:
      return undefined;
  }
}

/** SetDefaults_Service on the merged spec (`rest` is the path below spec). */
function serviceDefault(rest: Path, spec: JsonObject): unknown {
  const type = typeof spec['type'] === 'string' && spec['type'] !== '' ? spec['type'] : 'ClusterIP';
  const [field, index, portField] = rest;
  if (rest.length === 3 && field === 'ports' && typeof index === 'number') {
    const ports = spec['ports'];
    const port = Array.isArray(ports) ? (ports as unknown[])[index] : undefined;
    if (portField === 'protocol') {
      return 'TCP';
    }
    return portField === 'targetPort' && isJsonObject(port) ? port['port'] : undefined;
  }
  if (rest.length !== 1) {
    return undefined;
  }
  // service.ExternallyAccessible: a NodePort, a LoadBalancer, or a ClusterIP with external IPs.
  const external =
    type === 'NodePort' ||
    type === 'LoadBalancer' ||
    (type === 'ClusterIP' && Array.isArray(spec['externalIPs']) && spec['externalIPs'].length > 0);
  switch (field) {
    case 'sessionAffinity':
      return 'None';
    case 'type':
      return 'ClusterIP';
    case 'externalTrafficPolicy':
      return external ? 'Cluster' : undefined;
    case 'internalTrafficPolicy':
      return type === 'ExternalName' ? undefined : 'Cluster';
    case 'allocateLoadBalancerNodePorts':
      return type === 'LoadBalancer' ? true : undefined;
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

function valueAt(object: JsonObject, path: Path): unknown {
  let value: unknown = object;
  for (const part of path) {
    value = isJsonObject(value) && typeof part === 'string' ? value[part] : undefined;
  }
  return value;
}

function startsWith(path: Path, prefix: Path): boolean {
  return prefix.every((part, index) => path[index] === part);
}
