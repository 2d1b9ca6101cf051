// The esbuild build of dist/kubernetes-validators-<version>.js: runs scripts/standalone-validators.ts (bundled
// for the purpose, so it compiles with the store's own ajv setup) on schemas/kubernetes/<version>.json and
// bundles the module it returns, with the ajv runtime helpers it requires, minified.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadTsModule } from './load-ts-module.mjs';

const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');

/** The esbuild options that write dist/kubernetes-validators-<version>.js into `outdir`. */
export async function standaloneValidatorsBuild(version, outdir) {
  const generator = await loadTsModule(resolve(ROOT, 'scripts/standalone-validators.ts'));
  const schemaText = readFileSync(resolve(ROOT, 'schemas/kubernetes', `${version}.json`), 'utf8');
  const sha256 = createHash('sha256').update(schemaText).digest('hex');
  const source = generator.standaloneValidatorsSource(JSON.parse(schemaText), sha256);
  return {
    stdin: {
      contents: source,
      resolveDir: ROOT,
      sourcefile: `kubernetes-validators-${version}.js`,
      loader: 'js',
    },
    outfile: `${outdir}/kubernetes-validators-${version}.js`,
    bundle: true,
    platform: 'node',
    target: 'node18',
    format: 'cjs',
    minify: true,
    logLevel: 'warning',
  };
}
