/**
 * `kubectl apply` of the manifests at time 0, onto the initial state: a workload the cluster already runs is
 * updated (a changed pod template starts a rollout from the running pods; a changed replica count is a scaling
 * event), a new one starts from nothing; PodDisruptionBudgets are created or replaced; Jobs and CronJobs become the
 * Job and CronJob controllers' objects (a running Job keeps its status: its pod template cannot change). Bare Pods
 * and ReplicationControllers create their pods once (their controller is not simulated). A workload of the
 * cluster file missing from the manifests keeps running: deletions are not inferred.
 */
import type { SourcedObject } from '../model/load/cluster-load';
import type { ClusterState } from '../apiserver/cluster-state';
import type { PodFactory } from '../apiserver/pod-factory';
import type { SimPod } from '../apiserver/sim-pod';
import type { SimReplicaSet } from '../apiserver/workload-objects';
import { expandWorkloads } from '../workloads';
import type { AutoscalerIndex } from '../workloads/autoscalers';
import { seededUid, templateHash } from '../workloads/hash';
import type { JsonObject } from '../model/json';
import { asObject, isJsonObject, readString } from '../model/json';
import { readDisruptionBudget } from './state/read-budget';
import { applyBatchObject } from './state/read-jobs';
import { readDaemonSet, readDeployment, readStatefulSet } from './state/read-workloads';
import type { ControllerRevision } from './state/applied-template';
import { equalRevision, isUnchangedByApply, lastAppliedTemplate, templateOf } from './state/applied-template';
import { withoutHashLabel } from './state/initial-replica-sets';
import type { Finding } from '../../../../protocol/finding';
import { appendAll } from '../../../../protocol/collections';

/** The kinds whose pods are created once, without a simulated controller. */
const STATIC_POD_OWNERS = new Set(['ReplicationController']);

/** Kinds whose controller the simulation runs: expanded at 0 replicas, only to validate them. */
const CONTROLLED_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet']);

function withoutReplicas(entry: SourcedObject): SourcedObject {
  const { object } = entry;
  if (isJsonObject(object) && (object['kind'] === 'Job' || object['kind'] === 'CronJob')) {
    return withoutJobPods(entry, object);
  }
  if (!isJsonObject(object) || !CONTROLLED_KINDS.has(String(object['kind']))) {
    return entry;
  }
  // An invalid count (replicas: "3", -1) is read as written, so that its finding is made and nothing is applied.
  const replicas = asObject(object['spec'])['replicas'];
  if (
    replicas !== undefined &&
    !(typeof replicas === 'number' && Number.isInteger(replicas) && replicas >= 0)
  ) {
    return entry;
  }
  return { ...entry, object: { ...object, spec: { ...asObject(object['spec']), replicas: 0 } } };
}

/** A Job or CronJob expanded at parallelism 0, only to validate it (a bad parallelism is kept for its finding). */
function withoutJobPods(entry: SourcedObject, object: JsonObject): SourcedObject {
  const isCronJob = object['kind'] === 'CronJob';
  const spec = asObject(object['spec']);
  const jobTemplate = asObject(spec['jobTemplate']);
  const jobSpec = isCronJob ? asObject(jobTemplate['spec']) : spec;
  const parallelism = jobSpec['parallelism'];
  if (
    parallelism !== undefined &&
    !(typeof parallelism === 'number' && Number.isInteger(parallelism) && parallelism >= 0)
  ) {
    return entry;
  }
  const quiet = { ...jobSpec, parallelism: 0 };
  return {
    ...entry,
    object: {
      ...object,
      spec: isCronJob ? { ...spec, jobTemplate: { ...jobTemplate, spec: quiet } } : quiet,
    },
  };
}

/** The cluster file's workload objects by "Kind/namespace/name", and its ControllerRevisions. */
export interface LiveObjects {
  readonly objects: ReadonlyMap<string, JsonObject>;
  readonly revisions: readonly ControllerRevision[];
}

const NO_LIVE_OBJECTS: LiveObjects = { objects: new Map(), revisions: [] };

/** The object with another pod template. */
function withTemplate(object: JsonObject, template: JsonObject): JsonObject {
  return { ...object, spec: { ...asObject(object['spec']), template } };
}

/**
 * The revision a StatefulSet or DaemonSet the cluster runs gets from the apply: the live one when the apply
 * leaves its template as it is (the live, defaulted template is kept), else the newest ControllerRevision whose
 * template equals the applied one (its `name`, or its `hash` as DaemonSet pods carry it), else null (a new
 * revision, from the manifest).
 */
