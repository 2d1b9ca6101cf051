/**
 * The generated schemas (schemas/kubernetes/) read from disk, as the language service's SchemaSource: the
 * bundled server (dist/server.js) and CLI (dist/cli.js) find them at ../schemas; run from source, at
 * ../../schemas. Each file is read once per process, and each version's schema store is shared by the process's
 * services (a store compiles its validators as they are first used).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubernetesSchemaBundle, LanguageService, SchemaSource } from '../language/service';
import { createLanguageService, SchemaStore } from '../language/service';

const stores = new Map<string, SchemaStore>();
let apiVersionsDocument: unknown;

/** The folder holding schemas/kubernetes, found relative to this file. */
function findSchemasDirectory(): string {
  const candidates = [join(__dirname, '..', 'schemas'), join(__dirname, '..', '..', '..', 'schemas')];
  for (const candidate of candidates) {
    if (existsSync(join(candidate, 'kubernetes'))) {
      return candidate;
    }
  }
  throw new Error(
    `The schemas folder was not found (looked in ${candidates.join(', ')}); the installation is incomplete.`,
  );
}

/** The schemas of the installation, read from disk on first use. */
export const DISK_SCHEMAS: SchemaSource = {
  schemaStore(kubernetesVersion: string): SchemaStore {
    let store = stores.get(kubernetesVersion);
    if (store === undefined) {
      const file = join(findSchemasDirectory(), 'kubernetes', `${kubernetesVersion}.json`);
      store = new SchemaStore(JSON.parse(readFileSync(file, 'utf8')) as KubernetesSchemaBundle);
      stores.set(kubernetesVersion, store);
    }
    return store;
  },
  apiVersionsDocument(): unknown {
    if (apiVersionsDocument === undefined) {
      apiVersionsDocument = JSON.parse(
        readFileSync(join(findSchemasDirectory(), 'kubernetes', 'api-versions.json'), 'utf8'),
      ) as unknown;
    }
    return apiVersionsDocument;
  },
};

/** A language service over the installation's schemas: what the language server, the CLI and workers start with. */
export function createDiskLanguageService(): LanguageService {
  return createLanguageService({ schemas: DISK_SCHEMAS });
}
