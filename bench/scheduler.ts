/**
 * Scheduler throughput: plain resource-fit pods (one container requesting cpu and memory) on 100, 1,000 and
 * 5,000 identical nodes, 10,000 and 50,000 pods, with the default profile and adaptive percentageOfNodesToScore.
 * Prints pods/s and peak memory (RSS and heap) per run. Not a test:
 *   npx tsx bench/scheduler.ts                 every default run
 *   npx tsx bench/scheduler.ts 5000,50000      one run: nodes,pods
 * The engine is bundled with esbuild first, as dist/ ships it (tsx's per-file transform adds getters on every
 * imported binding, which would measure the loader rather than the scheduler); each run gets a fresh process so
 * peak memory is its own.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

const DEFAULT_RUNS: readonly string[] = [
  '100,10000',
  '1000,10000',
  '5000,10000',
  '100,50000',
  '1000,50000',
  '5000,50000',
];

const outfile = join(mkdtempSync(join(tmpdir(), 'foresight-bench-')), 'scheduler-run.js');
buildSync({
  entryPoints: [join(__dirname, 'scheduler-run.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
});
const runs = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_RUNS;
console.log(`node ${process.version}, ${runs.length} run(s)`);
for (const run of runs) {
  const result = spawnSync(process.execPath, [outfile, run], { stdio: 'inherit' });
  if (result.status !== 0) {
    process.exitCode = 1;
  }
}
