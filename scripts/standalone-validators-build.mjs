// The esbuild build of dist/kubernetes-validators-<version>.js: runs scripts/standalone-validators.ts (bundled
// for the purpose, so it compiles with the store's own ajv setup) on schemas/kubernetes/<version>.json and
// bundles the module it returns, with the ajv runtime helpers it requires, minified.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');

/** The esbuild options that write dist/kubernetes-validators-<version>.js into `outdir`. */
export async function standaloneValidatorsBuild(version, outdir) {
  const generator = await esbuild.build({
    entryPoints: [resolve(ROOT, 'scripts/standalone-validators.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
  });
  const loaded = { exports: {} };
  const generatorRequire = createRequire(resolve(ROOT, 'scripts/standalone-validators.ts'));
  new Function('module', 'exports', 'require', generator.outputFiles[0].text)(
    loaded,
    loaded.exports,
    generatorRequire,
  );
  const schemaText = readFileSync(resolve(ROOT, 'schemas/kubernetes', `${version}.json`), 'utf8');
  const sha256 = createHash('sha256').update(schemaText).digest('hex');
  const source = loaded.exports.standaloneValidatorsSource(JSON.parse(schemaText), sha256);
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
