/**
 * Reads Deployments, StatefulSets, DaemonSets and PodDisruptionBudgets into the objects the controllers work on,
 * with the API server's defaults (strategy RollingUpdate with 25% / 25%, progressDeadlineSeconds 600, OrderedReady,
 * partition 0, DaemonSet maxUnavailable 1). PodDisruptionBudgets are read by read-budget.ts. Selector and template
 * problems are reported by the workload expansion (workloads/); here only what the controllers read is checked.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/apps/v1/defaults.go
 */
import type { ObjectSource } from '../../model/source';
import type { DeploymentStrategy } from '../../controllers/rollout-arithmetic';
import type { IntOrPercent } from '../../model/int-or-percent';
import { DEFAULT_DEPLOYMENT_STRATEGY } from '../../controllers/rollout-arithmetic';
import { parseIntOrPercent } from '../../model/int-or-percent';
import type { SimDaemonSet, SimDeployment, SimStatefulSet } from '../../apiserver/workload-objects';
import { autoscalerKey, replicasUnderAutoscaler } from '../../workloads/autoscalers';
import type { AutoscalerIndex } from '../../workloads/autoscalers';
import { seededUid, templateHash } from '../../workloads/hash';
import type { JsonObject } from '../../model/json';
import { asObject, readString } from '../../model/json';
import { parseLabelSelector } from '../../workloads/label-selector';
import type { LabelSelector } from '../../workloads/label-selector';
import type { Finding } from '../../../../../protocol/finding';
import { engineFinding } from '../../model/findings';

/** progressDeadlineSeconds meaning "no deadline" (math.MaxInt32). */
const NO_DEADLINE = 2147483647;

/** Identity shared by every workload. */
interface Identity {
  readonly namespace: string;
  readonly name: string;
  readonly key: string;
  readonly uid: string;
  readonly spec: JsonObject;
  readonly selector: LabelSelector;
  readonly template: JsonObject;
}

/** Reads what every workload has; null when it is not usable (the expansion reports why). */
function readIdentity(kind: string, object: JsonObject): Identity | null {
  const metadata = asObject(object['metadata']);
  const name = readString(metadata['name']);
  const spec = asObject(object['spec']);
  const parsed = parseLabelSelector(spec['selector']);
  if (name === undefined || !parsed.ok || parsed.selector.isEmpty) {
    return null;
  }
  const namespace = readString(metadata['namespace']) ?? 'default';
  return {
    namespace,
    name,
    key: `${namespace}/${name}`,
    uid: readString(metadata['uid']) ?? seededUid(`${kind}/${namespace}/${name}`),
    spec,
    selector: parsed.selector,
    template: asObject(spec['template']),
  };
}

/** Reads replicas (default 1) moved into the bounds of an HPA. */
function readReplicas(kind: string, identity: Identity, autoscalers: AutoscalerIndex): number {
  const raw = identity.spec['replicas'];
  const replicas = typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 ? raw : 1;
  return replicasUnderAutoscaler(
    replicas,
    autoscalers.get(autoscalerKey(identity.namespace, kind, identity.name)),
  );
}

