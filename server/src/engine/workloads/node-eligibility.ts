/**
 * Which nodes a DaemonSet runs on: NodeShouldRunDaemonPod in the DaemonSet controller. A node is eligible when
 * the pod's nodeName (if any) names it, the pod's nodeSelector and required node affinity match it
 * (nodeaffinity.GetRequiredNodeAffinity), and the pod, with the tolerations the controller adds, tolerates every
 * NoSchedule and NoExecute taint of the node (v1helper.FindMatchingUntoleratedTaint).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/daemon/daemon_controller.go
 *
 * The matching itself is the scheduler model's (model/node-selector.ts, model/taints.ts), so the controller and
 * the NodeAffinity and TaintToleration plugins agree on every node.
 */
import { RequiredNodeAffinity } from '../model/node-selector';
import type { TaintObject, TolerationObject } from '../model/objects';
import { findMatchingUntoleratedTaint, isDoNotScheduleTaint } from '../model/taints';
import { asArray, asObject, isJsonObject, readString, readStringMap } from '../model/json';

/** Why a node does not get a daemon pod. */
export type IneligibleReason = 'node-name' | 'node-affinity' | 'taint';

/** The verdict for one node. */
type NodeEligibility =
  | { readonly shouldRun: true }
  | { readonly shouldRun: false; readonly reason: IneligibleReason; readonly detail: string };

/** Decides whether a daemon pod (its spec, with the daemon tolerations already added) belongs on a node. */
export function nodeShouldRunDaemonPod(podSpec: Record<string, unknown>, node: unknown): NodeEligibility {
  const metadata = asObject(asObject(node)['metadata']);
  const nodeName = readString(metadata['name']) ?? '';
  const wantedNode = readString(podSpec['nodeName']);
  if (wantedNode !== undefined && wantedNode !== nodeName) {
    return { shouldRun: false, reason: 'node-name', detail: `the template's nodeName is ${wantedNode}` };
  }
  const affinity = new RequiredNodeAffinity(podSpec);
  if (!affinity.matches({ name: nodeName, labels: readStringMap(metadata['labels']) })) {
    return {
      shouldRun: false,
      reason: 'node-affinity',
      detail: "the node doesn't match the node affinity/selector",
    };
  }
  const taints = asArray(asObject(asObject(node)['spec'])['taints']).filter(
    isJsonObject,
  ) as unknown as TaintObject[];
  const tolerations = asArray(podSpec['tolerations']).filter(isJsonObject) as unknown as TolerationObject[];
  const untolerated = findMatchingUntoleratedTaint(taints, tolerations, isDoNotScheduleTaint);
  if (untolerated !== undefined) {
    return {
      shouldRun: false,
      reason: 'taint',
      detail: `the taint ${describeTaint(untolerated)} is not tolerated`,
    };
  }
  return { shouldRun: true };
}

/** "key=value:Effect", or "key:Effect" without a value, as kubectl prints taints. */
function describeTaint(taint: TaintObject): string {
  const value = typeof taint.value === 'string' && taint.value !== '' ? `=${taint.value}` : '';
  return `${String(taint.key)}${value}:${taint.effect}`;
}
