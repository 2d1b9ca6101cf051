/**
 * The build-time half of server/src/language/schema/standalone-validators.ts: ajv's standalone code of every kind
 * of a schema bundle, wrapped as the module the store loads (`kubernetesVersion`, `schemaSha256`, `load(formats)`).
 * esbuild.mjs bundles this file, calls it for the default Kubernetes version and bundles the result (with the
 * ajv runtime helpers it requires) into dist/kubernetes-validators-<version>.js.
 *
 * The validators are compiled by the store's own ajv setup (createBundleAjv), so the code is what the store would
 * compile at run time. Schema descriptions are left out of the bundle compiled here: a validator never reads them,
 * but verbose errors carry the schema objects they came from, and the descriptions were a fifth of the module.
 * Nothing reads a description from an error (validate-object.ts reads parentSchema's property names only).
 * https://ajv.js.org/standalone.html
 */
import { _ } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import type { KubernetesSchemaBundle } from '../server/src/language/schema/schema-store';
import { createBundleAjv, BUNDLE_ID } from '../server/src/language/schema/schema-store';

/** The schema keyword dropped from the compiled copy of the bundle. */
const DESCRIPTION = 'description';

/**
 * The source of the prebuilt module of a bundle: the validators of `definitions` (default: every kind's), for the
 * schema file whose SHA-256 is `schemaSha256`.
 */
export function standaloneValidatorsSource(
  bundle: KubernetesSchemaBundle,
  schemaSha256: string,
  definitions: readonly string[] = [...new Set(Object.values(bundle.kinds))].sort(),
): string {
  const compiled: KubernetesSchemaBundle = {
    ...bundle,
    definitions: withoutDescriptions(bundle.definitions) as KubernetesSchemaBundle['definitions'],
  };
  // The standalone code reads the formats from the `formats` parameter of load(), given by the store.
  const ajv = createBundleAjv(compiled, { source: true, formats: _`formats` });
  const exported: Record<string, string> = {};
  for (const definition of definitions) {
    if (compiled.definitions[definition] === undefined) {
      throw new Error(`no definition ${definition} in the Kubernetes ${bundle.kubernetesVersion} bundle`);
    }
    ajv.addSchema({ $ref: `${BUNDLE_ID}#/definitions/${definition}` }, definition);
    exported[definition] = definition;
  }
  const code = standaloneCode(ajv, exported);
  return [
    "'use strict';",
    `exports.kubernetesVersion = ${JSON.stringify(bundle.kubernetesVersion)};`,
    `exports.schemaSha256 = ${JSON.stringify(schemaSha256)};`,
    // The standalone code assigns its validators to `exports`: here a fresh object per load.
    'exports.load = function load(formats) {',
    'const exports = {};',
    code,
    'return exports;',
    '};',
    '',
  ].join('\n');
}

/** A deep copy of schema JSON without "description" keywords (a property named description is kept). */
function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(withoutDescriptions);
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (key === DESCRIPTION && typeof child === 'string') {
      continue;
    }
    // Under "properties" the keys are field names, not keywords: a field named description stays.
    copy[key] =
      key === 'properties' && typeof child === 'object' && child !== null && !Array.isArray(child)
        ? Object.fromEntries(
            Object.entries(child).map(([name, schema]) => [name, withoutDescriptions(schema)]),
          )
        : withoutDescriptions(child);
  }
  return copy;
}
