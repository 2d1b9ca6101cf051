/**
 * The kustomizations of a command line rendered ahead, several at a time (files/kustomize/prerender-kustomizations.ts).
 * A fake kustomize (a shell script) stands in: each run marks that it started and waits, up to 10 s, until it sees
 * the other run's mark, then names in its output how many runs it saw. Run one after another, the first would see
 * only itself; together, both see two. No timing is measured.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { prerenderKustomizations } from '../../server/src/files/kustomize/prerender-kustomizations';
import type { RenderResult } from '../../server/src/files/kustomize/render-kustomization';

describe('kustomizations rendered ahead', () => {
  const root = mkdtempSync(join(tmpdir(), 'foresight-prerender-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const marks = join(root, 'marks');
  mkdirSync(marks);
  const fake = join(root, 'kustomize');
  writeFileSync(
    fake,
    [
      '#!/bin/sh',
      `touch "${marks}/started.$$"`,
      'i=0',
      `while [ "$(ls "${marks}" | wc -l)" -lt 2 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done`,
      `printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: saw-%s-runs\\n' "$(ls "${marks}" | wc -l | tr -d ' ')"`,
      '',
    ].join('\n'),
  );
  chmodSync(fake, 0o755);
  const tree = join(root, 'tree');
  for (const unit of ['alpha', 'beta', 'remote']) {
    mkdirSync(join(tree, unit), { recursive: true });
  }
  writeFileSync(join(tree, 'alpha', 'kustomization.yaml'), 'resources: []\n');
  writeFileSync(join(tree, 'beta', 'kustomization.yaml'), 'resources: []\n');
  writeFileSync(
    join(tree, 'remote', 'kustomization.yaml'),
    'resources:\n  - https://github.com/org/repo//deploy?ref=v1\n',
  );

  test('two units render at once, each kept by folder; a remote one is left to the read, which refuses it', async () => {
    const options = await prerenderKustomizations(
      [tree],
      root,
      true,
      { binary: fake, allowRemote: false },
      2,
    );
    const renders = options.renders ?? new Map<string, RenderResult>();
    assert.deepEqual([...renders.keys()].sort(), [join(tree, 'alpha'), join(tree, 'beta')]);
    for (const render of renders.values()) {
      assert.equal(render.ok, true, render.ok ? '' : render.message);
      assert.match(render.ok ? (render.objects[0]?.text ?? '') : '', /name: saw-2-runs/);
    }
  });

  test('without -R, a single folder is not rendered ahead', async () => {
    const options = await prerenderKustomizations([join(tree, 'alpha')], root, false, {
      binary: fake,
      allowRemote: false,
    });
    assert.equal(options.renders, undefined);
  });
});
