/**
 * The engine's fuzz property (see engine-properties.ts) with a fixed seed and a bounded number of runs: on the
 * examples alone (mutations land on the fields the engine reads) and on every seed file (the corpus too).
 * `npm run fuzz` runs both far longer with a fresh seed.
 */
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { loadEngineSeeds, mutatedInputIsSimulated } from './engine-properties';

const SEED = 20_261_122;

describe('fuzzing the engine (fixed seed)', () => {
  test('the examples and their cluster file, mutated at random, are simulated without an exception, twice alike', () => {
    fc.assert(mutatedInputIsSimulated(loadEngineSeeds('examples'), 8), { seed: SEED, numRuns: 80 });
  });

  test('every seed manifest (corpus included), mutated at random, is simulated without an exception', () => {
    fc.assert(mutatedInputIsSimulated(loadEngineSeeds('all')), { seed: SEED, numRuns: 25 });
  });
});
