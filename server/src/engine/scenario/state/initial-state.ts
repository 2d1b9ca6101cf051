/**
 * The cluster as it runs before `kubectl apply`: the cluster file's nodes and pods, and its workloads
 * (Deployments, ReplicaSets, StatefulSets, DaemonSets, PodDisruptionBudgets). Pods the file lists are matched to
 * their workload by ownerReferences, else by selector (a Deployment's pods grouped by pod-template-hash); a
 * workload listed without pods is taken as running: its pods are made as its controller would and placed by the
 * scheduler before time 0. Everything of the initial state appears in the timeline at time 0 (NodeAdded, then one
 * PodCreated per pod that carries its node and its phase, Ready or Running), so the panel can replay from nothing.
 */
import type { ControllerRevision } from './applied-template';
import { equalRevision, templateOf } from './applied-template';
import type { SimStatefulSet } from '../../apiserver/workload-objects';
import type { Cluster } from '../../model/snapshot/cluster';
import type { SourcedObject } from '../../model/load/cluster-load';
import type { ClusterState } from '../../apiserver/cluster-state';
import type { PodFactory } from '../../apiserver/pod-factory';
import type { SimPod } from '../../apiserver/sim-pod';
import { controllerRefOf, newSimPod } from '../../apiserver/sim-pod';
import type { AutoscalerIndex } from '../../workloads/autoscalers';
import type { JsonObject } from '../../model/json';
import { asArray, asObject, isJsonObject, readString } from '../../model/json';
import { POD_TEMPLATE_HASH_LABEL } from '../../workloads/replica-set';
import { CONTROLLER_REVISION_HASH_LABEL } from '../../workloads/stateful-set';
import { readDisruptionBudget } from './read-budget';
import { readDaemonSet, readDeployment, readStatefulSet } from './read-workloads';
import { readClusterReplicaSets } from './initial-replica-sets';
import { InitialOwners } from './initial-owners';
import { synthesizeWorkloadPods } from './initial-pods';
import type { Finding } from '../../../../../protocol/finding';
import { engineFinding } from '../../model/findings';

/** Pods of the initial state are ready since long before time 0 (so minReadySeconds has passed). */
const INITIAL_READY_SINCE = -86_400;

/** What building the initial state needs. */
interface InitialStateInput {
  readonly state: ClusterState;
  readonly cluster: Cluster;
  /** The cluster file's workload objects (Deployments, ReplicaSets, StatefulSets, DaemonSets, PDBs). */
  readonly workloads: readonly SourcedObject[];
  readonly autoscalers: AutoscalerIndex;
  readonly factory: PodFactory;
  /** Binds a pod with the scheduler; returns the node or null. */
  readonly place: (pod: SimPod) => string | null;
  readonly findings: Finding[];
  /** The cluster file's ControllerRevisions (the revisions of its StatefulSets and DaemonSets). */
  readonly revisions?: readonly ControllerRevision[];
  /** The cluster file's Succeeded and Failed pods. */
  readonly finishedPods?: readonly SourcedObject[];
}

/** Builds the initial state into `input.state`; returns the pods of the initial state that did not fit. */
export function buildInitialState(input: InitialStateInput): SimPod[] {
  const { state, cluster, findings } = input;
  for (const node of cluster.nodes) {
    state.addNode(node, `Registered Node ${node.name} in Controller`);
  }
  readWorkloads(input);
  deleteFinishedStatefulPods(state, input.finishedPods ?? []);
  const claimed = new Set<string>();
  const owners = new InitialOwners(state);
  for (const node of cluster.nodes) {
    // One message per node and readiness, not one string per pod (150,000 in a capture).
    const messages = new Map<boolean, string>();
    for (const info of node.pods) {
      const owner = owners.of({
        namespace: info.namespace,
        name: info.name,
        labels: info.labels,
        controllerRef: controllerRefOf(info.pod),
      });
      const pod = newSimPod({
        info,
        workload: owner.workload,
        revision: info.labels[POD_TEMPLATE_HASH_LABEL] ?? info.labels[CONTROLLER_REVISION_HASH_LABEL] ?? null,
        ordinal: owner.ordinal,
        controllerRef: owner.controllerRef,
        createdAt: 0,
        createdSeq: state.nextSeq(),
      });
      claimed.add(owner.claim);
      const isReady = isReadyInFile(pod);
      let message = messages.get(isReady);
      if (message === undefined) {
        message = runningMessage(node.name, isReady);
        messages.set(isReady, message);
      }
      addRunning(state, pod, node.name, isReady, message);
    }
  }
  const pending: SimPod[] = [];
  for (const pod of synthesizeWorkloadPods(state, input.factory, claimed)) {
    const nodeName = input.place(pod);
    if (nodeName === null) {
      findings.push(
        engineFinding(
          'initial-pod-unschedulable',
          pod.info.source,
          [],
          `${pod.workload?.kind ?? 'Pod'} "${pod.workload?.name ?? pod.name}" of the cluster file: pod ${pod.key} does not fit the cluster; it starts Pending`,
        ),
      );
      pending.push(pod);
      continue;
    }
    addRunning(state, pod, nodeName, true, runningMessage(nodeName, true));
  }
  return pending;
}

