/**
 * What the language service is given by its host (the language server, the CLI, a worker thread, a test): the
 * things that live outside the pure language layer. The service reads no disk, runs no program and keeps no
 * clock itself; each host passes these in (files/ holds the implementations that read the disk).
 */
import type { SchemaStore } from '../schema/schema-store';

/** The generated schemas (schemas/kubernetes/), read by the host. */
export interface SchemaSource {
  /**
   * The schema store of a Kubernetes version (schemas/kubernetes/<version>.json). The host keeps one per version
   * for its process: a store compiles its validators as they are used, and every service of the process shares them.
   */
  schemaStore(kubernetesVersion: string): SchemaStore;
  /** schemas/kubernetes/api-versions.json parsed: which kinds each version served. */
  apiVersionsDocument(): unknown;
}

/** Everything the service needs from outside the language layer. */
export interface ServiceDependencies {
  readonly schemas: SchemaSource;
}
