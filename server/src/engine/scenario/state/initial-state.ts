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
import type { ControllerRef, SimPod } from '../../apiserver/sim-pod';
import { controllerRefOf, newSimPod } from '../../apiserver/sim-pod';
import type { AutoscalerIndex } from '../../workloads/autoscalers';
import type { JsonObject } from '../../model/json';
import { asArray, asObject, isJsonObject, readString } from '../../model/json';
import { POD_TEMPLATE_HASH_LABEL } from '../../workloads/replica-set';
import { CONTROLLER_REVISION_HASH_LABEL } from '../../workloads/stateful-set';
import { readDisruptionBudget } from './read-budget';
import { readDaemonSet, readDeployment, readStatefulSet } from './read-workloads';
import { readClusterReplicaSets, replicaSetFor } from './initial-replica-sets';
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
  for (const node of cluster.nodes) {
    for (const info of node.pods) {
      const owner = ownerOf(state, {
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
      claimed.add(
        owner.controllerRef === null
          ? ''
          : `${owner.controllerRef.kind}/${pod.namespace}/${owner.controllerRef.name}`,
      );
      addRunning(state, pod, node.name, isReadyInFile(pod));
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
    addRunning(state, pod, nodeName, true);
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
function addRunning(state: ClusterState, pod: SimPod, nodeName: string, isReady: boolean): void {
  state.addRunningPod(
    pod,
    nodeName,
    isReady,
    isReady
      ? `Ready on ${nodeName} before the simulation`
      : `Running but not Ready on ${nodeName} before the simulation`,
  );
  if (isReady) {
    pod.readySince = INITIAL_READY_SINCE;
  }
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

interface Ownership {
  readonly controllerRef: ControllerRef | null;
  readonly workload: { kind: string; name: string } | null;
  readonly ordinal: number | null;
}

/** Finds the workload a cluster-file pod belongs to: by ownerReferences, else by the workloads' selectors. */
function ownerOf(
  state: ClusterState,
  pod: Pick<SimPod, 'namespace' | 'name' | 'labels' | 'controllerRef'>,
): Ownership {
  const ref = pod.controllerRef;
  for (const set of state.statefulSets.values()) {
    if (
      set.namespace === pod.namespace &&
      (ref?.kind === 'StatefulSet' ? ref.name === set.name : set.selector.matches(pod.labels))
    ) {
      return {
        controllerRef: { kind: 'StatefulSet', name: set.name },
        workload: { kind: 'StatefulSet', name: set.name },
        ordinal: ordinalOf(pod.name, set.name),
      };
    }
  }
  for (const set of state.daemonSets.values()) {
    if (
      set.namespace === pod.namespace &&
      (ref?.kind === 'DaemonSet' ? ref.name === set.name : set.selector.matches(pod.labels))
    ) {
      return {
        controllerRef: { kind: 'DaemonSet', name: set.name },
        workload: { kind: 'DaemonSet', name: set.name },
        ordinal: null,
      };
    }
  }
  const replicaSet = replicaSetFor(state, pod);
  if (replicaSet !== null) {
    const deployment =
      replicaSet.deploymentKey === null ? undefined : state.deployments.get(replicaSet.deploymentKey);
    return {
      controllerRef: { kind: 'ReplicaSet', name: replicaSet.name },
      workload:
        deployment === undefined
          ? { kind: 'ReplicaSet', name: replicaSet.name }
          : { kind: 'Deployment', name: deployment.name },
      ordinal: null,
    };
  }
  return { controllerRef: ref, workload: null, ordinal: null };
}

/** The ordinal of a StatefulSet's pod ("web-2" of "web"), or null when its name is not "<set>-<number>". */
function ordinalOf(podName: string, setName: string): number | null {
  const suffix = podName.slice(setName.length + 1);
  return podName.startsWith(`${setName}-`) && /^\d+$/.test(suffix) ? Number(suffix) : null;
}
