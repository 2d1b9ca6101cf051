/**
 * Hover, completion, outline and quick fixes of the bundled server, asked over LSP as an editor asks.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CodeActionRequest,
  CompletionRequest,
  DocumentSymbolRequest,
  HoverRequest,
} from 'vscode-languageserver-protocol/node';
import type {
  CodeAction,
  CompletionItem,
  DocumentSymbol,
  Hover,
  MarkupContent,
  Position,
} from 'vscode-languageserver-protocol/node';
import { LspSession } from '../support/lsp-session';

const TEXT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: app
          image: nginx:1.27
          imagePullPolicy: IfNotPresent
---
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata:
  name: web
spec:
  minAvailable: 1
`;

/** The position of the n-th occurrence of a needle, plus a character offset. */
function positionOf(needle: string, plus = 0, occurrence = 0): Position {
  let index = -1;
  for (let i = 0; i <= occurrence; i++) {
    index = TEXT.indexOf(needle, index + 1);
  }
  assert.ok(index >= 0, `${needle} is in the text`);
  const before = TEXT.slice(0, index + plus);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

describe('hover, completion, outline and quick fixes over LSP', () => {
  let session: LspSession;
  const uri = 'file:///assist.yaml';
  before(async () => {
    session = await LspSession.start();
    await session.open(uri, TEXT);
  });
  after(async () => {
    await session.stop();
  });

  test('hover on a key shows its path, type and schema description', async () => {
    const hover: Hover | null = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: positionOf('replicas', 2),
    });
    assert.ok(hover);
    const value = (hover.contents as MarkupContent).value;
    assert.match(value, /spec\.replicas/);
    assert.match(value, /integer/);
    assert.match(value, /Number of desired pods/);
  });

  test('completion on a new line inside spec offers keys not yet present', async () => {
    const typing = 'file:///typing.yaml';
    await session.open(typing, TEXT.replace('  replicas: 3\n', '  replicas: 3\n  \n'));
    const items = (await session.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: typing },
      position: { line: 6, character: 2 },
    })) as CompletionItem[];
    const labels = items.map((item) => item.label);
    assert.ok(labels.includes('strategy'), 'offers strategy');
    assert.ok(labels.includes('minReadySeconds'), 'offers minReadySeconds');
    assert.ok(!labels.includes('replicas'), 'does not offer a key that is present');
  });

  test('completion on imagePullPolicy offers its allowed values', async () => {
    const position = positionOf('IfNotPresent');
    const items = (await session.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position,
    })) as CompletionItem[];
    assert.deepEqual(items.map((item) => item.label).sort(), ['Always', 'IfNotPresent', 'Never']);
  });

  test('the outline lists one symbol per object', async () => {
    const symbols = (await session.connection.sendRequest(DocumentSymbolRequest.type, {
      textDocument: { uri },
    })) as DocumentSymbol[];
    assert.deepEqual(
      symbols.map((symbol) => symbol.name),
      ['Deployment web', 'PodDisruptionBudget web'],
    );
  });

  test('a removed apiVersion offers a quick fix that rewrites it', async () => {
    const start = positionOf('policy/v1beta1');
    const range = { start, end: { line: start.line, character: start.character + 'policy/v1beta1'.length } };
    const actions = (await session.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range,
      context: {
        diagnostics: [
          {
            range,
            source: 'kube-foresight',
            code: 'removed-api-version',
            message: 'removed',
            data: { fix: { replacement: 'policy/v1', title: 'Change apiVersion to policy/v1' } },
          },
        ],
      },
    })) as CodeAction[];
    assert.equal(actions.length, 1);
    assert.equal(actions[0]?.title, 'Change apiVersion to policy/v1');
    assert.deepEqual(actions[0]?.edit?.changes?.[uri], [{ range, newText: 'policy/v1' }]);
  });
});
