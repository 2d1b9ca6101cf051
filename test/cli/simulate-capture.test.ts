/**
 * A real cluster's capture is one List document far past the editing analysis's limits (200,000 values per
 * document, 8 MiB per file): `foresight simulate --cluster` reads it as data instead of finding "no usable Node".
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { captureText } from '../../bench/captured-cluster';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

test('a capture of 300 nodes and 6,000 pods is read whole and the re-applied Deployment rolls on its nodes', () => {
  const folder = mkdtempSync(join(tmpdir(), 'foresight-capture-'));
  const text = captureText(300, 6_000);
  assert.ok(text.length > 1_000_000);
  writeFileSync(join(folder, 'cluster.yaml'), text);
  writeFileSync(
    join(folder, 'app.yaml'),
    [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: app-0000, namespace: default}',
      'spec:',
      '  replicas: 100',
      '  selector: {matchLabels: {app: app-0000}}',
      '  template:',
      '    metadata: {labels: {app: app-0000}}',
      '    spec:',
      '      containers: [{name: c, image: "registry.example/app-0000:2", resources: {requests: {cpu: 100m, memory: 128Mi}}}]',
      '',
    ].join('\n'),
  );
  const result = spawnSync(process.execPath, [CLI, 'simulate', '--cluster', 'cluster.yaml', 'app.yaml'], {
    cwd: folder,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /^Kubernetes 1\.35 · cluster\.yaml · 300 nodes$/m);
  assert.match(result.stdout, /; 100 pods: 100 placed, 0 Pending\.$/m);
  assert.match(result.stdout, /Deployment default\/app-0000: RollingUpdate/);
  assert.doesNotMatch(result.stdout, /cluster-no-nodes|document-too-large/);
});