function readNumber(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** Parses an IntOrString field, reporting a bad value; `fallback` when absent. */
function readIntOrPercent(
  value: unknown,
  fallback: IntOrPercent | undefined,
  source: ObjectSource,
  path: readonly string[],
  label: string,
  findings: Finding[],
): IntOrPercent | undefined | null {
  if (value === undefined || value === null) {
    return fallback;
  }
  const parsed = parseIntOrPercent(value);
  if (!parsed.ok) {
    findings.push(
      engineFinding(
        'workload-invalid-strategy',
        source,
        path,
        `${label}: ${path.join('.')} ${parsed.message}`,
      ),
    );
    return null;
  }
  if (parsed.value.kind === 'percent' && parsed.value.value > 100) {
    const message = `${label}: ${path.join('.')} must not be greater than 100%`;
    findings.push(engineFinding('workload-invalid-strategy', source, path, message));
    return null;
  }
  return parsed.value;
}

/** A Deployment, or null (unusable, or a bad strategy reported in `findings`). */
export function readDeployment(
  object: JsonObject,
  source: ObjectSource,
  autoscalers: AutoscalerIndex,
  findings: Finding[],
): SimDeployment | null {
  const identity = readIdentity('Deployment', object);
  if (identity === null) {
    return null;
  }
  const label = `Deployment "${identity.name}"`;
  const strategyObject = asObject(identity.spec['strategy']);
  const type = strategyObject['type'] === 'Recreate' ? 'Recreate' : 'RollingUpdate';
  const rolling = asObject(strategyObject['rollingUpdate']);
  const path = ['spec', 'strategy', 'rollingUpdate'];
  const maxSurge = readIntOrPercent(
    rolling['maxSurge'],
    DEFAULT_DEPLOYMENT_STRATEGY.maxSurge,
    source,
    [...path, 'maxSurge'],
    label,
    findings,
  );
  const maxUnavailable = readIntOrPercent(
    rolling['maxUnavailable'],
    DEFAULT_DEPLOYMENT_STRATEGY.maxUnavailable,
    source,
    [...path, 'maxUnavailable'],
    label,
    findings,
  );
  if (
    maxSurge === null ||
    maxUnavailable === null ||
    maxSurge === undefined ||
    maxUnavailable === undefined
  ) {
    return null;
  }
  if (type === 'RollingUpdate' && maxSurge.value === 0 && maxUnavailable.value === 0) {
    const message = `${label}: spec.strategy.rollingUpdate.maxUnavailable may not be 0 when maxSurge is 0`;
    findings.push(engineFinding('workload-invalid-strategy', source, [...path, 'maxUnavailable'], message));
    return null;
  }
  const strategy: DeploymentStrategy = { type, maxSurge, maxUnavailable };
  const deadline = readNumber(identity.spec['progressDeadlineSeconds'], 600);
  return {
    key: identity.key,
    namespace: identity.namespace,
    name: identity.name,
    uid: identity.uid,
    source,
    selector: identity.selector,
    template: identity.template,
    templateHash: templateHash(identity.template),
    strategy,
    minReadySeconds: readNumber(identity.spec['minReadySeconds'], 0),
    progressDeadlineSeconds: deadline === NO_DEADLINE ? null : deadline,
    paused: identity.spec['paused'] === true,
    replicas: readReplicas('Deployment', identity, autoscalers),
    progress: null,
    status: {
      replicas: 0,
      updatedReplicas: 0,
      readyReplicas: 0,
      availableReplicas: 0,
      unavailableReplicas: 0,
    },
    isTracked: false,
  };
}

/** The controller-revision-hash of a StatefulSet's template: "<name>-<hash>". */
function statefulSetRevision(name: string, template: unknown): string {
  return `${name.slice(0, 223)}-${templateHash(template)}`;
}

/** A StatefulSet, or null. */
export function readStatefulSet(
  object: JsonObject,
  source: ObjectSource,
  autoscalers: AutoscalerIndex,
  findings: Finding[],
): SimStatefulSet | null {
  const identity = readIdentity('StatefulSet', object);
  if (identity === null) {
    return null;
  }
  const strategy = asObject(identity.spec['updateStrategy']);
  const rolling = asObject(strategy['rollingUpdate']);
  const label = `StatefulSet "${identity.name}"`;
  const maxUnavailable = readIntOrPercent(
    rolling['maxUnavailable'],
    undefined,
    source,
    ['spec', 'updateStrategy', 'rollingUpdate', 'maxUnavailable'],
    label,
    findings,
  );
  if (maxUnavailable === null) {
    return null;
  }
  const revision = statefulSetRevision(identity.name, identity.template);
  return {
    key: identity.key,
    namespace: identity.namespace,
    name: identity.name,
    uid: identity.uid,
    source,
    selector: identity.selector,
    object,
    currentObject: object,
    currentRevision: revision,
    updateRevision: revision,
    podManagementPolicy: identity.spec['podManagementPolicy'] === 'Parallel' ? 'Parallel' : 'OrderedReady',
    updateStrategy: strategy['type'] === 'OnDelete' ? 'OnDelete' : 'RollingUpdate',
    partition: readNumber(rolling['partition'], 0),
    maxUnavailable,
    minReadySeconds: readNumber(identity.spec['minReadySeconds'], 0),
    startOrdinal: readNumber(asObject(identity.spec['ordinals'])['start'], 0),
    replicas: readReplicas('StatefulSet', identity, autoscalers),
    isTracked: false,
  };
}

/** A DaemonSet, or null. */
export function readDaemonSet(
  object: JsonObject,
  source: ObjectSource,
  findings: Finding[],
): SimDaemonSet | null {
  const identity = readIdentity('DaemonSet', object);
  if (identity === null) {
    return null;
  }
  const strategy = asObject(identity.spec['updateStrategy']);
  const rolling = asObject(strategy['rollingUpdate']);
  const label = `DaemonSet "${identity.name}"`;
  const path = ['spec', 'updateStrategy', 'rollingUpdate'];
  const maxSurge = readIntOrPercent(
    rolling['maxSurge'],
    undefined,
    source,
    [...path, 'maxSurge'],
    label,
    findings,
  );
  const maxUnavailable = readIntOrPercent(
    rolling['maxUnavailable'],
    undefined,
    source,
    [...path, 'maxUnavailable'],
    label,
    findings,
  );
  if (maxSurge === null || maxUnavailable === null) {
    return null;
  }
  return {
    key: identity.key,
    namespace: identity.namespace,
    name: identity.name,
    uid: identity.uid,
    source,
    selector: identity.selector,
    object,
    updateRevision: templateHash(identity.template),
    updateStrategy: strategy['type'] === 'OnDelete' ? 'OnDelete' : 'RollingUpdate',
    maxSurge,
    maxUnavailable,
    minReadySeconds: readNumber(identity.spec['minReadySeconds'], 0),
    isTracked: false,
    podsCreatedOnNode: new Map(),
  };
}
