/**
 * Loads the generated schemas (schemas/kubernetes/) from disk, once per Kubernetes version. The bundled server
 * (dist/server.js) and CLI (dist/cli.js) find them at ../schemas; run from source, at ../../schemas.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubernetesSchemaBundle } from '../language/schema/schema-store';
import { SchemaStore } from '../language/schema/schema-store';

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

/** The schema store of a Kubernetes version, loaded on first use. */
export function loadSchemaStore(kubernetesVersion: string): SchemaStore {
  let store = stores.get(kubernetesVersion);
  if (store === undefined) {
    const file = join(findSchemasDirectory(), 'kubernetes', `${kubernetesVersion}.json`);
    const bundle = JSON.parse(readFileSync(file, 'utf8')) as KubernetesSchemaBundle;
    store = new SchemaStore(bundle);
    stores.set(kubernetesVersion, store);
  }
  return store;
}

/** The parsed schemas/kubernetes/api-versions.json (which kinds each version served). */
export function loadApiVersionsDocument(): unknown {
  if (apiVersionsDocument === undefined) {
    apiVersionsDocument = JSON.parse(
      readFileSync(join(findSchemasDirectory(), 'kubernetes', 'api-versions.json'), 'utf8'),
    ) as unknown;
  }
  return apiVersionsDocument;
}
