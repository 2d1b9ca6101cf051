/**
 * Rewrites test/fixtures/engine/<case>/expected.json from the current engine. Run on purpose only, then review
 * the diff: `npx tsx test/engine/simulate/update-fixtures.ts [case...]`.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_DIR, summariseFixture } from './fixture-summary';

const only = process.argv.slice(2);
for (const name of readdirSync(FIXTURES_DIR).sort()) {
  const isTimeline = name === 'timeline'; // the timeline's own fixtures (test/engine/scenario)
  if (
    isTimeline ||
    !statSync(join(FIXTURES_DIR, name)).isDirectory() ||
    (only.length > 0 && !only.includes(name))
  ) {
    continue;
  }
  writeFileSync(
    join(FIXTURES_DIR, name, 'expected.json'),
    `${JSON.stringify(summariseFixture(name), null, 2)}\n`,
  );
  console.log(`updated ${name}/expected.json`);
}
