/**
 * The first step of `kubectl apply`, before the API server's admission: kubectl maps each object's apiVersion and
 * kind to a resource through the server's discovery. A kind the server does not serve in that version (removed,
 * like policy/v1beta1 PodDisruptionBudget in 1.25, or a custom kind whose CRD is not installed) has no mapping,
 * and kubectl refuses the object with the RESTMapper's error, which the object never gets past.
 * https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/cli-runtime/pkg/resource/mapper.go
 */
import type { Refusal } from './rejected';

/** Whether the simulated API server serves an apiVersion/kind: from the API history of the selected version. */
export type ApiServing = (apiVersion: string, kind: string) => 'served' | 'not-served' | 'unknown';

/** The refusal of an object whose kind is not served, in kubectl's words, or null when it is (or is unknown). */
export function discoveryRefusal(
  serving: ApiServing | undefined,
  object: { apiVersion: string; kind: string; name: string; namespace: string | undefined },
  file: string,
): Refusal | null {
  if (serving === undefined || serving(object.apiVersion, object.kind) !== 'not-served') {
    return null;
  }
  return {
    stage: 'discovery',
    plugin: '',
    message: `resource mapping not found for name: "${object.name}" namespace: "${object.namespace ?? ''}" from "${file}": no matches for kind "${object.kind}" in version "${object.apiVersion}"\nensure CRDs are installed first`,
  };
}
