/**
 * Where our language server's time goes on the side-by-side files: the analysis (YAML parse, schema validation,
 * rules) and the prediction's simulation (one run: apply, controllers, scheduler, over simulated time), on the embedded default cluster and
 * on a cluster with room for every pod. Timed in a fresh process per size (bench/support/server-phases-run.ts,
 * bundled as dist/ bundles the server), without LSP, after a warm-up.
 */
import { join } from 'node:path';
import { bundleYamlEntry, runNode } from './support/child-run';

/** The phases of one file size, medians in milliseconds; null where the server would not simulate. */
export interface PhaseResult {
  readonly resources: number;
  readonly analysisMs: number;
  readonly simulateDefaultClusterMs: number | null;
  readonly roomyClusterNodes: number;
  readonly simulateRoomyClusterMs: number | null;
  readonly pendingOnDefaultCluster: number | null;
}

/** Times the phases for each size. */
export async function benchServerPhases(
  sizes: readonly number[],
  repeats: number,
  log: (line: string) => void,
): Promise<PhaseResult[]> {
  // The bundle's __dirname is dist/, so it finds the schemas as dist/server.js does.
  const script = await bundleYamlEntry(
    join(__dirname, 'support', 'server-phases-run.ts'),
    join(__dirname, '..', 'dist'),
  );
  const results: PhaseResult[] = [];
  for (const size of sizes) {
    const run = await runNode(script, [String(size), String(repeats)]);
    if (run.exitCode !== 0) {
      throw new Error(
        `server phases for ${size} resources exited with ${String(run.exitCode)}: ${run.stderr}`,
      );
    }
    const result = JSON.parse(run.stdout.trim()) as PhaseResult;
    results.push(result);
    log(
      `${size} resources: analysis ${Math.round(result.analysisMs)} ms, simulation ${String(
        result.simulateDefaultClusterMs === null ? '–' : Math.round(result.simulateDefaultClusterMs),
      )} ms on the default cluster`,
    );
  }
  return results;
}
