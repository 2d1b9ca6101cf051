/**
 * The one manifest reader in the editor: a Deployment defined in two files of one folder is one object for the
 * predictions (the later definition, as sequential kubectl apply leaves it), and the earlier definition gets the
 * duplicate-object warning on its name.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { CodeLensRequest } from 'vscode-languageserver-protocol/node';
import { LspSession } from '../support/lsp-session';

const deployment = (replicas: number): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          resources: {requests: {cpu: "1", memory: 64Mi}}
`;

describe('duplicate objects over LSP', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  test('the earlier of two definitions is warned on its name, and the predictions count the later one only', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-duplicates-'));
    // 40 replicas of 1 cpu would leave most Pending on the embedded cluster; the later file asks for 2.
    writeFileSync(join(folder, 'a-first.yaml'), deployment(40));
    writeFileSync(join(folder, 'b-later.yaml'), deployment(2));
    const first = pathToFileURL(join(folder, 'a-first.yaml')).href;
    const later = pathToFileURL(join(folder, 'b-later.yaml')).href;
    const diagnostics = await session.open(first, deployment(40));
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start.line, d.severity]),
      [['duplicate-object', 3, 2]],
    );
    assert.match(
      diagnostics[0]?.message ?? '',
      /Deployment default\/web is defined again in .*b-later\.yaml/,
    );
    await session.open(later, deployment(2));
    const lenses = await session.connection.sendRequest(CodeLensRequest.type, {
      textDocument: { uri: later },
    });
    assert.equal(lenses?.[0]?.command?.title.startsWith('2/2 scheduled'), true, lenses?.[0]?.command?.title);
  });
});
