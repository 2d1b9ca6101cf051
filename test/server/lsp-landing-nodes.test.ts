/**
 * The hover on `resources` and the quick fix that lowers requests count the same nodes: those the pod can land
 * on (not cordoned, not tainted against it). A fix whose result would still leave pods Pending says so in its
 * title (issue #28 item 4).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeActionRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import type { CodeAction, Diagnostic, MarkupContent } from 'vscode-languageserver-protocol/node';
import { LspSession } from '../support/lsp-session';

const FIXTURES = join(__dirname, '..', 'fixtures', 'predictions');

function fixture(relative: string): { uri: string; text: string } {
  const path = join(FIXTURES, relative);
  return { uri: pathToFileURL(path).href, text: readFileSync(path, 'utf8') };
}

describe('the nodes a pod can land on, in the hover and the fixes', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  async function actionsFor(uri: string, diagnostics: Diagnostic[]): Promise<CodeAction[]> {
    const actions = await session.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: diagnostics[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics },
    });
    return (actions ?? []).filter((action): action is CodeAction => 'edit' in action);
  }

  test('with the roomiest node cordoned and another tainted, the hover and the fix both name worker-3', async () => {
    const engine = fixture('cordoned-room/engine.yaml');
    const diagnostics = await session.open(engine.uri, engine.text);
    const pending = diagnostics.filter((d) => d.code === 'pod-unschedulable');
    assert.equal(pending.length, 1);
    const actions = await actionsFor(engine.uri, pending);
    assert.deepEqual(
      actions.map((action) => action.title),
      ['Lower the cpu request to 4 and the memory request to 8Gi (what worker-3 has free)'],
    );
    const line = engine.text.split('\n').findIndex((text) => text.trim() === 'resources:');
    const hover = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: engine.uri },
      position: { line, character: 8 },
    });
    const value = (hover?.contents as MarkupContent | undefined)?.value ?? '';
    assert.match(
      value,
      /fits on 0 of 4 nodes after the simulated placements; largest free cpu: 4 on worker-3, memory: 16Gi on worker-4\./,
    );
    assert.match(value, /\| worker-1 \| 16 \| 64Gi \| no \(cordoned\) \|/);
    assert.match(value, /\| worker-2 \| 12 \| 48Gi \| no \(taint dedicated=gpu:NoSchedule\) \|/);
    // Applied, the pod fits the node the fix named.
    const fixed = TextDocument.applyEdits(
      TextDocument.create(engine.uri, 'yaml', 1, engine.text),
      actions[0]?.edit?.changes?.[engine.uri] ?? [],
    );
    const after = await session.change(engine.uri, 2, [{ text: fixed }]);
    assert.deepEqual(
      after.map((d) => d.code),
      [],
    );
  });

  test('a toleration for a pool too small for every replica says the rest stay Pending', async () => {
    const crunch = fixture('small-pool/crunch.yaml');
    const diagnostics = await session.open(crunch.uri, crunch.text);
    const pending = diagnostics.filter((d) => d.code === 'pod-unschedulable');
    assert.equal(pending.length, 1);
    const actions = await actionsFor(crunch.uri, pending);
    assert.deepEqual(
      actions.map((action) => action.title),
      [
        'Add a toleration for the taint dedicated=batch:NoSchedule (still Pending: those nodes have room for 2 of the 3 Pending pods)',
      ],
    );
    const fixed = TextDocument.applyEdits(
      TextDocument.create(crunch.uri, 'yaml', 1, crunch.text),
      actions[0]?.edit?.changes?.[crunch.uri] ?? [],
    );
    const after = await session.change(crunch.uri, 2, [{ text: fixed }]);
    assert.match(
      after.find((d) => d.code === 'pod-unschedulable')?.message ?? '',
      /^1 of 3 replicas stays Pending: 0\/1 nodes are available: 1 Insufficient cpu\./,
    );
  });
});
