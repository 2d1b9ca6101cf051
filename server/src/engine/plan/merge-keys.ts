/**
 * How `kubectl apply` merges a list of a live object (staging/src/k8s.io/kubectl/pkg/cmd/apply/patcher.go): a kind
 * of kubectl's scheme (the built-in API groups of k8s.io/api) gets a three-way strategic merge patch, which merges
 * a list by the patch merge key of its items (`x-kubernetes-patch-merge-key` in the OpenAPI: containers by name,
 * volumeMounts by mountPath, a container's ports by containerPort, a Service's by port), merges a list of scalars
 * with the merge strategy as a set (metadata.finalizers), and replaces any other list whole. Any other kind (custom
 * resources; CustomResourceDefinitions and APIServices too, whose groups kubectl's scheme does not register) gets a
 * three-way JSON merge patch, which replaces every list whole.
 */

type Path = readonly (string | number)[];

/** A list of scalars merged as a set: the apply adds what it writes and deletes what it dropped. */
export const SCALAR_SET = Symbol('scalar set');

/** How a list merges: by the merge key of its items, as a set of scalars, or (undefined) replaced whole. */
export type ListMerge = string | typeof SCALAR_SET | undefined;

/**
 * The API groups of kubectl's scheme served by Kubernetes 1.35 (client-go's kubernetes scheme, which
 * k8s.io/kubectl/pkg/scheme installs; '' is core, extensions the legacy group).
 */
const STRATEGIC_GROUPS = new Set([
  '',
  'admissionregistration.k8s.io',
  'apps',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'extensions',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
]);

/**
 * The patch merge key of each list field that has one in the spec of a built-in kind (status lists are never the
 * apply's): every field of this name has this key, except where listMergeOf narrows it by place
 * (CONTEXT_DEPENDENT).
 */
export const MERGE_KEYS: Readonly<Record<string, string>> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  imagePullSecrets: 'name',
  resourceClaims: 'name',
  schedulingGates: 'name',
  secrets: 'name',
  webhooks: 'name',
  matchConditions: 'name',
  variables: 'name',
  drivers: 'name',
  hostAliases: 'ip',
  ownerReferences: 'uid',
  topologySpreadConstraints: 'topologyKey',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  ports: 'containerPort',
};

/**
 * Fields whose name also belongs to lists without that key elsewhere: a container's ports (containerPort) and a
 * Service's (port) against NetworkPolicy or EndpointSlice ports; a pod spec's imagePullSecrets against a
 * ServiceAccount's; ValidatingAdmissionPolicy's variables against MutatingAdmissionPolicy's; metadata.finalizers
 * against a Namespace's spec.finalizers; a Node's podCIDRs.
 */
export const CONTEXT_DEPENDENT = new Set([
  'ports',
  'imagePullSecrets',
  'variables',
  'finalizers',
  'podCIDRs',
]);

const CONTAINER_LISTS = new Set(['containers', 'initContainers', 'ephemeralContainers']);

/** Whether kubectl apply merges an object of this apiVersion with a strategic merge patch. */
export function isStrategicMerge(apiVersion: unknown): boolean {
  if (typeof apiVersion !== 'string') {
    return false;
  }
  const slash = apiVersion.indexOf('/');
  return STRATEGIC_GROUPS.has(slash < 0 ? '' : apiVersion.slice(0, slash));
}

/** How the apply merges the list at `path` of an object of this kind (`strategic`: isStrategicMerge). */
export function listMergeOf(path: Path, kind: unknown, strategic: boolean): ListMerge {
  const field = path[path.length - 1];
  if (!strategic || typeof field !== 'string') {
    return undefined;
  }
  const parent = path[path.length - 2];
  switch (field) {
    case 'ports':
      if (typeof parent === 'number' && CONTAINER_LISTS.has(String(path[path.length - 3]))) {
        return 'containerPort';
      }
      return kind === 'Service' && path.length === 2 && parent === 'spec' ? 'port' : undefined;
    case 'imagePullSecrets':
      return kind === 'ServiceAccount' && path.length === 1 ? undefined : 'name';
    case 'variables':
      return kind === 'ValidatingAdmissionPolicy' ? 'name' : undefined;
    case 'finalizers':
      return parent === 'metadata' ? SCALAR_SET : undefined;
    case 'podCIDRs':
      return kind === 'Node' ? SCALAR_SET : undefined;
    default:
      return Object.hasOwn(MERGE_KEYS, field) ? MERGE_KEYS[field] : undefined;
  }
}
