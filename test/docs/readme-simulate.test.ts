import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './markdown';

// README.md's first command is `npm run simulate`, and the README and docs/cli.md quote its last line: run the
// script's command (package.json "simulate") and check the quote still describes what it prints.

const CLI = join(ROOT, 'dist', 'cli.js');

/** The quoted last line as a pattern: N is a number, … any further codes. */
function quotedPattern(page: string): RegExp {
  const quote = /`(exit 1: N predicted failures \[[^`]*\] \(--fail-on prediction\))`/.exec(
    readFileSync(join(ROOT, page), 'utf8'),
  )?.[1];
  assert.ok(quote !== undefined, `${page} quotes the last line of npm run simulate`);
  const escaped = quote.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${escaped.replace(/^exit 1: N /, 'exit 1: \\d+ ').replace(/, …\\]/, '(, [^\\]]*)?\\]')}$`,
  );
}

test('npm run simulate ends with the line README.md and docs/cli.md quote, and without --cluster', () => {
  assert.ok(existsSync(CLI), 'dist/cli.js is not built: run npm run build (npm test builds it)');
  const scripts = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  const command = /node dist\/cli\.js (.+)$/.exec(scripts['simulate'] ?? '')?.[1];
  assert.equal(command, 'simulate -R examples/');
  const result = spawnSync(process.execPath, [CLI, ...(command ?? '').split(' ')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(result.status, 1, result.stderr);
  const last = result.stdout.trimEnd().split('\n').at(-1) ?? '';
  for (const page of ['README.md', 'docs/cli.md']) {
    assert.match(last, quotedPattern(page), page);
  }
});
