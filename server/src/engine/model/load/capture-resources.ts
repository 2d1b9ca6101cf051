/**
 * The API resources the engine reads from a running cluster, as `kubectl get` names them: what `foresight capture`
 * lists, and what a capture header's `spec.kinds` may name. A resource named there is covered: the capture holds
 * every object of it that the user may list, so an object of that kind that the capture lacks does not exist.
 * The group is the API group `kubectl get RESOURCE.GROUP` resolves without ambiguity (a CRD named `services` in
 * another group cannot shadow the core one); the core group is ''.
 * https://kubernetes.io/docs/reference/kubectl/#resource-types
 */

/** One resource the engine reads. */
export interface CaptureResource {
  /** The plural resource name `kubectl get` takes ("secrets"), as a header's spec.kinds lists it. */
  readonly resource: string;
  /** The API group ('' for the core group). */
  readonly group: string;
  /** The kind of its objects. */
  readonly kind: string;
  /** Whether its objects live in namespaces (then `kubectl get -A` lists every namespace). */
  readonly isNamespaced: boolean;
}

/** The resources, in the order `foresight capture` lists them (nodes first, as the cluster's shape). */
export const CAPTURE_RESOURCES: readonly CaptureResource[] = [
  { resource: 'nodes', group: '', kind: 'Node', isNamespaced: false },
  { resource: 'namespaces', group: '', kind: 'Namespace', isNamespaced: false },
  { resource: 'priorityclasses', group: 'scheduling.k8s.io', kind: 'PriorityClass', isNamespaced: false },
  { resource: 'storageclasses', group: 'storage.k8s.io', kind: 'StorageClass', isNamespaced: false },
  { resource: 'csinodes', group: 'storage.k8s.io', kind: 'CSINode', isNamespaced: false },
  { resource: 'persistentvolumes', group: '', kind: 'PersistentVolume', isNamespaced: false },
  { resource: 'pods', group: '', kind: 'Pod', isNamespaced: true },
  { resource: 'deployments', group: 'apps', kind: 'Deployment', isNamespaced: true },
  { resource: 'replicasets', group: 'apps', kind: 'ReplicaSet', isNamespaced: true },
  { resource: 'statefulsets', group: 'apps', kind: 'StatefulSet', isNamespaced: true },
  { resource: 'daemonsets', group: 'apps', kind: 'DaemonSet', isNamespaced: true },
  { resource: 'controllerrevisions', group: 'apps', kind: 'ControllerRevision', isNamespaced: true },
  { resource: 'jobs', group: 'batch', kind: 'Job', isNamespaced: true },
  { resource: 'cronjobs', group: 'batch', kind: 'CronJob', isNamespaced: true },
  { resource: 'replicationcontrollers', group: '', kind: 'ReplicationController', isNamespaced: true },
  { resource: 'poddisruptionbudgets', group: 'policy', kind: 'PodDisruptionBudget', isNamespaced: true },
  {
    resource: 'horizontalpodautoscalers',
    group: 'autoscaling',
    kind: 'HorizontalPodAutoscaler',
    isNamespaced: true,
  },
  { resource: 'persistentvolumeclaims', group: '', kind: 'PersistentVolumeClaim', isNamespaced: true },
  { resource: 'limitranges', group: '', kind: 'LimitRange', isNamespaced: true },
  { resource: 'resourcequotas', group: '', kind: 'ResourceQuota', isNamespaced: true },
  { resource: 'serviceaccounts', group: '', kind: 'ServiceAccount', isNamespaced: true },
  { resource: 'services', group: '', kind: 'Service', isNamespaced: true },
  { resource: 'configmaps', group: '', kind: 'ConfigMap', isNamespaced: true },
  { resource: 'secrets', group: '', kind: 'Secret', isNamespaced: true },
];

/** The resource names, for lookups. */
const BY_NAME: ReadonlyMap<string, CaptureResource> = new Map(
  CAPTURE_RESOURCES.map((entry) => [entry.resource, entry]),
);

/** The resource of a name a header lists, or undefined when the engine reads no such resource. */
export function captureResource(name: string): CaptureResource | undefined {
  return BY_NAME.get(name);
}

/** The name `kubectl get` resolves to exactly this resource: "secrets", "deployments.apps". */
export function qualifiedResourceName(entry: CaptureResource): string {
  return entry.group === '' ? entry.resource : `${entry.resource}.${entry.group}`;
}
