/**
 * The DaemonSet pods a new node of a group would run, as cluster-autoscaler's TemplateNodeInfo holds them
 * (simulator/node_info_utils.go SanitizedTemplateNodeInfoFromNodeGroup → daemonset.GetDaemonSetPodsForNode): each
 * DaemonSet whose pod should run on the template node (the daemon set controller's own nodeShouldRunDaemonPod,
 * with the tolerations it adds), its pod as the controller would make it for that node. The estimator packs the
 * Pending pods around them, so a node that the DaemonSets half fill takes fewer pods.
 * Left out: upstream's --force-ds flag and DaemonSets that the scenario creates after the scan.
 */
import type { ClusterState } from '../apiserver/cluster-state';
import { daemonSetPodJson } from '../controllers/workload-pods';
import type { NodeObject } from '../model/objects';
import type { PodInfo } from '../model/snapshot/pod-info';
import type { PriorityClassInfo } from '../model/snapshot/cluster';
import { loadPod } from '../model/load/pod-load';
import { isAtLeast } from '../version';
import type { KubernetesMinor } from '../version';
import { nodeShouldRunDaemonPod } from '../workloads';
import { addDaemonTolerations } from '../workloads/daemon-set';
import { asObject, cloneJson } from '../model/json';
import { NameAllocator } from '../workloads/names';
import type { Finding } from '../../../../protocol/finding';

/** The pods of the cluster's DaemonSets that would run on a node like this one. */
export function templateDaemonPods(
  state: ClusterState,
  node: NodeObject,
  version: KubernetesMinor,
  priorityClasses: ReadonlyMap<string, PriorityClassInfo>,
): PodInfo[] {
  const pods: PodInfo[] = [];
  for (const set of state.daemonSets.values()) {
    const daemonSpec = asObject(cloneJson(asObject(asObject(set.object['spec'])['template'])['spec']));
    addDaemonTolerations(daemonSpec);
    if (!nodeShouldRunDaemonPod(daemonSpec, node).shouldRun) {
      continue;
    }
    // A throwaway allocator: these pods are never created, so they take no name from the real ones.
    const json = daemonSetPodJson(set.object, set.source, node, new NameAllocator(), `${set.uid}/template`);
    if (json === null) {
      continue;
    }
    const findings: Finding[] = [];
    const pod = loadPod(
      json,
      { ...set.source, path: [...set.source.path, 'spec', 'template'] },
      { kind: 'DaemonSet', name: set.name },
      { version, priorityClasses, findings },
      isAtLeast(version, '1.34'),
    );
    if (pod !== null) {
      pods.push(pod);
    }
  }
  return pods;
}
