/**
 * NamespaceLifecycle (plugin/pkg/admission/namespace/lifecycle/admission.go): an object in a namespace that does
 * not exist is refused with the NotFound error `namespaces "x" not found`. Here a namespace exists when the cluster
 * file has it (or runs something in it), the apply creates it, or it is one of the four every cluster has; its
 * absence is only certain when the cluster file lists Namespaces (known-objects.ts).
 */
import type { KnownObjects } from '../known-objects';
import { ADMISSION_PLUGIN } from '../names';
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
