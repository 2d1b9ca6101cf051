/**
 * NamespaceLifecycle (plugin/pkg/admission/namespace/lifecycle/admission.go): an object in a namespace that does
 * not exist is refused with the NotFound error `namespaces "x" not found`. Here a namespace exists when the cluster
 * file has it (or runs something in it), the apply creates it, or it is one of the four every cluster has; its
 * absence is only certain when the cluster file lists Namespaces (known-objects.ts). A namespace whose phase is
 * Terminating (the cluster file's status) refuses the creation of anything in it, the apply's new objects and the
 * pods controllers create alike, with the Forbidden error "unable to create new content in namespace X because it
 * is being terminated"; updates of what exists pass, and so does every operation on Namespace objects themselves.
 */
import type { KnownObjects } from '../known-objects';
import { ADMISSION_PLUGIN } from '../names';
import type { PodAdmissionPlugin } from '../pod-admission-plugin';
import { forbiddenMessage } from '../rejected';
import type { Refusal } from '../rejected';

/** The refusal of an object in a namespace known not to exist, or null. */
export function namespaceRefusal(known: KnownObjects, namespace: string): Refusal | null {
  if (known.namespaces.has(namespace) || !known.namespacesListed) {
    return null;
  }
  return {
    stage: 'admission',
    plugin: ADMISSION_PLUGIN.NamespaceLifecycle,
    message: `namespaces "${namespace}" not found`,
  };
}

/** Whether a namespace is unknown without being known absent (the embedded cluster, a capture without Namespaces). */
export function isNamespaceAssumed(known: KnownObjects, namespace: string): boolean {
  return !known.namespaces.has(namespace) && !known.namespacesListed;
}

/** The reason of the Forbidden error for a creation in a terminating namespace. */
export function terminatingReason(namespace: string): string {
  return `unable to create new content in namespace ${namespace} because it is being terminated`;
}

/**
 * The refusal of creating an object (its group-qualified resource and name) in a terminating namespace, or null.
 * Namespaces themselves are never refused here.
 */
export function terminatingRefusal(
  known: Pick<KnownObjects, 'terminatingNamespaces'>,
  namespace: string,
  object: { readonly kind: string; readonly resource: string; readonly name: string },
): Refusal | null {
  if (object.kind === 'Namespace' || !known.terminatingNamespaces.has(namespace)) {
    return null;
  }
  return {
    stage: 'admission',
    plugin: ADMISSION_PLUGIN.NamespaceLifecycle,
    message: forbiddenMessage(object.resource, object.name, terminatingReason(namespace)),
  };
}

/** NamespaceLifecycle for the pods controllers create: none in a terminating namespace. */
export function namespaceLifecyclePlugin(
  known: Pick<KnownObjects, 'terminatingNamespaces'>,
): PodAdmissionPlugin {
  return {
    name: ADMISSION_PLUGIN.NamespaceLifecycle,
    validate(pod) {
      const metadata = pod['metadata'];
      const namespace =
        typeof metadata === 'object' &&
        metadata !== null &&
        typeof (metadata as Record<string, unknown>)['namespace'] === 'string'
          ? ((metadata as Record<string, unknown>)['namespace'] as string)
          : 'default';
      return known.terminatingNamespaces.has(namespace)
        ? { reason: terminatingReason(namespace), path: ['metadata', 'namespace'] }
        : null;
    },
  };
}
