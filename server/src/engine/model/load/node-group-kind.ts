/**
 * The names of the NodeGroup document (our own kind: Kubernetes has none, autoscaler/node-group.ts says why): the
 * cluster autoscaler reads it, and cluster profiles (profiles/cluster-profile.ts) write it, so the names sit here,
 * below both.
 */

/** The kind of a node group document. */
export const NODE_GROUP_KIND = 'NodeGroup';

/** The label every node of a group carries, with the group's name as its value. */
export const NODE_GROUP_LABEL = 'foresight.dev/node-group';
