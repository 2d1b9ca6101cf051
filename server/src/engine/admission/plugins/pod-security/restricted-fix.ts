/**
 * What a pod spec lacks to pass Pod Security: the fields `restricted` requires that a person can add without
 * changing anything they wrote (allowPrivilegeEscalation: false, capabilities.drop: [ALL] per container;
 * runAsNonRoot: true and seccompProfile RuntimeDefault on the pod). The additions are offered only when the spec
 * with them passes the policy's checks (evaluated again, at the same level and version); a value written
 * otherwise (privileged: true, runAsNonRoot: false, an added capability) is never changed, so such a pod gets
 * none.
 */
import { isRecord } from '../../../model/objects';
import { asJson, type Json } from './check-helpers';
import { evaluatePod } from './check-registry';
import type { LevelVersion } from './namespace-policy';

/** A field to add, relative to the pod spec: a key under the existing map at `at`, or an item to its list. */
export type SecurityAddition =
  | { readonly at: readonly (string | number)[]; readonly key: string; readonly value: unknown }
  | { readonly at: readonly (string | number)[]; readonly item: string };

/** The fields to add for the pod to pass the policy, or null when adding cannot make it pass (or it passes). */
export function restrictedAdditions(
  policy: LevelVersion,
  metadata: Json,
  spec: Json,
): SecurityAddition[] | null {
  if (policy.level === 'privileged' || evaluatePod(policy.level, policy.minor, metadata, spec).length === 0) {
    return null;
  }
  const additions: SecurityAddition[] = [];
  let unsetNonRoot = false;
  let unsetSeccomp = false;
  for (const list of ['initContainers', 'containers']) {
    const containers = Array.isArray(spec[list]) ? (spec[list] as unknown[]) : [];
    containers.forEach((container, index) => {
      if (!isRecord(container)) {
        return;
      }
      const at = [list, index];
      const context = container['securityContext'];
      unsetNonRoot ||= asJson(context)['runAsNonRoot'] === undefined;
      unsetSeccomp ||= asJson(context)['seccompProfile'] === undefined;
      if (context === undefined) {
        additions.push({
          at,
          key: 'securityContext',
          value: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        });
        return;
      }
      if (!isRecord(context)) {
        return;
      }
      const contextAt = [...at, 'securityContext'];
      if (context['allowPrivilegeEscalation'] === undefined) {
        additions.push({ at: contextAt, key: 'allowPrivilegeEscalation', value: false });
      }
      const capabilities = context['capabilities'];
      if (capabilities === undefined) {
        additions.push({ at: contextAt, key: 'capabilities', value: { drop: ['ALL'] } });
      } else if (isRecord(capabilities)) {
        const drop = capabilities['drop'];
        if (drop === undefined) {
          additions.push({ at: [...contextAt, 'capabilities'], key: 'drop', value: ['ALL'] });
        } else if (Array.isArray(drop) && !drop.includes('ALL')) {
          additions.push({ at: [...contextAt, 'capabilities', 'drop'], item: 'ALL' });
        }
      }
    });
  }
  const podContext = spec['securityContext'];
  const podFields: Record<string, unknown> = {
    ...(unsetNonRoot && asJson(podContext)['runAsNonRoot'] === undefined ? { runAsNonRoot: true } : {}),
    ...(unsetSeccomp && asJson(podContext)['seccompProfile'] === undefined
      ? { seccompProfile: { type: 'RuntimeDefault' } }
      : {}),
  };
  if (podContext === undefined) {
    if (Object.keys(podFields).length > 0) {
      additions.push({ at: [], key: 'securityContext', value: podFields });
    }
  } else if (isRecord(podContext)) {
    for (const [key, value] of Object.entries(podFields)) {
      additions.push({ at: ['securityContext'], key, value });
    }
  }
  if (additions.length === 0) {
    return null;
  }
  const fixed = withAdditions(spec, additions);
  return evaluatePod(policy.level, policy.minor, metadata, fixed).length === 0 ? additions : null;
}

/** A copy of the spec with the additions made. */
function withAdditions(spec: Json, additions: readonly SecurityAddition[]): Json {
  const copy = structuredClone(spec);
  for (const addition of additions) {
    let target: unknown = copy;
    for (const step of addition.at) {
      target =
        isRecord(target) || Array.isArray(target) ? (target as Record<string, unknown>)[step] : undefined;
    }
    if ('item' in addition) {
      if (Array.isArray(target)) {
        target.push(addition.item);
      }
    } else if (isRecord(target)) {
      target[addition.key] = structuredClone(addition.value);
    }
  }
  return copy;
}
