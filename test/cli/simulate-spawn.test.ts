import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

// One end-to-end run of the bundled CLI (`npm test` builds dist/ first), as `npm run simulate` runs it.

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

test(
  'node dist/cli.js simulate -R examples/ simulates each folder on its nearest cluster file and exits 1 for the Pending pods',
  { skip: !existsSync(CLI) && 'dist/cli.js is not built (run npm run build)' },
  () => {
    const result = spawnSync(process.execPath, [CLI, 'simulate', '-R', 'examples/'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(result.status, 1, result.stderr);
    // The sections, each up to the next header; the last up to the line that sums them.
    const [shared, captured] = result.stdout.split(/^\d+ simulations, /m)[0]?.split(/^(?==== )/m) ?? [];
    assert.match(shared ?? '', /^=== examples\/\.foresight\/cluster\.yaml: 8 apply units \(/);
    assert.match(shared ?? '', /^Kubernetes 1\.35 · examples\/\.foresight\/cluster\.yaml · 6 nodes$/m);
    assert.match(
      shared ?? '',
      /0\/6 nodes are available: 1 node\(s\) were unschedulable, 2 Insufficient nvidia\.com\/gpu, 3 node\(s\) had untolerated taint\(s\)\./,
    );
    assert.doesNotMatch(shared ?? '', /examples\/captured|store\//);
    // examples/captured applies what its captured cluster runs: no change, no Pending pod, no missing namespace.
    assert.match(
      captured ?? '',
      /^=== examples\/captured\/\.foresight\/cluster\.yaml: 1 apply unit \(examples\/captured\)\n/,
    );
    assert.match(captured ?? '', /^1 apply unit, 3 object\(s\); 6 pods: 6 placed, 0 Pending\.$/m);
    assert.doesNotMatch(captured ?? '', /namespace-not-found|Pending\n|pod-unschedulable/);
    assert.match(
      result.stdout,
      /^2 simulations, one per cluster: \d+ file\(s\) read, 9 apply units, 22 object\(s\); 24 pods: 21 placed, 3 Pending; 2 refused by the API server; 1 predicted failure \(drains, rollouts\)\.$/m,
    );
  },
);

test(
  'a reader that stops early (| head -1) closes the pipe: no EPIPE stack trace',
  { skip: !existsSync(CLI) && 'dist/cli.js is not built (run npm run build)' },
  () => {
    const result = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" simulate -R examples/ | head -1`], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.match(result.stdout, /^=== examples\/\.foresight\/cluster\.yaml: 8 apply units \([^\n]*\)\n$/);
    assert.equal(result.stderr, '');
  },
);
