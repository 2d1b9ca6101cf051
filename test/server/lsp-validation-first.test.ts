/**
 * Validation diagnostics before predictions, over LSP: when the engine has many objects to simulate, a
 * document's schema errors are published as soon as it is analysed and its predictions follow in a second
 * publish of the same version; while the new prediction runs (in the prediction worker), the last one stays
 * shown, placed on the new text. A keystroke arriving while the older version's simulation runs has its result
 * dropped: no publish for a version that is no longer the document's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { VALIDATION_FIRST_MIN_OBJECTS } from '../../server/src/host/language-server';
import { LspSession } from '../support/lsp-session';

/** A ConfigMap of the generated file. */
function configMap(index: number): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-${index}\ndata:\n  key: "value-${index}"\n`;
}

/** A Deployment no node of the embedded default cluster has room for, nor any node it can add. */
const TOO_BIG = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: too-big
spec:
  replicas: 1
  selector:
    matchLabels: { app: too-big }
  template:
    metadata:
      labels: { app: too-big }
    spec:
      containers:
        - name: app
          image: example/app:1
          resources:
            requests:
              cpu: "64"
`;

/** A ConfigMap with a schema error (immutable is a boolean). */
const BROKEN = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: broken\nimmutable: "yes"\n';

/** Enough ConfigMaps before the Deployment that its prediction is published after the validation. */
const TEXT = [
  ...Array.from({ length: VALIDATION_FIRST_MIN_OBJECTS }, (_, index) => configMap(index)),
  BROKEN,
  TOO_BIG,
].join('---\n');

function covered(text: string, diagnostic: Diagnostic): string {
  const line = text.split('\n')[diagnostic.range.start.line] ?? '';
  return line.slice(diagnostic.range.start.character, diagnostic.range.end.character);
}

function codes(diagnostics: readonly Diagnostic[]): string[] {
  return [...new Set(diagnostics.map((diagnostic) => String(diagnostic.code)))].sort();
}

describe('validation diagnostics before predictions', () => {
  let session: LspSession;
  let folder: string;
  let uri: string;
  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'foresight-validation-first-'));
    const path = join(folder, 'manifests.yaml');
    writeFileSync(path, TEXT);
    uri = pathToFileURL(path).href;
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  test('on open, the schema error is published first, then the same version with the Pending prediction', async () => {
    const first = await session.open(uri, TEXT);
    const second = await session.diagnostics(uri, 1);
    assert.deepEqual(codes(first), ['schema-type']);
    assert.ok(
      second.some((diagnostic) => diagnostic.code === 'pod-unschedulable'),
      JSON.stringify(second),
    );
    assert.deepEqual(
      second.filter((diagnostic) => diagnostic.code === 'schema-type'),
      first,
      'the validation diagnostics do not change with the prediction',
    );
    const pending = second.find((diagnostic) => diagnostic.code === 'pod-unschedulable');
    assert.ok(pending);
    assert.equal(covered(TEXT, pending), '"64"');
  });

  test('after an edit, the last prediction stays shown on the moved text until the new one replaces it', async () => {
    // Two lines inserted in the first ConfigMap's data move the Deployment down.
    const edited = TEXT.replace('data:\n', 'data:\n  added: "1"\n  more: "2"\n');
    const provisional = await session.change(uri, 2, [{ text: edited }]);
    const final = await session.diagnostics(uri, 2);
    for (const diagnostics of [provisional, final]) {
      const pending = diagnostics.find((diagnostic) => diagnostic.code === 'pod-unschedulable');
      assert.ok(pending, JSON.stringify(diagnostics));
      assert.equal(covered(edited, pending), '"64"');
    }
    assert.deepEqual(provisional, final);
  });

  test('a keystroke while the older version’s simulation runs drops that simulation’s result', async () => {
    const other = mkdtempSync(join(tmpdir(), 'foresight-validation-first-'));
    // 2,000 Pending replicas: the simulation takes hundreds of milliseconds, the keystroke arrives meanwhile.
    const slow = TEXT.replace('replicas: 1\n', 'replicas: 2000\n');
    assert.notEqual(slow, TEXT);
    try {
      const otherPath = join(other, 'manifests.yaml');
      writeFileSync(otherPath, slow);
      const otherUri = pathToFileURL(otherPath).href;
      const opened = await session.open(otherUri, slow);
      assert.deepEqual(codes(opened), ['schema-type']);
      const next = session.diagnostics(otherUri);
      await session.notifyChange(otherUri, 2, [{ text: slow.replace('value-0', 'value-zero') }]);
      // Had version 1's result been kept, its publish would come first, with the Pending prediction.
      assert.deepEqual(codes(await next), ['schema-type']);
      const final = await session.diagnostics(otherUri, 2);
      assert.ok(final.some((diagnostic) => diagnostic.code === 'pod-unschedulable'));
      // The worker ran version 1 before version 2: its result came back before this publish, and was dropped.
      assert.deepEqual(
        session.publishes
          .filter((published) => published.uri === otherUri)
          .map((published) => [published.version, codes(published.diagnostics)]),
        [
          [1, ['schema-type']],
          [2, ['schema-type']],
          [2, ['pod-no-scale-up', 'pod-unschedulable', 'pod-unschedulable-cause', 'schema-type']],
        ],
      );
      await session.close(otherUri);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
