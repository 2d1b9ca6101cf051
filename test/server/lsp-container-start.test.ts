/**
 * Pods placed but never started, in the editor: the missing ConfigMap key is an error on the key, the lens counts
 * the pods that cannot start, and a reference the cluster cannot confirm is an information note.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { CodeLensRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import type { Diagnostic, MarkupContent } from 'vscode-languageserver-protocol/node';
import { LspSession } from '../support/lsp-session';

const CLUSTER = `apiVersion: v1
kind: Node
metadata:
  name: w1
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
data:
  mode: fast
`;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          resources: {requests: {cpu: 100m, memory: 64Mi}}
          env:
            - name: TOKEN
              valueFrom:
                secretKeyRef: {name: api-token, key: token}
            - name: LEVEL
              valueFrom:
                configMapKeyRef: {name: settings, key: level}
`;

function covered(text: string, diagnostic: Diagnostic): string {
  const line = text.split('\n')[diagnostic.range.start.line] ?? '';
  return line.slice(diagnostic.range.start.character, diagnostic.range.end.character);
}

describe('pods that never start, over LSP', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  test('a missing ConfigMap key: an error on the key, the lens counts the stuck pods, the Secret is assumed', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-start-'));
    mkdirSync(join(folder, '.foresight'));
    writeFileSync(join(folder, '.foresight', 'cluster.yaml'), CLUSTER);
    writeFileSync(join(folder, 'web.yaml'), DEPLOYMENT);
    const uri = pathToFileURL(join(folder, 'web.yaml')).href;
    const diagnostics = await session.open(uri, DEPLOYMENT);
    const stuck = diagnostics.filter((d) => d.code === 'container-cannot-start');
    assert.equal(stuck.length, 1, JSON.stringify(diagnostics.map((d) => [d.code, d.message])));
    assert.equal(stuck[0]?.severity, 1);
    assert.equal(covered(DEPLOYMENT, stuck[0]), 'level');
    assert.equal(
      stuck[0]?.message,
      '2 pods of Deployment "web" stay in CreateContainerConfigError and never start: couldn\'t find key level in ConfigMap default/settings',
    );
    // The cluster file lists no Secret of namespace default: api-token (read first) is assumed, a note on its name.
    const assumed = diagnostics.filter((d) => d.code === 'config-object-assumed');
    assert.equal(assumed.length, 1);
    assert.equal(assumed[0]?.severity, 3);
    assert.equal(covered(DEPLOYMENT, assumed[0]), 'api-token');
    const lenses = await session.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    assert.match(
      lenses?.[0]?.command?.title ?? '',
      /^2\/2 scheduled · 2 cannot start: couldn't find key level in ConfigMap default\/settings · Burstable · rollout stalls$/,
    );
    const hover = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: DEPLOYMENT.split('\n').indexOf('kind: Deployment'), character: 1 },
    });
    assert.match(
      (hover?.contents as MarkupContent | undefined)?.value ?? '',
      /\*\*Never starts\*\* \(2 pods, CreateContainerConfigError\): couldn't find key level in ConfigMap default\/settings/,
    );
  });

  test('the key present: no error and the rollout completes in the lens', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-start-'));
    mkdirSync(join(folder, '.foresight'));
    writeFileSync(join(folder, '.foresight', 'cluster.yaml'), CLUSTER);
    const text = DEPLOYMENT.replace('key: level', 'key: mode');
    const { uri, diagnostics } = await session.openFile(folder, 'web.yaml', text);
    assert.equal(diagnostics.filter((d) => d.code === 'container-cannot-start').length, 0);
    const lenses = await session.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    assert.doesNotMatch(lenses?.[0]?.command?.title ?? '', /cannot start/);
  });

  test('an image the kubelet cannot parse: an error on the image field with the InvalidImageName message', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-start-'));
    mkdirSync(join(folder, '.foresight'));
    writeFileSync(join(folder, '.foresight', 'cluster.yaml'), CLUSTER);
    const text = DEPLOYMENT.replace('image: nginx:1.27', 'image: Nginx:Latest').replace(
      'key: level',
      'key: mode',
    );
    const { diagnostics } = await session.openFile(folder, 'web.yaml', text);
    const stuck = diagnostics.filter((d) => d.code === 'container-cannot-start');
    assert.equal(stuck.length, 1, JSON.stringify(diagnostics.map((d) => [d.code, d.message])));
    assert.equal(stuck[0]?.severity, 1);
    assert.equal(covered(text, stuck[0]), 'Nginx:Latest');
    assert.equal(
      stuck[0]?.message,
      '2 pods of Deployment "web" stay in InvalidImageName and never start: Failed to apply default image tag "Nginx:Latest": couldn\'t parse image name "Nginx:Latest": invalid reference format: repository name (library/Nginx) must be lowercase',
    );
  });
});
