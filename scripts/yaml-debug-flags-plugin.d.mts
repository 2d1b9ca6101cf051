import type { Plugin } from 'esbuild';

/** Bundles the yaml package with its per-token debug switches (LOG_TOKENS, LOG_STREAM) read as false. */
export declare const yamlDebugFlagsPlugin: Plugin;
