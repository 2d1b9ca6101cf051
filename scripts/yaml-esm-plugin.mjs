// An esbuild plugin for the bundles that parse YAML (server, CLI, prediction worker, benchmarks): it bundles the
// yaml package's ES module build (yaml/browser/dist) instead of its CommonJS build (yaml/dist), which Node's
// resolution picks.
//
// Why, measured on `foresight validate` of 10,000 resources:
// - A CommonJS module is reached through getters: esbuild wraps it with __toESM, so every `isScalar(node)` or
//   `isMap(node)` of ours is a property getter call on the module object, which V8 does not inline. The getters
//   alone were about 225 ms of the run's 4.6 s of CPU (most in the node census of every document).
// - The CommonJS Parser and Composer read process.env.LOG_TOKENS and process.env.LOG_STREAM (the package's own
//   debugging switches) once per token, through the C++ environment each time (about 12% of an analysis when
//   first measured). The ES module build has no such reads.
// The two builds hold the same code (the package compiles both from one source); the only difference that
// reaches Node is the YAML 1.1 !!binary tag, which the CommonJS build reads into a Buffer and the ES module
// build into a Uint8Array, and nothing here parses with the 1.1 schema.
// The build fails if the ES module build moves or starts reading process.env (a yaml upgrade), so the saving is
// never lost silently.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The yaml package's ES module entry, checked once per build. */
function esmEntry() {
  const root = dirname(require.resolve('yaml/package.json'));
  const entry = join(root, 'browser', 'index.js');
  const reads = [];
  const visit = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        visit(path);
      } else if (name.endsWith('.js') && readFileSync(path, 'utf8').includes('process.env')) {
        reads.push(path);
      }
    }
  };
  visit(join(root, 'browser'));
  if (reads.length > 0) {
    throw new Error(
      `yaml's ES module build reads process.env (${reads.join(', ')}): update scripts/yaml-esm-plugin.mjs`,
    );
  }
  return entry;
}

/** @type {import('esbuild').Plugin} */
export const yamlEsmPlugin = {
  name: 'yaml-esm',
  setup(build) {
    const entry = esmEntry();
    build.onResolve({ filter: /^yaml$/ }, () => ({ path: entry }));
  },
};
