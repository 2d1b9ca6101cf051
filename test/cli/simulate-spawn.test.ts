import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

// One end-to-end run of the bundled CLI (`npm test` builds dist/ first), as `npm run simulate` runs it.

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

test(
  'node dist/cli.js simulate -R examples/ prints the prediction and exits 1 for the Pending pods',
  { skip: !existsSync(CLI) && 'dist/cli.js is not built (run npm run build)' },
  () => {
    const result = spawnSync(process.execPath, [CLI, 'simulate', '-R', 'examples/'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(result.status, 1, result.stderr);
    assert.match(
      result.stdout,
      /0\/5 nodes are available: 1 Insufficient cpu, 1 node\(s\) had untolerated taint\(s\), 4 Insufficient nvidia\.com\/gpu\./,
    );
    // The embedded default adds a large node for the analytics Deployment (examples/batch-analytics).
    assert.match(result.stdout, /27 pods: 22 placed, 5 Pending; 2 refused by the API server\./);
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
    assert.equal(result.stdout, 'Kubernetes 1.35 · embedded default cluster · 5 nodes\n');
    assert.equal(result.stderr, '');
  },
);
