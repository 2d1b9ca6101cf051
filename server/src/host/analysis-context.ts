/**
 * Builds the AnalysisContext for a Kubernetes version: the schemas, the API history, the rules and the kinds
 * defined by CustomResourceDefinitions among the analysed files. Contexts are cached; the context key changes
 * with anything that changes results, so cached document analyses are redone only when needed.
 */
import type { AnalysisContext } from '../language/analyzer';
import type { AnalysisOutline } from '../language/manifests/analysis-outline';
import type { ManifestObject } from '../language/kubernetes/manifest-object';
import type { ApiVersionCheck } from '../language/kubernetes/api-version-check';
import type { ApiServing } from '../engine/admission/api-discovery';
import { createApiServing, createApiVersionCheck } from '../language/kubernetes/api-version-history';
import { buildCustomKindValidator, isCrdObject } from '../language/crd';
import type { CrdKindValidator } from '../language/crd';
import { groupOf } from '../language/kubernetes/pod-spec-paths';
import { OBJECT_RULES } from '../language/rules';
import { checkEnumValues } from '../language/schema/enum-values';
import { loadApiVersionsDocument, loadSchemaStore } from './schema-files';

const contexts = new Map<string, AnalysisContext>();
const MAX_CACHED_CONTEXTS = 16;

/** The analysis context for a version, a file-size limit (in characters) and the workspace's CRDs. */
export function getAnalysisContext(
  kubernetesVersion: string,
  maxFileLength: number,
  customKinds?: CrdKindValidator,
): AnalysisContext {
  const key = `${kubernetesVersion}|${maxFileLength}|${customKinds?.key ?? 'no-crds'}`;
  let context = contexts.get(key);
  if (context === undefined) {
    const store = loadSchemaStore(kubernetesVersion);
    const apiVersions: ApiVersionCheck = createApiVersionCheck(loadApiVersionsDocument(), kubernetesVersion);
    context = {
      key,
      store,
      apiVersions,
      rules: [...OBJECT_RULES, checkEnumValues],
      maxFileLength,
      ...(customKinds === undefined ? {} : { customKinds }),
    };
    if (contexts.size >= MAX_CACHED_CONTEXTS) {
      contexts.clear();
    }
    contexts.set(key, context);
  }
  return context;
}

/** The validator of the kinds defined by the CRDs among analysed files, or undefined when there are none. */
export function customKindsOf(analyses: readonly AnalysisOutline[]): CrdKindValidator | undefined {
  const crds = crdObjectsOf(analyses);
  return crds.length === 0 ? undefined : buildCustomKindValidator(crds);
}

/**
 * The CustomResourceDefinitions among analysed files, in order: customKindsOf builds its validator from them, and
 * `foresight validate` sends them to its worker threads to build the same validator there.
 */
export function crdObjectsOf(analyses: readonly AnalysisOutline[]): ManifestObject[] {
  return analyses.flatMap((analysis) =>
    analysis.documents.flatMap((document) => document.objects.filter((object) => isCrdObject(object))),
  );
}

/**
 * Whether a file holds an object of a kind the CRDs define: only such a file reads differently once the CRDs are
 * known (its custom resources are validated instead of reported as unknown), so only it is analysed again.
 */
export function usesCustomKinds(analysis: AnalysisOutline, customKinds: CrdKindValidator): boolean {
  const kinds = new Set(customKinds.kinds);
  return analysis.documents.some((document) =>
    document.objects.some((object) => kinds.has(`${groupOf(object.apiVersion)}/${object.kind}`)),
  );
}

const servings = new Map<string, ApiServing>();

/** What the simulated API server of a Kubernetes version serves (for the engine's admission), cached. */
export function apiServingFor(kubernetesVersion: string): ApiServing {
  let serving = servings.get(kubernetesVersion);
  if (serving === undefined) {
    serving = createApiServing(loadApiVersionsDocument(), kubernetesVersion);
    servings.set(kubernetesVersion, serving);
  }
  return serving;
}
