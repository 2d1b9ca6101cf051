/**
 * Rewrites test/fixtures/engine/timeline/<case>/expected.txt from the current engine. Run on purpose only, then
 * review the diff: `npx tsx test/engine/scenario/update-timeline-fixtures.ts [case...]`.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TIMELINE_FIXTURES_DIR, simulateFixture, summariseTimeline } from './timeline-summary';

const only = process.argv.slice(2);
for (const name of readdirSync(TIMELINE_FIXTURES_DIR).sort()) {
  if (
    !statSync(join(TIMELINE_FIXTURES_DIR, name)).isDirectory() ||
    (only.length > 0 && !only.includes(name))
  ) {
    continue;
  }
  writeFileSync(join(TIMELINE_FIXTURES_DIR, name, 'expected.txt'), summariseTimeline(simulateFixture(name)));
  console.log(`updated ${name}/expected.txt`);
}
