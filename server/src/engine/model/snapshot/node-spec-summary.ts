/**
 * NodeSpecSummary: facts about the specs of all of a cluster's nodes (taints, spec.unschedulable, images), so a
 * scheduler plugin can know before a cycle that its filter passes, or its score is the same, on every node. A
 * node's labels, taints, unschedulable flag and images never change while it belongs to one Cluster (a changed
 * Node is a new NodeInfo in a new Cluster: ClusterState.updateNode), so the summary is computed once per
 * cluster. kube-scheduler has no such summary; it visits every node instead, with the same outcome.
 */
import type { NodeInfo } from './node-info';
import { isDoNotScheduleTaint } from '../taints';

/** What holds for some node of a cluster. */
export interface NodeSpecSummary {
  /** Some node has a NoSchedule or NoExecute taint (what TaintToleration's filter reads). */
  readonly hasDoNotScheduleTaint: boolean;
  /** Some node has a PreferNoSchedule taint (what TaintToleration's score counts). */
  readonly hasPreferNoScheduleTaint: boolean;
  /** Some node has spec.unschedulable (cordoned). */
  readonly hasUnschedulableNode: boolean;
  /** Some node lists an image in status.images (what ImageLocality scores). */
  readonly hasImages: boolean;
}

/** The summary of these nodes' specs. */
export function summarizeNodeSpecs(nodes: readonly NodeInfo[]): NodeSpecSummary {
  let hasDoNotScheduleTaint = false;
  let hasPreferNoScheduleTaint = false;
  let hasUnschedulableNode = false;
  let hasImages = false;
  for (const node of nodes) {
    for (const taint of node.taints) {
      if (isDoNotScheduleTaint(taint)) {
        hasDoNotScheduleTaint = true;
      } else if (taint.effect === 'PreferNoSchedule') {
        hasPreferNoScheduleTaint = true;
      }
    }
    hasUnschedulableNode ||= node.unschedulable;
    hasImages ||= node.imageStates.size > 0;
  }
  return { hasDoNotScheduleTaint, hasPreferNoScheduleTaint, hasUnschedulableNode, hasImages };
}
