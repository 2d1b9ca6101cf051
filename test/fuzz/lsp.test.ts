/**
 * The server's fuzz properties (see lsp-properties.ts) over LSP with the bundled server, a fixed seed and a
 * bounded number of runs; the figures (runs, slowest answer, peak memory) are printed as test diagnostics.
 * Requires `npm run build` (npm test does it). `npm run fuzz` runs them far longer with fresh seeds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { LspSession } from '../support/lsp-session';
import { collectServerErrors, peakMemoryMiB, stopWithin } from '../robustness/lsp-support';
import { loadSeedFiles } from './inputs';
import {
  hostileTextIsAnswered,
  incrementalEditsMatchFreshOpen,
  LspFuzzStats,
  openingIsDeterministic,
} from './lsp-properties';

const SEED = 20_261_122;
const SEEDS = loadSeedFiles();

describe('fuzzing the server over LSP (fixed seed)', () => {
  let session: LspSession;
  let serverErrors: string[];
  const stats = new LspFuzzStats();
  before(async () => {
    session = await LspSession.start();
    serverErrors = collectServerErrors(session);
  });
  after(async () => {
    await stopWithin(session);
  });

  test('after incremental edits, some faster than validation, diagnostics equal a fresh open', async () => {
    await fc.assert(incrementalEditsMatchFreshOpen(session, SEEDS, stats), { seed: SEED, numRuns: 25 });
  });

  test('opening the same edited manifest twice gives the same diagnostics', async () => {
    await fc.assert(openingIsDeterministic(session, SEEDS, stats), { seed: SEED, numRuns: 15 });
  });

  test('hostile text is answered: diagnostics, hover, completion and outline', async () => {
    await fc.assert(hostileTextIsAnswered(session, stats), { seed: SEED, numRuns: 40 });
  });

  test('no unexpected error was logged, the server is alive and its peak memory bounded', (t) => {
    const peak = peakMemoryMiB(session);
    t.diagnostic(
      `${stats.iterations} runs, ${stats.edits} edits; slowest answer ${stats.slowest.ms.toFixed(0)} ms (${stats.slowest.what}); server peak memory ${peak.toFixed(0)} MiB`,
    );
    assert.deepEqual(serverErrors, []);
    assert.ok(session.isAlive);
    assert.ok(peak < 1_024, `peak ${peak.toFixed(0)} MiB`);
  });
});
