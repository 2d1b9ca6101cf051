/**
 * The analyzer's fuzz properties (see analyzer-properties.ts) with a fixed seed and a bounded number of runs,
 * in-process. `npm run fuzz` runs the same properties far longer with fresh seeds.
 */
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { getAnalysisContext } from '../support/language-service';
import {
  analysisIsDeterministic,
  hostileTextIsHandled,
  incrementalEqualsFresh,
  stoppedRunsConverge,
} from './analyzer-properties';
import { loadSeedFiles } from './inputs';

const SEED = 20_261_122;
const CONTEXT = getAnalysisContext('1.35', 8192 * 1024);
const SEEDS = loadSeedFiles();

describe('fuzzing the analyzer in-process (fixed seed)', () => {
  test('after any edit sequence on a real manifest, the cached analysis equals a fresh one', () => {
    fc.assert(incrementalEqualsFresh(SEEDS, CONTEXT), { seed: SEED, numRuns: 150 });
  });

  test('analysing the same edited manifest twice gives the same result', () => {
    fc.assert(analysisIsDeterministic(SEEDS, CONTEXT), { seed: SEED, numRuns: 100 });
  });

  test('hostile text (random bytes, deep nesting, alias bombs, huge scalars, many documents) never throws', () => {
    fc.assert(hostileTextIsHandled(CONTEXT), { seed: SEED, numRuns: 100 });
  });

  test('runs stopped at any pause leave a cache that still gives the fresh analysis', () => {
    fc.assert(stoppedRunsConverge(SEEDS, CONTEXT), { seed: SEED, numRuns: 40 });
  });
});
