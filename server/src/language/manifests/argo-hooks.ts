/**
 * Argo CD's hooks, as gitops-engine reads them (pkg/sync/hook/hook.go, hook/helm/type.go, sync_phase.go):
 *
 * - An object's hook types are the valid ones of `argocd.argoproj.io/hook` (a comma-separated list: PreSync,
 *   Sync, PostSync, SyncFail, PostDelete, Skip), else those of Helm's `helm.sh/hook` mapped onto them
 *   (pre-install and pre-upgrade are PreSync, post-install and post-upgrade PostSync).
 * - It is skipped when Skip is its only type; it is a hook when it carries `argocd.argoproj.io/hook` and is not
 *   skipped, or carries `helm.sh/hook` (but `crd-install`, which Helm calls a hook and Argo CD does not).
 * - Its sync phases: none when skipped; a hook's types among PreSync, Sync, PostSync and SyncFail; any other
 *   object's, Sync. So a hook whose types name no phase ("Garbage", a Helm `test` hook, PostDelete) is never
 *   created in a sync, and one of SyncFail only only when a sync fails.
 *
 * A sync that succeeds runs PreSync, Sync and PostSync: an object with none of these is left out of the
 * prediction, with a note saying why. The sync wave is `argocd.argoproj.io/sync-wave`, else Helm's
 * `helm.sh/hook-weight` (pkg/sync/syncwaves/waves.go), 0 when neither is an integer.
 * Left out: PostDelete hooks run after the Application is deleted, which is not simulated.
 */
import type { ManifestObject } from '../kubernetes/manifest-object';
import { recordAt } from '../rules/rule-support';

/** The annotation naming an object's Argo CD hook types. */
export const ARGO_HOOK_ANNOTATION = 'argocd.argoproj.io/hook';
const HELM_HOOK_ANNOTATION = 'helm.sh/hook';

/** common.NewHookType: the hook types gitops-engine knows. */
const ARGO_TYPES: ReadonlySet<string> = new Set([
  'PreSync',
  'Sync',
  'PostSync',
  'SyncFail',
  'PostDelete',
  'Skip',
]);

/** hook/helm/type.go hookTypes: the Helm hooks Argo CD runs, as its own types. */
const HELM_TYPES: ReadonlyMap<string, string> = new Map([
  ['pre-install', 'PreSync'],
  ['pre-upgrade', 'PreSync'],
  ['post-install', 'PostSync'],
  ['post-upgrade', 'PostSync'],
]);

/** The phases of a sync that succeeds, in order (sync_tasks.go syncPhaseOrder). */
const SUCCESSFUL_SYNC_PHASES = ['PreSync', 'Sync', 'PostSync'] as const;

/** An annotation of the object, when it is a string. */
export function annotationOf(object: ManifestObject, key: string): string | undefined {
  const value = recordAt(object.value, ['metadata', 'annotations'])?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** resource.GetAnnotationCSVs: the trimmed, non-empty values of a comma-separated annotation. */
function csvOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** hook.Types: the Argo CD types, else the Helm hooks mapped onto them. */
function hookTypesOf(object: ManifestObject): string[] {
  const argo = csvOf(annotationOf(object, ARGO_HOOK_ANNOTATION)).filter((type) => ARGO_TYPES.has(type));
  if (argo.length > 0) {
    return [...new Set(argo)];
  }
  const helm = csvOf(annotationOf(object, HELM_HOOK_ANNOTATION)).flatMap(
    (type) => HELM_TYPES.get(type) ?? [],
  );
  return [...new Set(helm)];
}

/** What gitops-engine makes of an object: skipped, a hook of these types, or a plain object (phase Sync). */
function hookOf(object: ManifestObject): { readonly skipped: boolean; readonly types: string[] | undefined } {
  const types = hookTypesOf(object);
  const skipped = types.length === 1 && types[0] === 'Skip';
  const argo = annotationOf(object, ARGO_HOOK_ANNOTATION);
  const helm = annotationOf(object, HELM_HOOK_ANNOTATION);
  const isHook = argo !== undefined ? !skipped : helm !== undefined && helm !== 'crd-install';
  return { skipped, types: isHook ? types : undefined };
}

/** The phases of a sync that succeeds the object is created in, earliest first (none: it is not created). */
export function argoSuccessfulSyncPhasesOf(object: ManifestObject): readonly string[] {
  const { skipped, types } = hookOf(object);
  if (skipped) {
    return [];
  }
  return types === undefined ? ['Sync'] : SUCCESSFUL_SYNC_PHASES.filter((phase) => types.includes(phase));
}

/** The object's sync wave: `argocd.argoproj.io/sync-wave`, else `helm.sh/hook-weight`, else 0. */
export function argoWaveOf(object: ManifestObject): number {
  for (const key of ['argocd.argoproj.io/sync-wave', 'helm.sh/hook-weight']) {
    const wave = goIntOf(annotationOf(object, key));
    if (wave !== undefined) {
      return wave;
    }
  }
  return 0;
}

/** Go's int range (64 bits), past which strconv.Atoi fails. */
const GO_INT_MIN = -(2n ** 63n);
const GO_INT_MAX = 2n ** 63n - 1n;

/**
 * strconv.Atoi: a decimal integer with an optional sign that fits Go's int, else undefined (a wave past the range
 * is not a wave). Two waves beyond 2^53 that differ only past its precision compare equal here.
 */
function goIntOf(text: string | undefined): number | undefined {
  if (text === undefined || !/^[+-]?\d+$/.test(text)) {
    return undefined;
  }
  const value = BigInt(text);
  return value < GO_INT_MIN || value > GO_INT_MAX ? undefined : Number(value);
}

/** Why Argo CD does not create the object in a sync that succeeds; undefined when it does. */
export function argoHookLeftOut(object: ManifestObject): string | undefined {
  if (argoSuccessfulSyncPhasesOf(object).length > 0) {
    return undefined;
  }
  const what = `${object.kind} ${object.name ?? '(generated name)'}`;
  const { skipped, types } = hookOf(object);
  const annotation = annotationOf(object, ARGO_HOOK_ANNOTATION);
  const said =
    annotation !== undefined
      ? `${ARGO_HOOK_ANNOTATION}: ${annotation}`
      : `${HELM_HOOK_ANNOTATION}: ${annotationOf(object, HELM_HOOK_ANNOTATION) ?? ''}`;
  const later = [
    ...(types?.includes('SyncFail') === true ? ['when a sync fails'] : []),
    ...(types?.includes('PostDelete') === true ? ['after the Application is deleted'] : []),
  ];
  const why = skipped
    ? 'Argo CD does not apply it'
    : later.length > 0
      ? `a ${(types ?? []).filter((type) => type === 'SyncFail' || type === 'PostDelete').join(' and ')} hook, Argo CD creates it only ${later.join(' or ')}`
      : 'a hook of no sync phase Argo CD knows, it is never created in a sync';
  return `${what} is marked ${said}: ${why}, so it is left out of this prediction`;
}
