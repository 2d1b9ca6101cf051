// Bundles the client, the language server, the CLI and the webview into dist/.
// tsc checks types (npm run typecheck); esbuild only bundles.
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';
import { yamlEsmPlugin } from './scripts/yaml-esm-plugin.mjs';
import { standaloneValidatorsBuild } from './scripts/standalone-validators-build.mjs';
import { writeCliCodeCaches, writeCodeCaches } from './scripts/code-cache-build.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node18',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
};

const builds = [
  { ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] },
  {
    ...common,
    entryPoints: ['server/src/server.ts'],
    outfile: 'dist/server.js',
    plugins: [yamlEsmPlugin],
  },
  // The prediction worker the server starts beside itself (server/src/host/prediction-worker.ts).
  {
    ...common,
    entryPoints: ['server/src/host/prediction-worker.ts'],
    outfile: 'dist/prediction-worker.js',
    plugins: [yamlEsmPlugin],
  },
  // The CLI: dist/cli.js (the command) is a small launcher that loads dist/cli-bundle.js with the code cache
  // written below (server/src/files/code-cache.ts).
  {
    ...common,
    entryPoints: ['server/src/cli.ts'],
    outfile: 'dist/cli-bundle.js',
    plugins: [yamlEsmPlugin],
  },
  {
    ...common,
    entryPoints: ['server/src/cli-launcher.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
  },
];
// The default Kubernetes version's validators, compiled now rather than by every process that validates
// (server/src/language/schema/standalone-validators.ts); the other versions still compile on first use.
builds.push(await standaloneValidatorsBuild('1.35', 'dist'));
if (existsSync('media/main.ts')) {
  builds.push({
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: ['media/main.ts'],
    outfile: 'dist/media/main.js',
  });
  // The panel's stylesheet: media/main.css and the files it @imports, bundled into one file beside the script.
  builds.push({
    bundle: true,
    entryPoints: ['media/main.css'],
    outfile: 'dist/media/main.css',
    minify: production,
    logLevel: 'warning',
  });
  // The Preview Apply panel's page (media/plan/): its own script and stylesheet beside the timeline's.
  builds.push({
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: ['media/plan/plan-main.ts'],
    outfile: 'dist/media/plan.js',
  });
  builds.push({
    bundle: true,
    entryPoints: ['media/plan/plan.css'],
    outfile: 'dist/media/plan.css',
    minify: production,
    logLevel: 'warning',
  });
}

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  // V8's code cache of the bundles the CLI loads whole, taken after the CLI bundle has validated a sample, so
  // that the validators' cache is written too. (In watch mode a rebuilt bundle's old cache no longer matches it
  // and is not used.)
  const cached = await writeCliCodeCaches();
  const validators = 'dist/kubernetes-validators-1.35.js';
  if (!cached.some((file) => file.endsWith(validators))) {
    await writeCodeCaches([validators]);
  }
}
