/**
 * Timeline benchmark: 1,000 nodes and 200 running Deployments of 50 replicas that all roll at once (a new image
 * for every one), the whole timeline from apply to the last pod Ready. Target: under 2 s. Not a test:
 *   npx tsx bench/timeline.ts                  the default run (1000,200,50)
 *   npx tsx bench/timeline.ts 100,20,10        one run: nodes,deployments,replicas
 * As bench/scheduler.ts does, the engine is bundled with esbuild first (as dist/ ships it) and each run gets a
 * fresh process, so the figures are the engine's and the peak memory is the run's own.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

const outfile = join(mkdtempSync(join(tmpdir(), 'foresight-bench-')), 'timeline-run.js');
buildSync({
  entryPoints: [join(__dirname, 'timeline-run.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
});
const runs = process.argv.length > 2 ? process.argv.slice(2) : ['1000,200,50'];
console.log(`node ${process.version}, ${runs.length} run(s)`);
for (const run of runs) {
  const result = spawnSync(process.execPath, [outfile, run], { stdio: 'inherit' });
  if (result.status !== 0) {
    process.exitCode = 1;
  }
}
