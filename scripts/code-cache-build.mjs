// Writes V8's code cache beside the bundles a process loads whole (server/src/files/code-cache.ts says why and
// how it is checked): runs that module's writeCodeCache, bundled for the purpose so that the build and the
// loader share one format.
import { resolve } from 'node:path';
import { loadTsModule } from './load-ts-module.mjs';

const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');

/** Writes FILE.cache beside each file (paths relative to the project root). */
export async function writeCodeCaches(files) {
  const { writeCodeCache } = await loadTsModule(resolve(ROOT, 'server/src/files/code-cache.ts'));
  for (const file of files) {
    writeCodeCache(resolve(ROOT, file));
  }
}
