/**
 * Scheduler throughput with PodTopologySpread and InterPodAffinity at work: workloads of 50 replicas whose pods
 * spread over 3 zones (DoNotSchedule, maxSkew 1) and over hostnames (ScheduleAnyway, maxSkew 2), with required
 * anti-affinity to their own replicas per hostname, owned by ReplicaSets the cluster knows. 10,000 and 50,000
 * pods on 1,000 and 5,000 nodes, default profile, adaptive percentageOfNodesToScore. Prints pods/s and peak
 * memory per run. Not a test:
 *   npx tsx bench/scheduler-affinity.ts                 every default run
 *   npx tsx bench/scheduler-affinity.ts 5000,50000      one run: nodes,pods
 * Bundled with esbuild and run in a fresh process per size, as bench/scheduler.ts does (and for the same reasons).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

const DEFAULT_RUNS: readonly string[] = ['1000,10000', '5000,10000', '1000,50000', '5000,50000'];

const outfile = join(mkdtempSync(join(tmpdir(), 'foresight-bench-')), 'scheduler-affinity-run.js');
buildSync({
  entryPoints: [join(__dirname, 'scheduler-affinity-run.ts')],
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
