/**
 * NodeUnschedulable: a node with spec.unschedulable (cordoned) takes no new pod, unless the pod tolerates the
 * node.kubernetes.io/unschedulable:NoSchedule taint.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go
 */
import { listOf } from '../../../model/objects';
import { TAINT_NODE_UNSCHEDULABLE, tolerationsTolerateTaint } from '../../../model/taints';
import type { PluginFactory } from '../../framework/plugin';
import { SUCCESS, unresolvable } from '../../framework/status';
import type { Reason, Status } from '../../framework/status';
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const NODE_UNSCHEDULABLE = PLUGIN_NAMES.NodeUnschedulable;

/** ErrReasonUnschedulable. */
export const REASON_NODE_UNSCHEDULABLE: Reason = {
  code: 'NodeUnschedulable/Unschedulable',
  message: 'node(s) were unschedulable',
};

/** Builds the NodeUnschedulable plugin (filter only). */
export const createNodeUnschedulable: PluginFactory = (context) => ({
  name: NODE_UNSCHEDULABLE,
  // No cordoned node: filterUnschedulable passes on every node.
  filterPassesEveryNode() {
    return !context.handle.cluster.nodeSpecs.hasUnschedulableNode;
  },
  filter(_state, pod, node) {
    return filterUnschedulable(pod, node);
  },
  filterNodes(_state, pod, nodes, statuses) {
    for (let i = 0; i < nodes.length; i++) {
      statuses[i] = filterUnschedulable(pod, nodes[i] as NodeInfo);
    }
  },
});

function filterUnschedulable(pod: PodInfo, node: NodeInfo): Status {
  if (!node.unschedulable) {
    return SUCCESS;
  }
  if (tolerationsTolerateTaint(listOf(pod.pod.spec?.tolerations), TAINT_NODE_UNSCHEDULABLE)) {
    return SUCCESS;
  }
  return unresolvable(NODE_UNSCHEDULABLE, REASON_NODE_UNSCHEDULABLE);
}
