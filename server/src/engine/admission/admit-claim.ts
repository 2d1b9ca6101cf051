/**
 * The API server's admission of a PersistentVolumeClaim that a controller creates (a StatefulSet's
 * volumeClaimTemplates), as for the apply's own claims (admit-manifests.ts): DefaultStorageClass has given it a
 * class, then LimitRanger checks its storage request against the namespace's PersistentVolumeClaim items, and
 * ResourceQuota (last) counts it (persistentvolumeclaims, requests.storage, the class's quotas). The apply and
 * the controllers share one quota ledger, so claims the apply created count against those the controllers create.
 */
import { ADMISSION_PLUGIN } from './names';
import type { KnownObjects } from './known-objects';
import { limitRangeClaimRefusal } from './plugins/limit-ranger';
import { terminatingRefusal } from './plugins/namespace-lifecycle';
import type { ObjectQuotaLedger } from './plugins/object-count-quota';
import { forbiddenMessage } from './rejected';
import type { Refusal } from './rejected';

/** Admits a controller's claim: null when created, else the API server's refusal. */
export type ClaimAdmission = (
  claim: Record<string, unknown>,
  namespace: string,
  name: string,
) => Refusal | null;

/** LimitRanger's refusal of a claim, worded as the API server's Forbidden error, or null. */
export function claimLimitRefusal(
  known: Pick<KnownObjects, 'limitRanges'>,
  claim: Record<string, unknown>,
  namespace: string,
  name: string,
): Refusal | null {
  const reason = limitRangeClaimRefusal(known.limitRanges.get(namespace) ?? [], claim);
  return reason === null
    ? null
    : {
        stage: 'admission',
        plugin: ADMISSION_PLUGIN.LimitRanger,
        message: forbiddenMessage('persistentvolumeclaims', name, reason),
      };
}

/**
 * The admission of controller-created claims over the known LimitRanges and the run's quota ledger, after
 * NamespaceLifecycle (no claim is created in a terminating namespace).
 */
export function controllerClaimAdmission(
  known: Pick<KnownObjects, 'limitRanges' | 'terminatingNamespaces'>,
  quotas: ObjectQuotaLedger,
): ClaimAdmission {
  return (claim, namespace, name) =>
    terminatingRefusal(known, namespace, {
      kind: 'PersistentVolumeClaim',
      resource: 'persistentvolumeclaims',
      name,
    }) ??
    claimLimitRefusal(known, claim, namespace, name) ??
    quotas.admit(claim, namespace);
}
