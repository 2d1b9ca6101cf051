// Writes V8's code cache beside the bundles a process loads whole (server/src/files/code-cache.ts says why and
// how it is checked): runs that module's writeCodeCache, bundled for the purpose so that the build and the
// loader share one format.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');

/** Writes FILE.cache beside each file (paths relative to the project root). */
export async function writeCodeCaches(files) {
  const entry = resolve(ROOT, 'server/src/files/code-cache.ts');
  const built = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
  });
  const loaded = { exports: {} };
  new Function('module', 'exports', 'require', built.outputFiles[0].text)(
    loaded,
    loaded.exports,
    createRequire(entry),
  );
  for (const file of files) {
    loaded.exports.writeCodeCache(resolve(ROOT, file));
  }
}
