import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_DIR, summariseFixture } from './fixture-summary';
import type { FixtureSummary } from './fixture-summary';

// Scenario tests: real YAML in test/fixtures/engine/<case>/, the expected summary beside it (expected.json,
// changed only by update-fixtures.ts). Each scenario runs twice to prove the result is identical.

// timeline/ holds the timeline's own fixtures (test/engine/scenario).
const CASES = readdirSync(FIXTURES_DIR)
  .filter((name) => name !== 'timeline' && statSync(join(FIXTURES_DIR, name)).isDirectory())
  .sort();

describe('engine fixture scenarios', () => {
  for (const name of CASES) {
    test(`scenario ${name} matches its expected summary, identically on two runs`, () => {
      const expected = JSON.parse(
        readFileSync(join(FIXTURES_DIR, name, 'expected.json'), 'utf8'),
      ) as FixtureSummary;
      const first = summariseFixture(name);
      assert.deepEqual(first, expected);
      assert.deepEqual(summariseFixture(name), first);
    });
  }
});
