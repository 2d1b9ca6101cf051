/**
 * Storage in the editor: a StatefulSet whose claim template names a StorageClass the cluster lacks gets an error on
 * that name, and hovering its volumeClaimTemplates shows where each claim binds.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { HoverRequest } from 'vscode-languageserver-protocol/node';
import type { Diagnostic, MarkupContent } from 'vscode-languageserver-protocol/node';
import { LspSession } from '../support/lsp-session';

const CLUSTER = `apiVersion: v1
kind: Node
metadata:
  name: w1
  labels: {topology.kubernetes.io/zone: zone-a, kubernetes.io/hostname: w1}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: example.com/disk
volumeBindingMode: WaitForFirstConsumer
`;

const STATEFUL_SET = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: db
          image: postgres:17
          resources: {requests: {cpu: 100m, memory: 64Mi}}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:
        storageClassName: fast-ssd
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 1Gi}}
`;

function covered(text: string, diagnostic: Diagnostic): string {
  const line = text.split('\n')[diagnostic.range.start.line] ?? '';
  return line.slice(diagnostic.range.start.character, diagnostic.range.end.character);
}

function folderWith(text: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'foresight-storage-'));
  mkdirSync(join(folder, '.foresight'));
  writeFileSync(join(folder, '.foresight', 'cluster.yaml'), CLUSTER);
  writeFileSync(join(folder, 'db.yaml'), text);
  return pathToFileURL(join(folder, 'db.yaml')).href;
}

describe('storage over LSP', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  test('a StorageClass the cluster lacks: an error on its name, and the hover shows the claim Pending', async () => {
    const uri = folderWith(STATEFUL_SET);
    const diagnostics = await session.open(uri, STATEFUL_SET);
    const pending = diagnostics.filter((d) => d.code === 'claim-pending');
    assert.equal(pending.length, 1, JSON.stringify(diagnostics.map((d) => [d.code, d.message])));
    assert.equal(pending[0]?.severity, 1);
    assert.equal(covered(STATEFUL_SET, pending[0]), 'fast-ssd');
    assert.match(pending[0]?.message ?? '', /storageclass\.storage\.k8s\.io "fast-ssd" not found/);
    const hover = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: STATEFUL_SET.split('\n').indexOf('  volumeClaimTemplates:'), character: 4 },
    });
    const markdown = (hover?.contents as MarkupContent | undefined)?.value ?? '';
    assert.match(markdown, /\*\*Volume claims\*\* · StatefulSet db/);
    assert.match(markdown, /\| data-db-0 \| Pending \| — \| — \| fast-ssd \|/);
  });

  test("the default class: no error, and the hover shows the claim bound in the node's zone", async () => {
    const text = STATEFUL_SET.replace('        storageClassName: fast-ssd\n', '');
    const uri = folderWith(text);
    const diagnostics = await session.open(uri, text);
    assert.deepEqual(
      diagnostics.filter((d) => d.severity === 1).map((d) => d.code),
      [],
    );
    const hover = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: text.split('\n').indexOf('  volumeClaimTemplates:'), character: 4 },
    });
    const markdown = (hover?.contents as MarkupContent | undefined)?.value ?? '';
    assert.match(markdown, /\| data-db-0 \| Bound \| pvc-default-data-db-0 \| zone-a \| standard \|/);
  });
});
