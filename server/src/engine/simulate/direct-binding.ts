/**
 * Pods whose manifest already names a node (spec.nodeName) bypass kube-scheduler: the kubelet of that node runs
 * them (its own admission checks are not modelled). The engine binds them at once, and records a pod naming a
 * node the cluster lacks as never started.
 * https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename
 */
import type { NodeInfo } from '../model/node-info';
import type { PodInfo } from '../model/pod-info';
import type { SchedulingRecord } from '../scheduler/record';

/** Binds a pod to the node it names and records it. */
export function boundRecord(pod: PodInfo, node: NodeInfo): SchedulingRecord {
  node.addPod(pod);
  return { ...emptyRecord(pod), nodeName: node.name, tiedNodes: [node.name] };
}

/** The record of a pod naming a node that does not exist: it stays Pending. */
export function missingNodeRecord(pod: PodInfo): SchedulingRecord {
  const message = `spec.nodeName "${pod.nodeName ?? ''}" names no node of the cluster: no kubelet will run the pod and the scheduler ignores it`;
  return { ...emptyRecord(pod), notAttempted: { kind: 'node-not-found', message } };
}

function emptyRecord(pod: PodInfo): SchedulingRecord {
  return {
    pod,
    nodeName: null,
    tiedNodes: [],
    evaluatedNodes: 0,
    feasibleNodes: 0,
    filterStatuses: new Map(),
    scores: null,
    fitError: null,
    error: null,
    notAttempted: null,
    preempted: [],
  };
}
