import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { TIMELINE_FIXTURES_DIR, simulateFixture, summariseTimeline } from './timeline-summary';

// Timeline scenarios: real YAML in test/fixtures/engine/timeline/<case>/, the expected summary beside it
// (expected.txt, changed only by update-timeline-fixtures.ts). Each runs twice: the whole report (events included)
// must be identical.

const CASES = readdirSync(TIMELINE_FIXTURES_DIR)
  .filter((name) => statSync(join(TIMELINE_FIXTURES_DIR, name)).isDirectory())
  .sort();

describe('timeline fixture scenarios', () => {
  for (const name of CASES) {
    test(`scenario ${name} matches its expected summary, with identical timelines on two runs`, () => {
      const expected = readFileSync(join(TIMELINE_FIXTURES_DIR, name, 'expected.txt'), 'utf8');
      const first = simulateFixture(name);
      assert.equal(summariseTimeline(first), expected);
      const second = simulateFixture(name);
      assert.deepEqual(JSON.parse(JSON.stringify(second.report)), JSON.parse(JSON.stringify(first.report)));
    });
  }
});
