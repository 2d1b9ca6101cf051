// Runs a TypeScript module of the project in the build's own process and returns its exports: bundled by esbuild
// in memory (CommonJS, for Node), then evaluated with a require relative to the module. The build scripts use it
// to run the project's own code at build time (the validators' generator, the code cache's writer), so that build
// and run time share one implementation.
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';

/** The exports of the TypeScript module `entry` (an absolute path). */
export async function loadTsModule(entry) {
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
  return loaded.exports;
}
