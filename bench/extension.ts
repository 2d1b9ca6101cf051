/**
 * The extension's share of activation, measured without VS Code (no build of it runs on this machine): loading
 * the client bundle in a fresh process with `vscode` stood in, plus the language server's spawn → initialize
 * round trip (from the language-server benchmark); and the size of every file in dist/.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bundleEntry, runNode } from './support/child-run';
import type { Summary } from './support/stats';
import { summarize } from './support/stats';

/** The extension section of the report. */
export interface ExtensionReport {
  readonly clientLoadMs: Summary;
  readonly bundleFiles: { readonly path: string; readonly kib: number }[];
}

const DIST = join(__dirname, '..', 'dist');

function listFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? listFiles(path) : [path];
    });
}

/** Measures the client bundle's load time (`repeats` fresh processes after one warm-up) and dist/ sizes. */
export async function benchExtension(repeats: number, log: (line: string) => void): Promise<ExtensionReport> {
  const script = bundleEntry(join(__dirname, 'support', 'client-load-run.ts'));
  const client = join(DIST, 'client.js');
  const times: number[] = [];
  for (let i = 0; i <= repeats; i++) {
    const run = await runNode(script, [client]);
    const result = JSON.parse(run.stdout.trim() || '{}') as { loadMs?: number; exportsActivate?: boolean };
    if (run.exitCode !== 0 || result.exportsActivate !== true || result.loadMs === undefined) {
      throw new Error(`loading dist/client.js failed: ${run.stderr.slice(-2000)}`);
    }
    if (i > 0) {
      times.push(result.loadMs);
    }
  }
  const report: ExtensionReport = {
    clientLoadMs: summarize(times),
    bundleFiles: listFiles(DIST).map((path) => ({
      path: relative(join(DIST, '..'), path),
      kib: Math.round(statSync(path).size / 1024),
    })),
  };
  log(`client bundle load ${report.clientLoadMs.median.toFixed(1)} ms`);
  return report;
}
