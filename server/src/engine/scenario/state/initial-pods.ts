/**
 * Pods of workloads the cluster file lists without their pods: made as their controllers make them (a
 * ReplicaSet's replicas, a StatefulSet's ordinals, a DaemonSet's eligible nodes), for the scheduler to place
 * before time 0.
 */
import type { ClusterState } from '../../apiserver/cluster-state';
import type { PodFactory } from '../../apiserver/pod-factory';
import type { SimPod } from '../../apiserver/sim-pod';
import { daemonSetPodJson, replicaSetPod, statefulSetPodJson } from '../../controllers/workload-pods';
import { nodeShouldRunDaemonPod } from '../../workloads';
import { addDaemonTolerations } from '../../workloads/daemon-set';
import { asObject, cloneJson } from '../../model/json';
import { replicaSetOfIdleDeployment } from './initial-replica-sets';

/** Makes the pods of every workload without pods in the file ("Kind/namespace/name" keys in `claimed` have some). */
export function synthesizeWorkloadPods(
  state: ClusterState,
  factory: PodFactory,
  claimed: ReadonlySet<string>,
): SimPod[] {
  const pods: SimPod[] = [];
  for (const deployment of state.deployments.values()) {
    if (state.replicaSetsOf(deployment.key).length === 0) {
      replicaSetOfIdleDeployment(state, deployment);
    }
  }
  for (const replicaSet of state.replicaSets.values()) {
    if (!claimed.has(`ReplicaSet/${replicaSet.key}`)) {
      for (let i = 0; i < replicaSet.replicas; i++) {
        const pod = replicaSetPod(state, factory, replicaSet);
        if (pod !== null) {
          pods.push(pod);
        }
      }
    }
  }
  for (const set of state.statefulSets.values()) {
    if (claimed.has(`StatefulSet/${set.key}`)) {
      continue;
    }
    for (let ordinal = set.startOrdinal; ordinal < set.startOrdinal + set.replicas; ordinal++) {
      const json = statefulSetPodJson(set.currentObject, set.source, ordinal);
      const pod =
        json === null
          ? null
          : factory.build(json, {
              source: { ...set.source, path: [...set.source.path, 'spec', 'template'] },
              workload: { kind: 'StatefulSet', name: set.name },
              revision: set.currentRevision,
              ordinal,
            });
      if (pod !== null) {
        factory.names.reserve(pod.namespace, pod.name);
        pods.push(pod);
      }
    }
  }
  for (const set of state.daemonSets.values()) {
    if (claimed.has(`DaemonSet/${set.key}`)) {
      continue;
    }
    const spec = cloneJson(asObject(asObject(asObject(set.object['spec'])['template'])['spec']));
    addDaemonTolerations(spec);
    for (const node of state.nodeList()) {
      if (!nodeShouldRunDaemonPod(spec, node.object).shouldRun) {
        continue;
      }
      const json = daemonSetPodJson(
        set.object,
        set.source,
        node.object,
        factory.names,
        `${set.uid}/${node.name}`,
      );
      set.podsCreatedOnNode.set(node.name, (set.podsCreatedOnNode.get(node.name) ?? 0) + 1);
      const pod =
        json === null
          ? null
          : factory.build(json, {
              source: { ...set.source, path: [...set.source.path, 'spec', 'template'] },
              workload: { kind: 'DaemonSet', name: set.name },
              revision: set.updateRevision,
            });
      if (pod !== null) {
        pods.push(pod);
      }
    }
  }
  return pods;
}
