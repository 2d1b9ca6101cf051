/**
 * What the API server refuses, in the editor: the refusal is an error on the field that causes it, with the
 * plugin's own words, and the workload's pods are not predicted to run.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { LspSession } from '../support/lsp-session';

const CLUSTER = `apiVersion: v1
kind: Node
metadata:
  name: w1
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: default
  namespace: default
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
      serviceAccountName: builder
      containers:
        - name: web
          image: nginx:1.27
          resources: {requests: {cpu: 100m, memory: 64Mi}}
`;

function covered(text: string, diagnostic: Diagnostic): string {
  const line = text.split('\n')[diagnostic.range.start.line] ?? '';
  return line.slice(diagnostic.range.start.character, diagnostic.range.end.character);
}

describe('admission refusals over LSP', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  test('a service account the cluster file lacks refuses the pods, shown on serviceAccountName', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-admission-'));
    mkdirSync(join(folder, '.foresight'));
    writeFileSync(join(folder, '.foresight', 'cluster.yaml'), CLUSTER);
    writeFileSync(join(folder, 'web.yaml'), DEPLOYMENT);
    const uri = pathToFileURL(join(folder, 'web.yaml')).href;
    const diagnostics = await session.open(uri, DEPLOYMENT);
    const refused = diagnostics.filter((d) => d.code === 'admission-refused');
    assert.equal(refused.length, 1, JSON.stringify(diagnostics.map((d) => [d.code, d.message])));
    assert.equal(refused[0]?.severity, 1);
    assert.equal(covered(DEPLOYMENT, refused[0]), 'builder');
    assert.match(
      refused[0]?.message ?? '',
      /^Refused by ServiceAccount, so the pods of ReplicaSet "web-[a-z0-9]+" never exist: pods "web-[a-z0-9]+-" is forbidden: error looking up service account default\/builder: serviceaccount "builder" not found$/,
    );
  });
});