function appliedRevision(
  kind: 'StatefulSet' | 'DaemonSet',
  applied: { readonly key: string; readonly namespace: string; readonly name: string },
  object: JsonObject,
  running: JsonObject,
  runningRevision: string,
  live: LiveObjects,
  label: 'name' | 'hash',
): { object: JsonObject; name: string } | null {
  const manifestTemplate = templateOf(object);
  const liveObject = live.objects.get(`${kind}/${applied.key}`);
  const lastApplied = liveObject === undefined ? undefined : lastAppliedTemplate(liveObject);
  if (isUnchangedByApply(templateOf(running), manifestTemplate, lastApplied)) {
    return { object: withTemplate(object, templateOf(running)), name: runningRevision };
  }
  const revision = equalRevision(
    live.revisions,
    kind,
    applied.namespace,
    applied.name,
    manifestTemplate,
    lastApplied,
  );
  return revision === undefined
    ? null
    : { object: withTemplate(object, revision.template), name: revision[label] };
}

/** What applying the manifests needs. */
interface ApplyInput {
  readonly state: ClusterState;
  readonly factory: PodFactory;
  readonly manifests: readonly SourcedObject[];
  readonly autoscalers: AutoscalerIndex;
  readonly nodes: readonly unknown[];
  readonly findings: Finding[];
  /** Receives what the workloads' validation finds (the API server's refusals, empty results explained). */
  readonly workloadFindings: Finding[];
  /** The running workloads as the cluster file has them (to tell what the apply changes). */
  readonly live?: LiveObjects;
  /** The epoch second of time 0 (timing applyTime): a new CronJob is created then. */
  readonly applyEpoch?: number;
}

/** Applies the manifests; returns the pods to create at time 0 (bare pods, ReplicationControllers' pods). */
export function applyManifests(input: ApplyInput): SimPod[] {
  const { state, manifests, autoscalers, findings } = input;
  const live = input.live ?? NO_LIVE_OBJECTS;
  // Validation does not depend on the replicas: expand controller-run workloads at 0 replicas (no pod copies),
  // and only the kinds whose pods are created once in full.
  const expansion = expandWorkloads(manifests.map(withoutReplicas), { nodes: input.nodes });
  appendAll(input.workloadFindings, expansion.findings);
  const rejected = new Set(
    expansion.findings
      .filter((finding) => finding.severity === 'error')
      .map(
        (finding) =>
          `${finding.object?.file}#${finding.object?.documentIndex}#${finding.object?.path.join('.')}`,
      ),
  );
  const isRejected = (source: SourcedObject['source']): boolean =>
    rejected.has(`${source.file}#${source.documentIndex}#${source.path.join('.')}`);
  for (const { object, source } of manifests) {
    if (!isJsonObject(object) || isRejected(source)) {
      continue;
    }
    switch (object['kind']) {
      case 'Deployment':
        applyDeployment(state, object, source, autoscalers, findings, live);
        break;
      case 'StatefulSet':
        applyStatefulSet(state, object, source, autoscalers, findings, live);
        break;
      case 'DaemonSet':
        applyDaemonSet(state, object, source, findings, live);
        break;
      case 'ReplicaSet':
        applyReplicaSet(state, object, source, autoscalers);
        break;
      case 'Job':
      case 'CronJob':
        applyBatchObject(state, object, source, input.applyEpoch ?? 0);
        break;
      case 'PodDisruptionBudget': {
        const budget = readDisruptionBudget(object, source, findings);
        if (budget !== null) {
          state.disruptionBudgets.set(budget.key, budget);
        }
        break;
      }
      default:
        break;
    }
  }
  const pods: SimPod[] = [];
  for (const expanded of expansion.pods) {
    if (expanded.owner !== null && !STATIC_POD_OWNERS.has(expanded.owner.kind)) {
      continue;
    }
    const metadata = asObject(expanded.pod['metadata']);
    const pod = input.factory.build(expanded.pod, {
      source: expanded.source,
      workload: expanded.owner === null ? null : { kind: expanded.owner.kind, name: expanded.owner.name },
      revision: null,
    });
    if (pod !== null && !state.pods.has(pod.key)) {
      input.factory.names.reserve(readString(metadata['namespace']) ?? 'default', pod.name);
      pods.push(pod);
    }
  }
  return pods;
}

