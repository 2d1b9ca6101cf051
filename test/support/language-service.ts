/**
 * The language service the tests share, over the installation's schemas (as the language server and the CLI
 * build theirs), and the two lookups most tests need of it.
 */
import { createDiskLanguageService, DISK_SCHEMAS } from '../../server/src/files/schema-files';
import type {
  AnalysisContext,
  CrdKindValidator,
  LanguageService,
  SchemaStore,
} from '../../server/src/language/service';

/** One service for every test of a process (its analysis contexts are built once). */
export const TEST_SERVICE: LanguageService = createDiskLanguageService();

/** The analysis context of a version, a file-size limit and the workspace's CRD kinds. */
export function getAnalysisContext(
  kubernetesVersion: string,
  maxFileLength: number,
  customKinds?: CrdKindValidator,
): AnalysisContext {
  return TEST_SERVICE.analysisContext(kubernetesVersion, maxFileLength, customKinds);
}

/** What the simulated API server of a version serves. */
export function apiServingFor(kubernetesVersion: string): ReturnType<LanguageService['apiServing']> {
  return TEST_SERVICE.apiServing(kubernetesVersion);
}

/** The schema store of a version, as the installation's schemas give it. */
export function loadSchemaStore(kubernetesVersion: string): SchemaStore {
  return DISK_SCHEMAS.schemaStore(kubernetesVersion);
}
