/**
 * The embedded default cluster as it was before it could grow: its tainted control plane and three 4-cpu, 16Gi
 * workers with their kube-system pods, and no node group, as a cluster file. For the tests whose point is that
 * cluster itself (a FitError counting its four nodes); the embedded default now adds large nodes for pods that do
 * not fit (model/load/default-cluster.ts), which those tests do not want.
 */
import { isNodeGroupObject } from '../../server/src/engine/autoscaler/node-group';
import type { SourcedObject } from '../../server/src/engine/model/load/cluster-load';
import { defaultClusterObjects } from '../../server/src/engine/model/load/default-cluster';
import { isProfileMarker } from '../../server/src/engine/model/load/profiles/cluster-profile';

/** The four nodes of the embedded default, its kube-system pods and StorageClass, without its node group. */
export function fourNodeCluster(): SourcedObject[] {
  return defaultClusterObjects().filter(
    ({ object }) => !isNodeGroupObject(object) && !isProfileMarker(object),
  );
}
