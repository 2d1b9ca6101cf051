/**
 * Pod JSON of StatefulSets and DaemonSets, built by the workload expansion (workloads/) so that the simulation's
 * pods are exactly the pods a fresh `kubectl apply` would make: a StatefulSet's pod for one ordinal (its hostname,
 * labels and claim volumes), a DaemonSet's pod for one node (daemon tolerations, node pinning). Generated names go
 * through the simulation's name allocator so replacements never clash with pods still terminating.
 */
import type { ObjectSource } from '../model/source';
import { expandWorkloads } from '../workloads';
import type { JsonObject } from '../model/json';
import { asObject } from '../model/json';
import type { NameAllocator } from '../workloads/names';
import { podsPrefix } from '../workloads/names';
import { controllerReference, podFromTemplate } from '../workloads/pod-builder';
import type { ClusterState } from '../apiserver/cluster-state';
import type { PodFactory } from '../apiserver/pod-factory';
import type { SimPod } from '../apiserver/sim-pod';
import type { SimReplicaSet } from '../apiserver/workload-objects';

/** The pod of one StatefulSet ordinal, from the StatefulSet object of the wanted revision. */
export function statefulSetPodJson(
  object: JsonObject,
  source: ObjectSource,
  ordinal: number,
): Record<string, unknown> | null {
  const spec = asObject(object['spec']);
  const single = { ...object, spec: { ...spec, replicas: 1, ordinals: { start: ordinal } } };
  const expanded = expandWorkloads([{ object: single, source }]);
  return expanded.pods[0]?.pod ?? null;
}

/** The pod of a DaemonSet on one node, renamed with the allocator; null when the node should not run it. */
export function daemonSetPodJson(
  object: JsonObject,
  source: ObjectSource,
  node: unknown,
  names: NameAllocator,
  seed: string,
): Record<string, unknown> | null {
  const expanded = expandWorkloads([{ object, source }], { nodes: [node] });
  const pod = expanded.pods[0]?.pod;
  if (pod === undefined) {
    return null;
  }
  const metadata = asObject(pod['metadata']);
  const namespace = typeof metadata['namespace'] === 'string' ? metadata['namespace'] : 'default';
  const name = asObject(object['metadata'])['name'];
  metadata['name'] = names.generate(namespace, podsPrefix(typeof name === 'string' ? name : ''), seed);
  return { ...pod, metadata };
}

/** One pod of a ReplicaSet, named as its controller would. */
export function replicaSetPod(
  state: ClusterState,
  factory: PodFactory,
  replicaSet: SimReplicaSet,
): SimPod | null {
  const generateName = podsPrefix(replicaSet.name);
  const name = factory.names.generate(
    replicaSet.namespace,
    generateName,
    `${replicaSet.uid}/${replicaSet.podsCreated}`,
  );
  replicaSet.podsCreated++;
  // The template's spec is shared, not copied: nothing in the simulation changes a pod's spec.
  const json = podFromTemplate(
    replicaSet.template,
    {
      name,
      generateName,
      namespace: replicaSet.namespace,
      ownerReference: controllerReference('apps/v1', 'ReplicaSet', replicaSet.name, replicaSet.uid),
    },
    asObject(replicaSet.template['spec']),
  );
  const deployment =
    replicaSet.deploymentKey === null ? undefined : state.deployments.get(replicaSet.deploymentKey);
  const hash = asObject(asObject(replicaSet.template['metadata'])['labels'])['pod-template-hash'];
  return factory.build(json, {
    source: replicaSet.source,
    workload:
      deployment === undefined
        ? { kind: 'ReplicaSet', name: replicaSet.name }
        : { kind: 'Deployment', name: deployment.name },
    revision: typeof hash === 'string' ? hash : replicaSet.templateHash,
  });
}
