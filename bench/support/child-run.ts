/**
 * Runs a benchmark body in a fresh Node process and reports what the process itself cost: wall time from spawn
 * to exit, CPU time and peak resident memory (VmHWM) read inside the child as it exits, by a preloaded hook.
 * Bodies written in TypeScript are bundled with esbuild first, as dist/ bundles the engine (tsx's per-file
 * transform would measure the loader, not the engine).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build, buildSync } from 'esbuild';
import type { BuildOptions } from 'esbuild';
import { yamlEsmPlugin } from '../../scripts/yaml-esm-plugin.mjs';

const EXIT_MARKER = 'BENCH_EXIT ';

/** Loaded with --require in the child: on exit, writes its CPU time and VmHWM to stderr, synchronously. */
const EXIT_HOOK = `'use strict';
const fs = require('fs');
process.on('exit', () => {
  const cpu = process.cpuUsage();
  let peakKb = NaN;
  try {
    const match = /^VmHWM:\\s+(\\d+)\\s+kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (match) peakKb = Number(match[1]);
  } catch (error) {}
  fs.writeSync(2, '\\n${EXIT_MARKER}' + JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, peakKb }) + '\\n');
});
`;

let scratch: string | undefined;

function scratchDir(): string {
  scratch ??= mkdtempSync(join(tmpdir(), 'foresight-bench-'));
  return scratch;
}

/**
 * Bundles a TypeScript entry point into one CommonJS file for Node 20; returns its path. With `dirnameAs`, the
 * bundle's `__dirname` is that folder, so code that finds its files beside the bundle (the schemas, beside
 * dist/) finds them as it does in dist/.
 */
export function bundleEntry(entry: string, dirnameAs?: string): string {
  const options = bundleOptions(entry, dirnameAs);
  buildSync(options);
  return options.outfile;
}

/**
 * bundleEntry for bodies that parse YAML: bundled with the plugin dist/server.js and dist/cli.js are built with
 * (scripts/yaml-esm-plugin.mjs), so they parse as fast as the server does. Plugins need esbuild's
 * asynchronous build.
 */
export async function bundleYamlEntry(entry: string, dirnameAs?: string): Promise<string> {
  const options = bundleOptions(entry, dirnameAs);
  await build({ ...options, plugins: [yamlEsmPlugin] });
  return options.outfile;
}

function bundleOptions(entry: string, dirnameAs: string | undefined): BuildOptions & { outfile: string } {
  return {
    ...(dirnameAs === undefined ? {} : { define: { __dirname: JSON.stringify(dirnameAs) } }),
    entryPoints: [entry],
    outfile: join(scratchDir(), `${entry.replace(/[^A-Za-z0-9]+/g, '-')}.js`),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
  };
}

/** What a child process printed and cost. */
export interface ChildRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssMiB: number;
}

/** Runs `node <script> ...args` with the exit hook; resolves when it exits (whatever its exit code). */
export function runNode(
  script: string,
  args: readonly string[],
  cwd?: string,
  env?: Readonly<Record<string, string>>,
): Promise<ChildRun> {
  const hook = join(scratchDir(), 'exit-hook.cjs');
  writeFileSync(hook, EXIT_HOOK);
  const started = performance.now();
  const child = spawn(process.execPath, ['--require', hook, script, ...args], {
    cwd,
    env: env === undefined ? process.env : { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => {
      const wallMs = performance.now() - started;
      // Node prints an uncaught error after the exit hook ran: keep whatever surrounds the marker line.
      const errors = Buffer.concat(stderr).toString();
      const markerAt = errors.lastIndexOf(`\n${EXIT_MARKER}`);
      const markerEnd = markerAt < 0 ? -1 : errors.indexOf('\n', markerAt + 1);
      const markerLine =
        markerAt < 0 ? '' : errors.slice(markerAt + 1, markerEnd < 0 ? undefined : markerEnd);
      const exit =
        markerAt < 0
          ? { cpuMs: NaN, peakKb: NaN }
          : (JSON.parse(markerLine.slice(EXIT_MARKER.length)) as { cpuMs: number; peakKb: number });
      resolve({
        exitCode,
        stdout: Buffer.concat(stdout).toString(),
        stderr:
          markerAt < 0 ? errors : errors.slice(0, markerAt) + (markerEnd < 0 ? '' : errors.slice(markerEnd)),
        wallMs,
        cpuMs: exit.cpuMs,
        peakRssMiB: Math.round((exit.peakKb / 1024) * 10) / 10,
      });
    });
  });
}
