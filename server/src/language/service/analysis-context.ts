/**
 * Builds the AnalysisContext for a Kubernetes version: the schemas, the API history, the rules and the kinds
 * defined by CustomResourceDefinitions among the analysed files. Contexts are cached per service; the context key
 * changes with anything that changes results, so cached document analyses are redone only when needed. The
 * schemas come from the host (dependencies.ts): this module reads no disk.
 */
import type { AnalysisContext } from '../analyzer';
import type { AnalysisOutline } from '../manifests/analysis-outline';
import type { ManifestObject } from '../kubernetes/manifest-object';
import type { ApiVersionCheck } from '../kubernetes/api-version-check';
import type { ApiServing } from '../../engine/admission/api-discovery';
import { createApiServing, createApiVersionCheck } from '../kubernetes/api-version-history';
import { buildCustomKindValidator, isCrdObject } from '../crd';
import type { CrdKindValidator } from '../crd';
import { groupOf } from '../kubernetes/pod-spec-paths';
import { OBJECT_RULES } from '../rules';
import { checkEnumValues } from '../schema/enum-values';
import type { SchemaStore } from '../schema/schema-store';
import type { SchemaSource } from './dependencies';

const MAX_CACHED_CONTEXTS = 16;

/** The analysis contexts of one service: schema stores, API histories and contexts, built once each. */
export class AnalysisContexts {
  private readonly contexts = new Map<string, AnalysisContext>();
  private readonly servings = new Map<string, ApiServing>();

  constructor(private readonly schemas: SchemaSource) {}

  /** The analysis context for a version, a file-size limit (in characters) and the workspace's CRDs. */
  contextFor(
    kubernetesVersion: string,
    maxFileLength: number,
    customKinds?: CrdKindValidator,
  ): AnalysisContext {
    const key = `${kubernetesVersion}|${maxFileLength}|${customKinds?.key ?? 'no-crds'}`;
    let context = this.contexts.get(key);
    if (context === undefined) {
      const apiVersions: ApiVersionCheck = createApiVersionCheck(
        this.schemas.apiVersionsDocument(),
        kubernetesVersion,
      );
      context = {
        key,
        store: this.storeFor(kubernetesVersion),
        apiVersions,
        rules: [...OBJECT_RULES, checkEnumValues],
        maxFileLength,
        ...(customKinds === undefined ? {} : { customKinds }),
      };
      if (this.contexts.size >= MAX_CACHED_CONTEXTS) {
        this.contexts.clear();
      }
      this.contexts.set(key, context);
    }
    return context;
  }

  /** The schema store of a version. */
  storeFor(kubernetesVersion: string): SchemaStore {
    return this.schemas.schemaStore(kubernetesVersion);
  }

  /** What the simulated API server of a Kubernetes version serves (for the engine's admission), cached. */
  apiServingFor(kubernetesVersion: string): ApiServing {
    let serving = this.servings.get(kubernetesVersion);
    if (serving === undefined) {
      serving = createApiServing(this.schemas.apiVersionsDocument(), kubernetesVersion);
      this.servings.set(kubernetesVersion, serving);
    }
    return serving;
  }
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
