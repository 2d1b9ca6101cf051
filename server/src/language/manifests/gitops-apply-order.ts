/**
 * The order a GitOps controller applies a unit's objects in. Neither applies in file order:
 *
 * - **Flux** (kustomize-controller, fluxcd/pkg ssa/manager_apply.go ApplyAllStaged): cluster definitions first
 *   (CustomResourceDefinitions, Namespaces, ClusterRoles), then class definitions (kinds ending in `Class`), then
 *   the rest; each stage sorted by ssa/sort.go: its ReconcileOrder kind list (kinds not listed between `First` and
 *   `Last`), then API group, kind, namespace and name.
 * - **Argo CD** (gitops-engine pkg/sync/sync_tasks.go): by sync phase (PreSync hooks, then the objects, then
 *   PostSync hooks: argo-hooks.ts), then sync wave (`argocd.argoproj.io/sync-wave`, or a Helm hook's weight), then
 *   its kind order (Helm's install order; kinds not listed after those listed), then name; then a Namespace is moved
 *   before the first object in it, and a CustomResourceDefinition before the first object of its kind (adjustDeps).
 *
 * Left out: Argo CD's waiting for a phase or wave to be healthy before the next, and that it applies the objects of
 * one kind concurrently; Flux's wait between stages.
 * The simulation applies every object before its controllers act, so what the order decides is which pods are
 * queued first, and so where they land when nodes tie.
 */
import { apiGroupOf } from '../../engine/model/cluster-scoped-kinds';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { argoSuccessfulSyncPhasesOf, argoWaveOf } from './argo-hooks';
import { recordAt } from '../rules/rule-support';

/** The GitOps controllers whose apply order is modelled. */
export type GitopsController = 'Argo CD' | 'Flux';

/** An object to order (its namespace is the one it is applied in: read-manifests.ts placed it). */
export interface GitopsOrdered {
  readonly object: ManifestObject;
}

/** fluxcd/pkg ssa/sort.go ReconcileOrder.First, in order. */
const FLUX_FIRST = [
  'CustomResourceDefinition',
  'Namespace',
  'ClusterRole',
  'ClusterClass',
  'RuntimeClass',
  'PriorityClass',
  'StorageClass',
  'VolumeSnapshotClass',
  'IngressClass',
  'GatewayClass',
  'ClusterRoleBinding',
  'ResourceQuota',
  'ServiceAccount',
  'Role',
  'RoleBinding',
  'ConfigMap',
  'Secret',
  'Service',
  'LimitRange',
  'Deployment',
  'StatefulSet',
  'CronJob',
  'PodDisruptionBudget',
];

/** fluxcd/pkg ssa/sort.go ReconcileOrder.Last, in order. */
const FLUX_LAST = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];

/** gitops-engine sync_tasks.go kindOrder (after Helm's kind_sorter.go), in order. */
const ARGO_KINDS = [
  'Namespace',
  'NetworkPolicy',
  'ResourceQuota',
  'LimitRange',
  'PodSecurityPolicy',
  'PodDisruptionBudget',
  'ServiceAccount',
  'Secret',
  'SecretList',
  'ConfigMap',
  'StorageClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleList',
  'ClusterRoleBinding',
  'ClusterRoleBindingList',
  'Role',
  'RoleList',
  'RoleBinding',
  'RoleBindingList',
  'Service',
  'DaemonSet',
  'Pod',
  'ReplicationController',
  'ReplicaSet',
  'Deployment',
  'HorizontalPodAutoscaler',
  'StatefulSet',
  'Job',
  'CronJob',
  'Ingress',
  'APIService',
];

/** A kind's index: those listed first are negative, those listed last positive, any other 0 (as upstream's maps). */
const FLUX_INDEX = new Map([
  ...FLUX_FIRST.map((kind, index) => [kind, index - FLUX_FIRST.length] as const),
  ...FLUX_LAST.map((kind, index) => [kind, index + 1] as const),
]);
const ARGO_INDEX = new Map(ARGO_KINDS.map((kind, index) => [kind, index - ARGO_KINDS.length] as const));

/** The objects in the order the controller applies them (a new array; the input is left as it is). */
export function inGitopsOrder<T extends GitopsOrdered>(
  controller: GitopsController,
  items: readonly T[],
): T[] {
  return controller === 'Flux' ? inFluxOrder(items) : inArgoOrder(items);
}

