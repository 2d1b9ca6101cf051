import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BENCH_PAGE,
  BENCH_SOURCE,
  benchCommit,
  GENERATED_END,
  GENERATED_START,
  renderBenchmarksPage,
} from '../../bench/docs-page';
import { ROOT } from './markdown';

// docs/benchmarks.md says which run of bench/results it shows, its generated part is what that run gives
// (bench/docs-page.ts), and its hand-written summary names the same run.

const PAGE = readFileSync(join(ROOT, BENCH_PAGE), 'utf8');
const RESULTS = readFileSync(join(ROOT, BENCH_SOURCE), 'utf8');

describe('docs/benchmarks.md', () => {
  test('says it comes from bench/results/latest.md, and from which commit', () => {
    const commit = benchCommit(RESULTS);
    assert.ok(commit !== undefined, `${BENCH_SOURCE} names no commit`);
    const marker = PAGE.split('\n').find((line) => line.startsWith(GENERATED_START));
    assert.ok(marker?.includes(`commit ${commit}`), `the marker line: ${marker}`);
    assert.ok(PAGE.includes(`Copied from [${BENCH_SOURCE}](../${BENCH_SOURCE}) (commit ${commit})`));
    assert.ok(PAGE.includes(GENERATED_END));
  });

  test('its generated part is what bench/results/latest.md gives (npx tsx bench/docs-page.ts)', async () => {
    assert.equal(
      await renderBenchmarksPage(PAGE, RESULTS),
      PAGE,
      `run npx tsx bench/docs-page.ts after a full run of npm run bench`,
    );
  });

  test('the summary above it names the same run', () => {
    const summary = PAGE.slice(0, PAGE.indexOf(GENERATED_START));
    const commits = [...summary.matchAll(/\bcommit ([0-9a-f]{7,40})\b/g)].map((match) => match[1]);
    assert.ok(commits.length > 0, 'the summary names no commit');
    assert.deepEqual(
      [...new Set(commits)],
      [benchCommit(RESULTS)],
      'the summary and goals are of another run',
    );
  });

  test('the check notices results of another run', async () => {
    const other = RESULTS.replace(/· commit [0-9a-f]+/, '· commit 0123abc');
    assert.notEqual(await renderBenchmarksPage(PAGE, other), PAGE);
  });
});
