/**
 * `npm run fuzz`: the long fuzz run. The same properties as test/fuzz/ (which npm test runs with a fixed seed
 * and a few runs), with many more runs and a fresh seed, in-process and over LSP against dist/server.js.
 * Prints the figures: runs per property, failures with the seed and path that replay them, the slowest
 * answer and the server's peak memory.
 *
 * Usage: npm run fuzz -- [--seed N] [--scale K]   (K multiplies the run counts; default 1, about 5 minutes)
 */
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { getAnalysisContext } from '../test/support/language-service';
import {
  analysisIsDeterministic,
  hostileTextIsHandled,
  incrementalEqualsFresh,
  stoppedRunsConverge,
} from '../test/fuzz/analyzer-properties';
import { loadEngineSeeds, mutatedInputIsSimulated } from '../test/fuzz/engine-properties';
import { loadSeedFiles } from '../test/fuzz/inputs';
import {
  hostileTextIsAnswered,
  incrementalEditsMatchFreshOpen,
  LspFuzzStats,
  openingIsDeterministic,
} from '../test/fuzz/lsp-properties';
import { collectServerErrors, peakMemoryMiB, stopWithin } from '../test/robustness/lsp-support';
import { LspSession } from '../test/support/lsp-session';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

const seed = Number(option('--seed') ?? Date.now() % 2_147_483_647);
const scale = Number(option('--scale') ?? 1);
let failures = 0;

/** Checks one property, printing its outcome; a failure is counted, not thrown, so the others still run. */
async function check(
  name: string,
  runs: number,
  run: (parameters: fc.Parameters<unknown>) => Promise<void> | void,
): Promise<void> {
  const numRuns = Math.max(1, Math.round(runs * scale));
  const started = performance.now();
  try {
    await run({ seed, numRuns });
    console.log(`ok    ${name}: ${numRuns} runs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (error: unknown) {
    failures++;
    // fast-check keeps the property's own error (assertion, timeout) as the cause of its report.
    const cause =
      error instanceof Error && error.cause instanceof Error ? `\ncause: ${error.cause.message}` : '';
    console.log(`FAIL  ${name}: ${error instanceof Error ? error.message : String(error)}${cause}`);
  }
}

async function main(): Promise<void> {
  console.log(`fuzz seed ${seed}, scale ${scale}`);
  const context = getAnalysisContext('1.35', 8192 * 1024);
  const seeds = loadSeedFiles();
  await check('in-process: edits, cached analysis equals fresh', 3_000, (p) =>
    fc.assert(incrementalEqualsFresh(seeds, context), p),
  );
  await check('in-process: analysis is deterministic', 2_000, (p) =>
    fc.assert(analysisIsDeterministic(seeds, context), p),
  );
  await check('in-process: hostile text never throws', 2_000, (p) =>
    fc.assert(hostileTextIsHandled(context), p),
  );
  await check('in-process: stopped runs converge', 800, (p) =>
    fc.assert(stoppedRunsConverge(seeds, context), p),
  );
  await check('engine: mutated examples are simulated, twice alike', 1_500, (p) =>
    fc.assert(mutatedInputIsSimulated(loadEngineSeeds('examples'), 8), p),
  );
  await check('engine: every mutated seed manifest is simulated, twice alike', 150, (p) =>
    fc.assert(mutatedInputIsSimulated(loadEngineSeeds('all')), p),
  );

  const session = await LspSession.start();
  const serverErrors = collectServerErrors(session);
  const stats = new LspFuzzStats();
  await check('LSP: incremental edits equal a fresh open', 400, (p) =>
    fc.assert(incrementalEditsMatchFreshOpen(session, seeds, stats), p),
  );
  await check('LSP: opening is deterministic', 150, (p) =>
    fc.assert(openingIsDeterministic(session, seeds, stats), p),
  );
  await check('LSP: hostile text is answered', 400, (p) =>
    fc.assert(hostileTextIsAnswered(session, stats), p),
  );
  const peak = peakMemoryMiB(session);
  const alive = session.isAlive;
  await stopWithin(session);
  console.log(
    `LSP: ${stats.iterations} runs, ${stats.edits} edits; slowest answer ${stats.slowest.ms.toFixed(0)} ms (${stats.slowest.what}); server peak memory (VmHWM) ${peak.toFixed(0)} MiB; alive ${String(alive)}`,
  );
  if (serverErrors.length > 0) {
    failures++;
    console.log(
      `FAIL  the server logged ${serverErrors.length} unexpected errors, the first:\n${serverErrors[0] ?? ''}`,
    );
  }
  if (!alive) {
    failures++;
  }
  console.log(
    failures === 0 ? 'fuzz: no failure' : `fuzz: ${failures} failure(s); replay with --seed ${seed}`,
  );
  process.exitCode = failures === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