/** ApplyAllStaged's stage: 0 cluster definitions, 1 class definitions, 2 the rest (fluxcd/pkg ssa/utils/is.go). */
function fluxStageOf(object: ManifestObject): number {
  const kind = object.kind.toLowerCase();
  const isClusterDefinition =
    (kind === 'customresourcedefinition' && object.apiVersion.startsWith('apiextensions.k8s.io/')) ||
    (kind === 'namespace' && object.apiVersion === 'v1') ||
    (kind === 'clusterrole' && object.apiVersion.startsWith('rbac.authorization.k8s.io/'));
  return isClusterDefinition ? 0 : object.kind.endsWith('Class') ? 1 : 2;
}

function inFluxOrder<T extends GitopsOrdered>(items: readonly T[]): T[] {
  return [...items].sort(
    (left, right) =>
      fluxStageOf(left.object) - fluxStageOf(right.object) ||
      (FLUX_INDEX.get(left.object.kind) ?? 0) - (FLUX_INDEX.get(right.object.kind) ?? 0) ||
      compareText(apiGroupOf(left.object.apiVersion), apiGroupOf(right.object.apiVersion)) ||
      compareText(left.object.kind, right.object.kind) ||
      compareText(left.object.namespace ?? '', right.object.namespace ?? '') ||
      compareText(left.object.name ?? '', right.object.name ?? ''),
  );
}

/** sync_tasks.go syncPhaseOrder of the earliest phase the object is created in (SyncFail's when none). */
function argoPhaseIndexOf(object: ManifestObject): number {
  const [first] = argoSuccessfulSyncPhasesOf(object);
  return first === 'PreSync' ? -1 : first === 'Sync' ? 0 : first === 'PostSync' ? 1 : 2;
}

function inArgoOrder<T extends GitopsOrdered>(items: readonly T[]): T[] {
  const keys = new Map(
    items.map((item) => [item, [argoPhaseIndexOf(item.object), argoWaveOf(item.object)] as const]),
  );
  const phaseOf = (item: T): number => keys.get(item)?.[0] ?? 0;
  const waveOf = (item: T): number => keys.get(item)?.[1] ?? 0;
  const sorted = [...items].sort(
    (left, right) =>
      phaseOf(left) - phaseOf(right) ||
      waveOf(left) - waveOf(right) ||
      (ARGO_INDEX.get(left.object.kind) ?? 0) - (ARGO_INDEX.get(right.object.kind) ?? 0) ||
      compareText(left.object.name ?? '', right.object.name ?? ''),
  );
  // Namespaces before the objects in them, then CustomResourceDefinitions before their objects.
  bubbleDependencies(
    sorted,
    (item) =>
      item.object.kind === 'Namespace' && apiGroupOf(item.object.apiVersion) === ''
        ? (item.object.name ?? '')
        : undefined,
    (item) => (item.object.namespace === '' ? undefined : item.object.namespace),
  );
  bubbleDependencies(
    sorted,
    (item) => definedKindOf(item.object),
    (item) => kindKeyOf(item.object),
  );
  return sorted;
}

/**
 * adjustDeps: a dependency found after the first item that refers to it is moved just before that item. Upstream
 * also gives it that item's wave; waves are not kept past the sort here, so that is all it changes.
 */
function bubbleDependencies<T>(
  items: T[],
  dependencyKeyOf: (item: T) => string | undefined,
  referenceKeyOf: (item: T) => string | undefined,
): void {
  const firstReference = new Map<string, number>();
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as T;
    const dependency = dependencyKeyOf(item);
    if (dependency !== undefined) {
      const target = firstReference.get(dependency);
      if (target !== undefined) {
        items.splice(index, 1);
        items.splice(target, 0, item);
        for (const [key, first] of firstReference) {
          if (first >= target) {
            firstReference.set(key, first + 1);
          }
        }
      }
      continue;
    }
    const reference = referenceKeyOf(item);
    if (reference !== undefined && !firstReference.has(reference)) {
      firstReference.set(reference, index);
    }
  }
}

/** The `group/kind` a CustomResourceDefinition defines. */
function definedKindOf(object: ManifestObject): string | undefined {
  if (
    object.kind !== 'CustomResourceDefinition' ||
    apiGroupOf(object.apiVersion) !== 'apiextensions.k8s.io'
  ) {
    return undefined;
  }
  const spec = recordAt(object.value, ['spec']);
  const group = spec?.['group'];
  const kind = recordAt(spec, ['names'])?.['kind'];
  return typeof group === 'string' && typeof kind === 'string' ? `${group}/${kind}` : undefined;
}

function kindKeyOf(object: ManifestObject): string {
  return `${apiGroupOf(object.apiVersion)}/${object.kind}`;
}

/** Go's string comparison (byte order; the same as UTF-16 order for the ASCII of names and kinds). */
function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