function applyDeployment(
  state: ClusterState,
  object: JsonObject,
  source: SourcedObject['source'],
  autoscalers: AutoscalerIndex,
  findings: Finding[],
  live: LiveObjects,
): void {
  const applied = readDeployment(object, source, autoscalers, findings);
  if (applied === null) {
    return;
  }
  const running = state.deployments.get(applied.key);
  let deployment = applied;
  if (running !== undefined) {
    // What the apply leaves of the template: the live one when nothing changes (no new ReplicaSet), or the
    // template of a ReplicaSet the Deployment already has when it returns to it (a rollback keeps its hash).
    const manifestTemplate = templateOf(object);
    const liveObject = live.objects.get(`Deployment/${applied.key}`);
    const lastApplied = liveObject === undefined ? undefined : lastAppliedTemplate(liveObject);
    if (isUnchangedByApply(running.template, manifestTemplate, lastApplied)) {
      deployment = { ...applied, template: running.template, templateHash: running.templateHash };
    } else {
      const previous = [...state.replicaSets.values()]
        .filter((replicaSet) => replicaSet.deploymentKey === applied.key)
        .find((replicaSet) =>
          isUnchangedByApply(withoutHashLabel(replicaSet.template), manifestTemplate, lastApplied),
        );
      if (previous !== undefined) {
        deployment = {
          ...applied,
          template: withoutHashLabel(previous.template),
          templateHash: previous.templateHash,
        };
      }
    }
  }
  if (running !== undefined) {
    deployment.status = running.status;
    deployment.progress = running.progress;
    deployment.isTracked =
      running.templateHash !== deployment.templateHash || running.replicas !== deployment.replicas;
  } else {
    deployment.isTracked = true;
  }
  state.deployments.set(deployment.key, deployment);
}

function applyStatefulSet(
  state: ClusterState,
  object: JsonObject,
  source: SourcedObject['source'],
  autoscalers: AutoscalerIndex,
  findings: Finding[],
  live: LiveObjects,
): void {
  const applied = readStatefulSet(object, source, autoscalers, findings);
  if (applied === null) {
    return;
  }
  const running = state.statefulSets.get(applied.key);
  // getStatefulSetRevisions: an unchanged template keeps the live revision, an earlier one's is reused.
  const revision =
    running === undefined
      ? null
      : appliedRevision('StatefulSet', applied, object, running.object, running.updateRevision, live, 'name');
  const set =
    revision === null ? applied : { ...applied, object: revision.object, updateRevision: revision.name };
  if (running !== undefined) {
    set.currentObject = running.currentObject;
    set.currentRevision = running.currentRevision;
    set.isTracked = running.updateRevision !== set.updateRevision || running.replicas !== set.replicas;
  } else {
    set.isTracked = true;
  }
  state.statefulSets.set(set.key, set);
}

function applyDaemonSet(
  state: ClusterState,
  object: JsonObject,
  source: SourcedObject['source'],
  findings: Finding[],
  live: LiveObjects,
): void {
  const applied = readDaemonSet(object, source, findings);
  if (applied === null) {
    return;
  }
  const running = state.daemonSets.get(applied.key);
  // constructHistory: the revision whose template equals the applied one, else a new one.
  const revision =
    running === undefined
      ? null
      : appliedRevision('DaemonSet', applied, object, running.object, running.updateRevision, live, 'hash');
  const set =
    revision === null ? applied : { ...applied, object: revision.object, updateRevision: revision.name };
  set.isTracked = running === undefined || running.updateRevision !== set.updateRevision;
  for (const [node, count] of running?.podsCreatedOnNode ?? []) {
    set.podsCreatedOnNode.set(node, count);
  }
  state.daemonSets.set(set.key, set);
}

/** A ReplicaSet written by a person (not a Deployment's). */
function applyReplicaSet(
  state: ClusterState,
  object: JsonObject,
  source: SourcedObject['source'],
  autoscalers: AutoscalerIndex,
): void {
  const metadata = asObject(object['metadata']);
  const name = readString(metadata['name']);
  if (name === undefined) {
    return;
  }
  const namespace = readString(metadata['namespace']) ?? 'default';
  const spec = asObject(object['spec']);
  const template = asObject(spec['template']);
  const raw = typeof spec['replicas'] === 'number' ? spec['replicas'] : 1;
  const bounds = autoscalers.get(`${namespace}/ReplicaSet/${name}`);
  const replicas =
    bounds === undefined ? raw : Math.min(Math.max(raw, bounds.minReplicas), bounds.maxReplicas);
  const existing = state.replicaSets.get(`${namespace}/${name}`);
  const replicaSet: SimReplicaSet = {
    key: `${namespace}/${name}`,
    namespace,
    name,
    uid: readString(metadata['uid']) ?? seededUid(`ReplicaSet/${namespace}/${name}`),
    deploymentKey: null,
    template,
    templateHash: templateHash(template),
    source: { ...source, path: [...source.path, 'spec', 'template'] },
    createdSeq: existing?.createdSeq ?? state.nextSeq(),
    minReadySeconds: typeof spec['minReadySeconds'] === 'number' ? spec['minReadySeconds'] : 0,
    replicas,
    desiredReplicas: null,
    maxReplicas: null,
    revision: 0,
    status: existing?.status ?? { replicas: 0, readyReplicas: 0, availableReplicas: 0 },
    podsCreated: existing?.podsCreated ?? 0,
  };
  state.addReplicaSet(replicaSet);
}
