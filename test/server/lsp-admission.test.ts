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
import { CodeLensRequest } from 'vscode-languageserver-protocol/node';
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
      /^Refused by ServiceAccount, so no pod of Deployment "web" exists \(2 desired\): pods "web-[a-z0-9]+-" is forbidden: error looking up service account default\/builder: serviceaccount "builder" not found$/,
    );
  });

  test('a quota that lets 2 of 3 replicas be created: the lens counts the refused one, a warning names the quota', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-quota-'));
    const text = DEPLOYMENT.replace('replicas: 2', 'replicas: 3').replace(
      '      serviceAccountName: builder\n',
      '',
    );
    const quota =
      'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: pods\nspec:\n  hard:\n    pods: "2"\n';
    writeFileSync(join(folder, 'quota.yaml'), quota);
    writeFileSync(join(folder, 'web.yaml'), text);
    const uri = pathToFileURL(join(folder, 'web.yaml')).href;
    const diagnostics = await session.open(uri, text);
    // Part of the workload runs: a warning, not an error.
    assert.equal(diagnostics.filter((d) => d.code === 'admission-refused').length, 0);
    const refused = diagnostics.find((d) => d.code === 'admission-refused-partly');
    assert.equal(refused?.severity, 2);
    assert.match(
      refused?.message ?? '',
      /^Refused by ResourceQuota, so 1 of 3 replicas of Deployment "web" never exist: .*exceeded quota: pods, requested: pods=1, used: pods=2, limited: pods=2$/,
    );
    const lenses = await session.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    assert.match(lenses?.[0]?.command?.title ?? '', /^2\/3 scheduled · 1 refused by ResourceQuota · /);
  });
});
