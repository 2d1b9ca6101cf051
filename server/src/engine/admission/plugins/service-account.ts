/**
 * ServiceAccount (plugin/pkg/admission/serviceaccount/admission.go): a pod's spec.serviceAccountName (default
 * "default") must name a service account of its namespace, else the pod is refused: "error looking up service
 * account <namespace>/<name>: serviceaccount "<name>" not found". Absence is only certain when the cluster file
 * lists ServiceAccounts (known-objects.ts); otherwise the service account is assumed to exist. Token volume
 * mounting and image pull secrets change no prediction and are left out.
 */
import { isRecord } from '../../model/objects';
import type { KnownObjects } from '../known-objects';
import { DEFAULT_SERVICE_ACCOUNT, hasServiceAccount } from '../known-objects';
import { ADMISSION_PLUGIN } from '../names';
import type { PodAdmissionPlugin } from '../pod-admission-plugin';

/** The ServiceAccount plugin over the known service accounts. */
export function serviceAccountPlugin(known: KnownObjects): PodAdmissionPlugin {
  return {
    name: ADMISSION_PLUGIN.ServiceAccount,
    validate(pod) {
      if (!known.serviceAccountsListed) {
        return null;
      }
      const metadata = isRecord(pod['metadata']) ? pod['metadata'] : {};
      const spec = isRecord(pod['spec']) ? pod['spec'] : {};
      const namespace = typeof metadata['namespace'] === 'string' ? metadata['namespace'] : 'default';
      const name =
        typeof spec['serviceAccountName'] === 'string' && spec['serviceAccountName'] !== ''
          ? spec['serviceAccountName']
          : DEFAULT_SERVICE_ACCOUNT;
      if (hasServiceAccount(known, namespace, name)) {
        return null;
      }
      return {
        reason: `error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found`,
        path: ['spec', 'serviceAccountName'],
      };
    },
  };
}
