// Writes V8's code cache beside the bundles a process loads whole (server/src/files/code-cache.ts says why and
// how it is checked): runs that module's writers, bundled for the purpose so that the build and the loader share
// one format. The CLI bundle's cache, and the validators' it loads, are written after the bundle has validated a
// sample (scripts/code-cache-sample.yaml) as a one-file run and as a run of many files do, so that they hold the
// functions such runs compile.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadTsModule } from './load-ts-module.mjs';

const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');

/** Writes FILE.cache beside each file (paths relative to the project root), compiled without running. */
export async function writeCodeCaches(files) {
  const { writeCodeCache } = await loadTsModule(resolve(ROOT, 'server/src/files/code-cache.ts'));
  for (const file of files) {
    writeCodeCache(resolve(ROOT, file));
  }
}

/**
 * Writes the caches of dist/cli-bundle.js and of the files it loads with a cache (the validators) after it has
 * validated the sample; returns the files whose caches were written.
 */
export async function writeCliCodeCaches() {
  const { writeCodeCachesAfter } = await loadTsModule(resolve(ROOT, 'server/src/files/code-cache.ts'));
  const sample = readFileSync(resolve(ROOT, 'scripts/code-cache-sample.yaml'), 'utf8');
  const folder = mkdtempSync(join(tmpdir(), 'foresight-code-cache-'));
  try {
    // 21 files: as many as validate's pool takes (server/src/cli/parallel/thread-count.ts), in this thread only.
    for (let index = 0; index < 21; index++) {
      writeFileSync(join(folder, `sample-${index}.yaml`), sample);
    }
    return await writeCodeCachesAfter(resolve(ROOT, 'dist/cli-bundle.js'), async (cli) => {
      for (const path of [join(folder, 'sample-0.yaml'), folder]) {
        let errors = '';
        const code = await cli.runCli(['validate', path], {
          stdout: () => {},
          stderr: (text) => (errors += text),
          cwd: folder,
          env: { FORESIGHT_VALIDATE_THREADS: '1' },
          workerScript: resolve(ROOT, 'dist/cli.js'),
        });
        // Exit 1 is a finding (the copies of the sample define the same objects); 2 and 3 are failures.
        if (code > 1) {
          throw new Error(`foresight validate of the code cache's sample exited ${code}: ${errors}`);
        }
      }
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