/**
 * processReplica: a StatefulSet pod that finished (Succeeded or Failed, an OOM-killed or evicted replica) is
 * deleted, and its ordinal is created again on a later sync. The deletion is the controller's first act; the
 * ordinal is then missing and the controller creates it as for any missing ordinal.
 */
function deleteFinishedStatefulPods(state: ClusterState, pods: readonly SourcedObject[]): void {
  for (const { object } of pods) {
    if (!isJsonObject(object)) {
      continue;
    }
    const metadata = asObject(object['metadata']);
    const owner = asArray(metadata['ownerReferences'])
      .map((reference) => asObject(reference))
      .find((reference) => reference['controller'] === true && reference['kind'] === 'StatefulSet');
    const name = readString(metadata['name']);
    const namespace = readString(metadata['namespace']) ?? 'default';
    const setName = readString(owner?.['name']);
    if (name === undefined || setName === undefined || !state.statefulSets.has(`${namespace}/${setName}`)) {
      continue;
    }
    state.recordWorkload(
      'PodDeleted',
      'Pod',
      namespace,
      name,
      `delete Pod ${name} in StatefulSet ${setName} successful`,
    );
  }
}

/**
 * Adds a pod of the initial state, bound and (unless its status says otherwise) Ready: one PodCreated event with
 * its node and phase, the starting state rather than three changes (ClusterState.addRunningPod).
 */
function addRunning(
  state: ClusterState,
  pod: SimPod,
  nodeName: string,
  isReady: boolean,
  message: string,
): void {
  state.addRunningPod(pod, nodeName, isReady, message);
  if (isReady) {
    pod.readySince = INITIAL_READY_SINCE;
  }
}

/** The message of a pod's PodCreated event in the initial state. */
function runningMessage(nodeName: string, isReady: boolean): string {
  return isReady
    ? `Ready on ${nodeName} before the simulation`
    : `Running but not Ready on ${nodeName} before the simulation`;
}

/** Whether a cluster-file pod is Ready: unless status.conditions says Ready is False. */
function isReadyInFile(pod: SimPod): boolean {
  const status = asObject((pod.object as JsonObject)['status']);
  const ready = asArray(status['conditions']).find((condition) => asObject(condition)['type'] === 'Ready');
  return !(isJsonObject(ready) && ready['status'] === 'False');
}

/**
 * A captured StatefulSet's revisions as its status names them (status.updateRevision, currentRevision: the names
 * its pods carry in controller-revision-hash); during an update, the current revision's pods are made from the
 * template its ControllerRevision records. Without status, the revision whose template is the set's.
 */
function withLiveRevisions(
  set: SimStatefulSet,
  object: JsonObject,
  revisions: readonly ControllerRevision[],
): SimStatefulSet {
  const status = asObject(object['status']);
  const update = readString(status['updateRevision']);
  if (update === undefined) {
    const revision = equalRevision(revisions, 'StatefulSet', set.namespace, set.name, templateOf(object));
    return revision === undefined
      ? set
      : { ...set, updateRevision: revision.name, currentRevision: revision.name };
  }
  const current = readString(status['currentRevision']) ?? update;
  const currentTemplate = revisions.find(
    (revision) =>
      revision.ownerKind === 'StatefulSet' &&
      revision.namespace === set.namespace &&
      revision.name === current,
  )?.template;
  return {
    ...set,
    updateRevision: update,
    currentRevision: current,
    currentObject:
      current === update || currentTemplate === undefined
        ? set.currentObject
        : { ...object, spec: { ...asObject(object['spec']), template: currentTemplate } },
  };
}

function readWorkloads(input: InitialStateInput): void {
  const { state, workloads, autoscalers, findings } = input;
  for (const { object, source } of workloads) {
    if (!isJsonObject(object)) {
      continue;
    }
    switch (object['kind']) {
      case 'Deployment': {
        const deployment = readDeployment(object, source, autoscalers, findings);
        if (deployment !== null) {
          deployment.progress = { reason: 'NewReplicaSetAvailable', lastUpdate: -1 };
          state.deployments.set(deployment.key, deployment);
        }
        break;
      }
      case 'StatefulSet': {
        const set = readStatefulSet(object, source, autoscalers, findings);
        if (set !== null) {
          state.statefulSets.set(set.key, withLiveRevisions(set, object, input.revisions ?? []));
        }
        break;
      }
      case 'DaemonSet': {
        const set = readDaemonSet(object, source, findings);
        if (set !== null) {
          // The live revision: the ControllerRevision whose template is the DaemonSet's (its pods' hash).
          const revision = equalRevision(
            input.revisions ?? [],
            'DaemonSet',
            set.namespace,
            set.name,
            templateOf(object),
          );
          state.daemonSets.set(
            set.key,
            revision === undefined ? set : { ...set, updateRevision: revision.hash },
          );
        }
        break;
      }
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
  readClusterReplicaSets(state, workloads);
}
