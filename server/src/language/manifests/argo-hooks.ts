/**
 * Argo CD hooks a sync that succeeds does not create (`argocd.argoproj.io/hook`, a comma-separated list of types):
 * one that names `Skip` is never applied (gitops-engine's hook.Skip), and one whose types are only `SyncFail`
 * (created when a sync fails) or `PostDelete` (after the Application is deleted) has no phase in a sync that
 * succeeds. Such an object is left out of the prediction, with a note saying why.
 * https://argo-cd.readthedocs.io/en/stable/user-guide/resource_hooks/
 * Left out: Helm's hook annotations, which Argo CD maps onto its own.
 */
import type { ManifestObject } from '../kubernetes/manifest-object';

/** The annotation naming an object's hook types. */
export const ARGO_HOOK_ANNOTATION = 'argocd.argoproj.io/hook';

/** Why each type that a successful sync does not create is left out. */
const NOT_IN_A_SYNC: ReadonlyMap<string, string> = new Map([
  ['SyncFail', 'a SyncFail hook, which Argo CD creates only when a sync fails'],
  ['PostDelete', 'a PostDelete hook, which Argo CD creates only after the Application is deleted'],
]);

/** Why Argo CD does not create the object in a sync that succeeds; undefined when it does. */
export function argoHookLeftOut(object: ManifestObject): string | undefined {
  const metadata = object.value['metadata'];
  const annotations =
    typeof metadata === 'object' && metadata !== null
      ? (metadata as Record<string, unknown>)['annotations']
      : undefined;
  const value =
    typeof annotations === 'object' && annotations !== null
      ? (annotations as Record<string, unknown>)[ARGO_HOOK_ANNOTATION]
      : undefined;
  if (typeof value !== 'string') {
    return undefined;
  }
  const types = value
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type !== '');
  const what = `${object.kind} ${object.name ?? '(generated name)'}`;
  if (types.includes('Skip')) {
    return `${what} is marked ${ARGO_HOOK_ANNOTATION}: Skip: Argo CD does not apply it, so it is left out of this prediction`;
  }
  const reasons = types.map((type) => NOT_IN_A_SYNC.get(type));
  if (reasons.length === 0 || reasons.some((reason) => reason === undefined)) {
    return undefined;
  }
  return `${what} is only ${[...new Set(reasons)].join(' and ')}: not created in a sync that succeeds, so it is left out of this prediction`;
}
