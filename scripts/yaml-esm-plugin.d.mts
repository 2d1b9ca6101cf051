import type { Plugin } from 'esbuild';

/** Bundles the yaml package's ES module build: direct calls instead of getters, and no per-token env reads. */
export declare const yamlEsmPlugin: Plugin;
