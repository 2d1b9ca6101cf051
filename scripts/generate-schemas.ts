/**
 * `npm run schemas`: generates schemas/kubernetes/ from the Kubernetes OpenAPI v3 documents
 * (../shared/kubernetes-openapi/v3, or $KUBE_OPENAPI_DIR):
 * - <minor>.json for each version in SCHEMA_VERSIONS: the JSON Schema the language server validates with;
 * - api-versions.json: which apiVersion/kind pairs each version 1.23+ serves, removals and deprecations.
 * The output is committed and byte-identical from run to run, so a fresh clone needs no generation.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { VersionInput } from './schemas/api-versions';
import { buildApiVersions } from './schemas/api-versions';
import type { JsonObject, JsonValue } from './schemas/json';
import { stringifyStable } from './schemas/json';
import { listVersions, readDefinitions, resolveOpenApiRoot } from './schemas/read-openapi';
import { buildVersionSchema } from './schemas/version-schema';

/** The versions whose schemas ship with the extension, newest last (protocol/settings.ts lists the same). */
export const SCHEMA_VERSIONS = ['1.33', '1.34', '1.35'] as const;

/** Where the generated files go, relative to the project root. */
export const OUTPUT_DIR = 'schemas/kubernetes';

/** The name of the apiVersion table in OUTPUT_DIR. */
export const API_VERSIONS_FILE = 'api-versions.json';

/** The text of schemas/kubernetes/<version>.json for a version's merged OpenAPI definitions. */
export function renderVersionSchema(
  version: string,
  definitions: Readonly<Record<string, JsonObject>>,
): string {
  return stringifyStable(buildVersionSchema(version, definitions) as unknown as JsonValue);
}

/** The text of schemas/kubernetes/api-versions.json for the definitions of every version. */
export function renderApiVersions(inputs: readonly VersionInput[]): string {
  return stringifyStable(buildApiVersions(inputs) as unknown as JsonValue);
}

function main(): void {
  const projectRoot = resolve(__dirname, '..');
  const openApiRoot = resolveOpenApiRoot(projectRoot);
  const outputDir = join(projectRoot, OUTPUT_DIR);
  const versions = listVersions(openApiRoot);
  const missing = SCHEMA_VERSIONS.filter((version) => !versions.includes(version));
  if (missing.length > 0) {
    throw new Error(`no OpenAPI documents for ${missing.join(', ')} under ${openApiRoot}`);
  }
  mkdirSync(outputDir, { recursive: true });
  const inputs = versions.map((version) => readDefinitions(openApiRoot, version));
  for (const input of inputs) {
    if (input.conflicts.length > 0) {
      console.log(
        `${input.version}: ${input.conflicts.length} definitions differ between documents; kept the first`,
      );
    }
  }
  for (const version of SCHEMA_VERSIONS) {
    const input = inputs.find((candidate) => candidate.version === version);
    write(
      join(outputDir, `${version}.json`),
      renderVersionSchema(version, input?.definitions ?? {}),
      projectRoot,
    );
  }
  write(join(outputDir, API_VERSIONS_FILE), renderApiVersions(inputs), projectRoot);
}

function write(file: string, text: string, projectRoot: string): void {
  writeFileSync(file, text);
  console.log(`wrote ${relative(projectRoot, file)} (${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB)`);
}

if (require.main === module) {
  main();
}
