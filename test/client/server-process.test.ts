import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from '../../protocol/server-process';

// The extension starts the language server with SERVER_NODE_FLAGS; a flag this Node does not know would make
// the server process exit at once, and the extension would have no diagnostics at all.

const ROOT = join(__dirname, '..', '..');

describe('the language server process flags', () => {
  test('this Node accepts them', () => {
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', 'process.exit(0)'], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, '');
  });

  test('the extension passes them when it starts the server, run and debug alike', () => {
    const source = readFileSync(join(ROOT, 'client', 'src', 'language-client.ts'), 'utf8');
    const execArgvs = [...source.matchAll(/execArgv: \[([^\]]*)\]/g)].map((match) => match[1] ?? '');
    assert.equal(execArgvs.length, 2, 'run and debug each have an execArgv');
    for (const execArgv of execArgvs) {
      assert.ok(execArgv.includes('...SERVER_NODE_FLAGS'), execArgv);
    }
  });
});
