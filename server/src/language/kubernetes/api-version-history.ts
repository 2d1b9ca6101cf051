/**
 * Adapts the API history (schema/api-versions.ts, over schemas/kubernetes/api-versions.json) to the verdicts
 * the analyzer reports, for one selected Kubernetes version.
 */
import type { ApiVersionsFile, Replacement } from '../schema/api-versions';
import { createApiVersionIndex } from '../schema/api-versions';
import type { ApiServing } from '../../engine/admission/api-discovery';
import type { ApiVersionCheck, ApiVersionVerdict } from './api-version-check';

/** The check of apiVersion and kind against the history, in one Kubernetes version. */
export function createApiVersionCheck(document: unknown, kubernetesVersion: string): ApiVersionCheck {
  const index = createApiVersionIndex(document as ApiVersionsFile);
  return (apiVersion, kind): ApiVersionVerdict => {
    const status = index.check(apiVersion, kind, kubernetesVersion);
    switch (status.status) {
      case 'served':
        if (status.deprecation === undefined) {
          return { status: 'served' };
        }
        return {
          status: 'deprecated',
          note: status.deprecation.message,
          ...(status.deprecation.replacement === undefined
            ? {}
            : { replacement: describe(status.deprecation.replacement, kind) }),
        };
      case 'removed':
        return {
          status: 'removed',
          removedIn: status.removedIn,
          isMechanical: status.replacement?.isMechanical === true && status.replacement.kind === kind,
          ...(status.replacement === undefined ? {} : { replacement: status.replacement.apiVersion }),
        };
      case 'notYetServed':
        return { status: 'notYetServed', introducedIn: status.introducedIn };
      case 'unknownKind':
      case 'unknownApiVersion':
      case 'unknown':
        return { status: 'unknown' };
    }
  };
}

/**
 * What the simulated API server serves, for the engine's admission (kubectl's REST mapping): a built-in
 * apiVersion/kind that is removed, not yet served or unknown to its group is not served; a kind of another group
 * (a custom resource) is unknown, since its CRD may be installed in the cluster.
 */
export function createApiServing(document: unknown, kubernetesVersion: string): ApiServing {
  const index = createApiVersionIndex(document as ApiVersionsFile);
  return (apiVersion, kind) => {
    const status = index.check(apiVersion, kind, kubernetesVersion).status;
    return status === 'served' ? 'served' : status === 'unknown' ? 'unknown' : 'not-served';
  };
}

function describe(replacement: Replacement, kind: string): string {
  return replacement.kind === kind ? replacement.apiVersion : `${replacement.apiVersion} ${replacement.kind}`;
}
