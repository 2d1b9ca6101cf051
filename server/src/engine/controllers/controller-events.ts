/**
 * The Kubernetes Events of controllers that no engine event stands for:
 * - SuccessfulDelete when a controller deletes one of its pods (RealPodControl.DeletePod in
 *   pkg/controller/controller_utils.go, "Deleted pod: web-7d4b9-x2k4q"; the StatefulSet's "delete Pod db-1 in
 *   StatefulSet db successful", stateful_pod_control.go), recorded right after the deletion, before the kubelet's
 *   Killing;
 * - the node lifecycle controller's RegisteredNode and RemovingNode on a node that joins or leaves
 *   (RecordNodeEvent: "Node worker-4 event: Registered Node worker-4 in Controller"), and its NodeNotReady on each
 *   pod it marks not Ready (MarkPodsNotReady: Warning "Node is not ready"), in pkg/controller/nodelifecycle and
 *   pkg/controller/util/node;
 * - the kubelet's NodeNotSchedulable once its node is cordoned (its node status setters: "Node worker-1 status is
 *   now: NodeNotSchedulable").
 */
import { EVENT_COMPONENT, podControlEvent } from '../model/kubernetes-events';
import type { ClusterState } from '../apiserver/cluster-state';
import type { SimPod } from '../apiserver/sim-pod';

/** Records the controller's SuccessfulDelete of a pod it just deleted (nothing for a pod without a controller). */
export function recordSuccessfulDelete(state: ClusterState, pod: SimPod): void {
  const event = podControlEvent('SuccessfulDelete', pod);
  if (event?.involvedObject === undefined || pod.controllerRef === null) {
    return;
  }
  const message =
    pod.controllerRef.kind === 'StatefulSet'
      ? `delete Pod ${pod.name} in StatefulSet ${pod.controllerRef.name} successful`
      : `Deleted pod: ${pod.name}`;
  state.recordEvent({ ...event, involvedObject: event.involvedObject }, message, null);
}

/** RegisteredNode of a node that joins the cluster. */
export function recordRegisteredNode(state: ClusterState, name: string): void {
  const involvedObject = { kind: 'Node', name };
  state.recordEvent(
    { reason: 'RegisteredNode', component: EVENT_COMPONENT.nodeController, involvedObject },
    `Node ${name} event: Registered Node ${name} in Controller`,
    name,
  );
}

/** RemovingNode of a node deleted from the cluster. */
export function recordRemovingNode(state: ClusterState, name: string): void {
  const involvedObject = { kind: 'Node', name };
  state.recordEvent(
    { reason: 'RemovingNode', component: EVENT_COMPONENT.nodeController, involvedObject },
    `Node ${name} event: Removing Node ${name} from Controller`,
    name,
  );
}

/** MarkPodsNotReady's event on a pod of a node that stopped reporting. */
export function recordPodNodeNotReady(state: ClusterState, pod: SimPod): void {
  const involvedObject = { kind: 'Pod', namespace: pod.namespace, name: pod.name };
  state.recordEvent(
    { reason: 'NodeNotReady', component: EVENT_COMPONENT.nodeController, warning: true, involvedObject },
    'Node is not ready',
    pod.nodeName,
  );
}

/** The kubelet's NodeNotSchedulable once its node is cordoned. */
export function recordNodeNotSchedulable(state: ClusterState, name: string): void {
  const involvedObject = { kind: 'Node', name };
  state.recordEvent(
    { reason: 'NodeNotSchedulable', component: EVENT_COMPONENT.kubelet, host: name, involvedObject },
    `Node ${name} status is now: NodeNotSchedulable`,
    name,
  );
}
