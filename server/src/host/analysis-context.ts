/**
 * Builds the AnalysisContext for a Kubernetes version: the schemas, the API history, and the rules.
 * Contexts are cached per version; the context key changes with anything that changes results.
 */
import type { AnalysisContext } from '../language/analyzer';
import type { ApiVersionCheck } from '../language/kubernetes/api-version-check';
import { loadApiVersionsDocument, loadSchemaStore } from './schema-files';
import { createApiVersionCheck } from '../language/kubernetes/api-version-history';
import { OBJECT_RULES } from '../language/rules';
import { checkEnumValues } from '../language/schema/enum-values';

const contexts = new Map<string, AnalysisContext>();

/** The analysis context for a version and file-size limit (in characters). */
export function getAnalysisContext(kubernetesVersion: string, maxFileLength: number): AnalysisContext {
  const key = `${kubernetesVersion}|${maxFileLength}`;
  let context = contexts.get(key);
  if (context === undefined) {
    const store = loadSchemaStore(kubernetesVersion);
    const apiVersions: ApiVersionCheck = createApiVersionCheck(loadApiVersionsDocument(), kubernetesVersion);
    context = { key, store, apiVersions, rules: [...OBJECT_RULES, checkEnumValues], maxFileLength };
    contexts.set(key, context);
  }
  return context;
}
