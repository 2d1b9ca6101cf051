/**
 * The awaited render the editor uses (files/kustomize/render-kustomization.ts, renderKustomizationAsync): a
 * kustomize that runs too long is stopped and says so, one that fails keeps its message, one that cannot be run
 * says why. Fake binaries stand in for kustomize (shell scripts; `kustomize build DIR` is how they are called).
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { renderKustomizationAsync } from '../../server/src/files/kustomize/render-kustomization';

const FOLDER = join(__dirname, '..', 'fixtures', 'kustomize-overlays', 'shop', 'base');

describe('the awaited kustomize render', () => {
  const bin = mkdtempSync(join(tmpdir(), 'foresight-fake-kustomize-'));
  after(() => rmSync(bin, { recursive: true, force: true }));
  const fake = (name: string, script: string): string => {
    const file = join(bin, name);
    writeFileSync(file, `#!/bin/sh\n${script}\n`);
    chmodSync(file, 0o755);
    return file;
  };

  test('a kustomize that runs past the time limit is stopped, and the message says so', async () => {
    const file = fake('kustomize-slow', 'exec sleep 5');
    const started = Date.now();
    const result = await renderKustomizationAsync({ file, args: ['build'] }, FOLDER, 300);
    assert.ok(Date.now() - started < 4_000, 'stopped before it finished');
    assert.deepEqual(result, { ok: false, message: `${file} did not finish within 0.3 s and was stopped` });
  });

  test("a kustomize that fails gives its stderr, without kubectl's Error: prefix", async () => {
    const file = fake('kustomize-failing', "echo 'Error: accumulating resources: missing.yaml' >&2; exit 1");
    const result = await renderKustomizationAsync({ file, args: ['build'] }, FOLDER);
    assert.deepEqual(result, { ok: false, message: 'accumulating resources: missing.yaml' });
  });

  test('a kustomize that cannot be run says why', async () => {
    const file = join(bin, 'absent');
    const result = await renderKustomizationAsync({ file, args: ['build'] }, FOLDER);
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.message, /could not be run: spawn .*absent ENOENT/);
  });

  test("kustomize's klog lines are kept as warnings without their klog header", async () => {
    // kubeflow/manifests' admission-webhook base: kubectl kustomize logs unreplaced vars through klog.
    const file = fake(
      'kustomize-vars',
      [
        "echo 'I1129 03:55:52.655057   15385 log.go:245] well-defined vars that were never replaced: A,B' >&2",
        "printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: a\\n'",
      ].join('\n'),
    );
    const result = await renderKustomizationAsync({ file, args: ['build'] }, FOLDER);
    assert.equal(result.ok, true);
    assert.equal(result.ok ? result.warnings : '', 'well-defined vars that were never replaced: A,B');
  });

  test('what kustomize prints is split into objects with their origin', async () => {
    const file = fake(
      'kustomize-echo',
      "printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: a\\n  annotations:\\n    config.kubernetes.io/origin: |\\n      path: x.yaml\\n'",
    );
    const result = await renderKustomizationAsync({ file, args: ['build'] }, FOLDER);
    assert.equal(result.ok, true);
    if (result.ok) {
      assert.equal(result.objects.length, 1);
      assert.match(result.objects[0]?.source ?? '', /\/x\.yaml$/);
      assert.doesNotMatch(result.objects[0]?.text ?? '', /origin/);
    }
  });
});
