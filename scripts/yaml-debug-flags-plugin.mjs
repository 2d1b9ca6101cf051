// An esbuild plugin for the bundles that parse YAML (server, CLI, benchmarks).
//
// The yaml package's Parser and Composer read process.env.LOG_TOKENS and process.env.LOG_STREAM (its own
// debugging switches) once per token. Reading process.env goes through the C++ environment every time: on a
// 1,000-resource file that was about 12% of the whole analysis. The bundles read the flags as false instead.
// The build fails if a file no longer holds the expected reads (a yaml upgrade), so the saving is never
// lost silently.
import { readFile } from 'node:fs/promises';

/** The yaml files patched, each with the reads it must hold. */
const PATCHES = [
  { file: /[\\/]yaml[\\/]dist[\\/]parse[\\/]parser\.js$/, reads: ['node_process.env.LOG_TOKENS'] },
  { file: /[\\/]yaml[\\/]dist[\\/]compose[\\/]composer\.js$/, reads: ['node_process.env.LOG_STREAM'] },
];

/** @type {import('esbuild').Plugin} */
export const yamlDebugFlagsPlugin = {
  name: 'yaml-debug-flags',
  setup(build) {
    for (const patch of PATCHES) {
      build.onLoad({ filter: patch.file }, async (args) => {
        let contents = await readFile(args.path, 'utf8');
        for (const read of patch.reads) {
          if (!contents.includes(read)) {
            throw new Error(
              `${args.path} no longer reads ${read}: update scripts/yaml-debug-flags-plugin.mjs`,
            );
          }
          contents = contents.split(read).join('false');
        }
        return { contents, loader: 'js' };
      });
    }
  },
};
