/**
 * `foresight`, the command (dist/cli.js): loads the CLI bundle (dist/cli-bundle.js, built from cli.ts) with the
 * code cache the build made for it (files/code-cache.ts) and runs it. `foresight validate`'s worker threads run
 * this file too, so each loads the bundle from the cache; the bundle starts a worker's work itself when it is
 * loaded in one.
 */
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { loadWithCodeCache } from './files/code-cache';

const cli = loadWithCodeCache(join(__dirname, 'cli-bundle.js')).exports as {
  main?: (workerScript: string) => void;
};
if (isMainThread) {
  if (typeof cli.main !== 'function') {
    throw new Error('dist/cli-bundle.js exports no main: rebuild with npm run build');
  }
  cli.main(__filename);
}
