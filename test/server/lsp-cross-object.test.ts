/**
 * Findings across open documents follow every edit: a Service in one file names a container port of a Deployment
 * in another, and each change of the Deployment's file re-judges the Service's file. The server keeps the
 * cross-object findings of a change for both of its publishes (validation, then predictions); this checks they
 * are computed again when a document changes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { LspSession } from '../support/lsp-session';

const deployment = (portName: string): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports: [{name: ${portName}, containerPort: 8080}]
          resources: {requests: {cpu: 100m, memory: 64Mi}}
`;

const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: http}]
`;

const isTargetPortMissing = (diagnostic: Diagnostic): boolean => diagnostic.code === 'target-port-not-found';

describe('cross-object findings over LSP', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  test("a Service's targetPort is re-judged in its own file at each edit of the Deployment's file", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-cross-'));
    const web = await session.openFile(folder, 'web.yaml', deployment('http'));
    const service = await session.openFile(folder, 'service.yaml', SERVICE);
    assert.equal(
      service.diagnostics.filter(isTargetPortMissing).length,
      0,
      JSON.stringify(service.diagnostics),
    );
    // The port renamed: the Service's targetPort names no port of the pods it selects.
    await session.change(web.uri, 2, [{ text: deployment('web') }]);
    const broken = await session.diagnosticsWhere(service.uri, (diagnostics) =>
      diagnostics.some(isTargetPortMissing),
    );
    assert.match(broken.find(isTargetPortMissing)?.message ?? '', /http/);
    // And back: the finding goes.
    await session.change(web.uri, 3, [{ text: deployment('http') }]);
    await session.diagnosticsWhere(service.uri, (diagnostics) => !diagnostics.some(isTargetPortMissing));
  });
});
