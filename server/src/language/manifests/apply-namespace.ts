/**
 * `kubectl apply -n NAMESPACE`: the namespace given on the command line is enforced on every object read, as
 * cli-runtime's builder does with `RequireNamespace` when the flag is given explicitly
 * (staging/src/k8s.io/cli-runtime/pkg/resource/visitor.go):
 *
 * - a namespaced object without `metadata.namespace` is put in NAMESPACE (`UpdateObjectNamespace`);
 * - a namespaced object naming another namespace is refused with kubectl's error, and left out of the apply
 *   (kubectl apply visits with ContinueOnError: the other objects are still applied, and the command exits 1);
 * - a cluster-scoped object (its REST mapping's scope is root) is left as written.
 *
 * Built-in kinds' scope comes from engine/model/cluster-scoped-kinds.ts, a custom kind's from the `spec.scope` of
 * a CustomResourceDefinition among the objects read. A custom kind no CRD in the input defines has a scope known
 * only to the cluster: it is read as written (kubectl would ask the cluster's REST mapping).
 */
import { apiGroupOf, isClusterScoped } from '../../engine/model/cluster-scoped-kinds';
import type { ManifestObject } from '../kubernetes/manifest-object';

/** What enforcing the namespace does to one object. */
export type NamespaceOutcome =
  { readonly ok: true; readonly object: ManifestObject } | { readonly ok: false; readonly message: string };

/** The scope of each custom kind a CustomResourceDefinition defines, by `group/kind`. */
export type CustomKindScopes = ReadonlyMap<string, 'Namespaced' | 'Cluster'>;

/**
 * kubectl's error for an object naming another namespace than `--namespace`, as cmdutil.CheckErr prints it
 * (RequireNamespace, cli-runtime v0.35).
 */
export function namespaceMismatchMessage(objectNamespace: string, namespace: string): string {
  return `error: the namespace from the provided object "${objectNamespace}" does not match the namespace "${namespace}". You must pass '--namespace=${objectNamespace}' to perform this operation.`;
}

/** The scopes the CustomResourceDefinitions among `objects` give their kinds. */
export function customKindScopesOf(objects: readonly ManifestObject[]): CustomKindScopes {
  const scopes = new Map<string, 'Namespaced' | 'Cluster'>();
  for (const object of objects) {
    if (
      object.kind !== 'CustomResourceDefinition' ||
      apiGroupOf(object.apiVersion) !== 'apiextensions.k8s.io'
    ) {
      continue;
    }
    const spec = asRecord(object.value['spec']);
    const group = spec?.['group'];
    const kind = asRecord(spec?.['names'])?.['kind'];
    const scope = spec?.['scope'];
    if (
      typeof group === 'string' &&
      typeof kind === 'string' &&
      (scope === 'Namespaced' || scope === 'Cluster')
    ) {
      scopes.set(`${group}/${kind}`, scope);
    }
  }
  return scopes;
}

/** Whether an object lives in a namespace: false for cluster-scoped kinds, undefined when its scope is unknown. */
export function isNamespaced(object: ManifestObject, customScopes: CustomKindScopes): boolean | undefined {
  if (isClusterScoped(object.apiVersion, object.kind)) {
    return false;
  }
  const group = apiGroupOf(object.apiVersion);
  if (BUILT_IN_GROUPS.has(group)) {
    return true;
  }
  const scope = customScopes.get(`${group}/${object.kind}`);
  return scope === undefined ? undefined : scope === 'Namespaced';
}

/** Enforces `namespace` on one object as `kubectl apply -n namespace` does. */
export function enforceNamespace(
  object: ManifestObject,
  namespace: string,
  customScopes: CustomKindScopes,
): NamespaceOutcome {
  if (isNamespaced(object, customScopes) !== true) {
    return { ok: true, object };
  }
  if (object.namespace !== undefined && object.namespace !== '') {
    return object.namespace === namespace
      ? { ok: true, object }
      : { ok: false, message: namespaceMismatchMessage(object.namespace, namespace) };
  }
  const metadata = asRecord(object.value['metadata']) ?? {};
  const value = { ...object.value, metadata: { ...metadata, namespace } };
  return { ok: true, object: { ...object, namespace, value } };
}

/**
 * The namespace a GitOps unit's controller gives its objects (files/gitops/gitops-units.ts): Argo CD's
 * `destination.namespace` fills only a namespaced object that names none; a namespace set on the kustomization
 * (Flux's `targetNamespace`, Argo CD's `kustomize.namespace`) overrides every namespaced object's, as kustomize's
 * namespace transformer does.
 */
export interface UnitNamespace {
  readonly name: string;
  /** true: every namespaced object is put in it; false: only those without a namespace. */
  readonly overrides: boolean;
  /** The namespace the controller creates before applying (Argo CD's CreateNamespace=true), if any. */
  readonly creates?: NamespaceCreation;
}

/** A namespace a GitOps controller creates before its sync, with the labels and annotations it manages. */
export interface NamespaceCreation {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

/**
 * Puts an object in its unit's namespace. A kind whose scope is unknown here (a custom kind without its CRD) is
 * taken as namespaced, as kustomize's transformer and Argo CD (IsNamespacedOrUnknown) take it; never refused.
 */
export function placeInUnitNamespace(
  object: ManifestObject,
  namespace: UnitNamespace,
  customScopes: CustomKindScopes,
): ManifestObject {
  if (isNamespaced(object, customScopes) === false) {
    return object;
  }
  if (!namespace.overrides && object.namespace !== undefined && object.namespace !== '') {
    return object;
  }
  const metadata = asRecord(object.value['metadata']) ?? {};
  const value = { ...object.value, metadata: { ...metadata, namespace: namespace.name } };
  return { ...object, namespace: namespace.name, value };
}

/**
 * The API groups the API server serves itself (kube-apiserver's and kube-aggregator's, v1.35): their kinds not
 * listed as cluster-scoped are namespaced. Other `*.k8s.io` groups (gateway.networking.k8s.io,
 * snapshot.storage.k8s.io, *.x-k8s.io) are served by CRDs, whose scope is their CRD's.
 */
const BUILT_IN_GROUPS: ReadonlySet<string> = new Set([
  '',
  'apps',
  'batch',
  'autoscaling',
  'policy',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
]);

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
