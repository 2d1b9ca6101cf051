/**
 * NodeName: a pod that names a node (spec.nodeName) fits only that node.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/nodename/node_name.go
 * Pods that already name a node are normally bound without the scheduler; the filter matters when such a pod is
 * evaluated anyway (what-if checks).
 */
import type { PluginFactory } from '../../framework/plugin';
import { SUCCESS, skip, unresolvable } from '../../framework/status';
import type { Reason } from '../../framework/status';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const NODE_NAME = PLUGIN_NAMES.NodeName;

/** ErrReason. */
export const REASON_NODE_NAME_MISMATCH: Reason = {
  code: 'NodeName/NodeNameMismatch',
  message: "node(s) didn't match the requested node name",
};

/** Builds the NodeName plugin (filter only). */
export const createNodeName: PluginFactory = () => ({
  name: NODE_NAME,
  // Upstream has no PreFilter; skipping the filter of a pod that names no node (it would pass everywhere) keeps
  // the outcome and saves a call per node.
  preFilter(_state, pod) {
    const wanted = pod.pod.spec?.nodeName;
    return {
      status: typeof wanted === 'string' && wanted !== '' ? SUCCESS : skip(NODE_NAME),
      nodeNames: null,
    };
  },
  filter(_state, pod, node) {
    const wanted = pod.pod.spec?.nodeName;
    if (typeof wanted !== 'string' || wanted === '' || wanted === node.name) {
      return SUCCESS;
    }
    return unresolvable(NODE_NAME, REASON_NODE_NAME_MISMATCH);
  },
});
