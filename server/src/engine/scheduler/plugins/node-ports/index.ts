/**
 * NodePorts: a pod's host ports (of containers and sidecars, hostPort > 0) must be free on the node: no pod there
 * uses the same protocol and port on the same host IP, or on 0.0.0.0, or on any IP when this one is 0.0.0.0.
 * PreFilter skips pods without host ports.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/nodeports/node_ports.go
 */
import type { PluginFactory } from '../../framework/plugin';
import { SUCCESS, skip, unschedulable } from '../../framework/status';
import type { Reason } from '../../framework/status';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const NODE_PORTS = PLUGIN_NAMES.NodePorts;

/** ErrReason. */
export const REASON_NODE_PORTS_CONFLICT: Reason = {
  code: 'NodePorts/PortsInUse',
  message: "node(s) didn't have free ports for the requested pod ports",
};

/** Builds the NodePorts plugin. The pod's host ports are pre-computed on PodInfo, so no cycle state is needed. */
export const createNodePorts: PluginFactory = () => ({
  name: NODE_PORTS,
  preFilter(_state, pod) {
    return { status: pod.hostPorts.length === 0 ? skip(NODE_PORTS) : SUCCESS, nodeNames: null };
  },
  filter(_state, pod, node) {
    for (const port of pod.hostPorts) {
      if (node.hasPortConflict(port)) {
        return unschedulable(NODE_PORTS, REASON_NODE_PORTS_CONFLICT);
      }
    }
    return SUCCESS;
  },
});
