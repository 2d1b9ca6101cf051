import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterSearchRoot, nearestClusterFile } from '../../server/src/files/cluster-files';

// Where a folder's .foresight/cluster.yaml is found, and where a command line's search stops (the editor's
// search stops at its workspace folder, host/cluster-file.ts).

/** top/.foresight/cluster.yaml, top/team/app/, top/repo/.git/ with top/repo/svc/. */
function tree(): string {
  const top = mkdtempSync(join(tmpdir(), 'foresight-cluster-files-'));
  for (const folder of ['.foresight', 'team/app', 'repo/.git', 'repo/svc/.foresight']) {
    mkdirSync(join(top, folder), { recursive: true });
  }
  writeFileSync(join(top, '.foresight', 'cluster.yaml'), 'kind: Node\n');
  return top;
}

describe('clusterSearchRoot and nearestClusterFile', () => {
  const CASES: readonly {
    name: string;
    folder: string;
    cwd: string;
    root: string;
    found: string | undefined;
  }[] = [
    {
      name: 'a folder below the working directory, in no repository, searches up to the working directory',
      folder: 'team/app',
      cwd: '.',
      root: '.',
      found: '.foresight/cluster.yaml',
    },
    {
      name: 'a folder outside the working directory, in no repository, borrows no cluster file from above',
      folder: 'team/app',
      cwd: 'repo',
      root: 'team/app',
      found: undefined,
    },
    {
      name: 'a folder in a repository searches up to its root and no further (a .foresight without cluster.yaml is passed)',
      folder: 'repo/svc',
      cwd: '.',
      root: 'repo',
      found: undefined,
    },
  ];
  for (const { name, folder, cwd, root, found } of CASES) {
    test(name, () => {
      const top = tree();
      const stop = clusterSearchRoot(join(top, folder), join(top, cwd));
      assert.equal(stop, join(top, root));
      const file = nearestClusterFile(join(top, folder), stop);
      assert.equal(file, found === undefined ? undefined : join(top, found));
    });
  }

  test('without a stop, the nearest cluster file at or above the folder is found, the nearer first', () => {
    const top = tree();
    writeFileSync(join(top, 'repo', 'svc', '.foresight', 'cluster.yaml'), 'kind: Node\n');
    assert.equal(
      nearestClusterFile(join(top, 'repo', 'svc')),
      join(top, 'repo', 'svc', '.foresight', 'cluster.yaml'),
    );
    assert.equal(nearestClusterFile(join(top, 'team', 'app')), join(top, '.foresight', 'cluster.yaml'));
  });
});
