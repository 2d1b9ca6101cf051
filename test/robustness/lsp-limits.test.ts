/**
 * The limits over LSP, with the bundled server: a large file is analysed cooperatively (other requests are
 * answered meanwhile), files past the size limit and files of thousands of documents are answered, and the
 * server's memory stays bounded. Requires `npm run build` (npm test does it).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DocumentSymbolRequest } from 'vscode-languageserver-protocol/node';
import type {
  ConfigurationItem,
  DocumentSymbol,
  SymbolInformation,
} from 'vscode-languageserver-protocol/node';
import type { LspSession } from '../support/lsp-session';
import {
  peakMemoryMiB,
  sendOpen,
  startConfiguredSession,
  VALIDATION_ONLY_SETTINGS,
  withinBound,
  stopWithin,
} from './lsp-support';

/** Documents under this folder get kubeForesight.maxFileSizeKB 20480 (20 MiB). */
const RAISED_LIMIT_FOLDER = 'file:///limits-raised';
const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: NAME\ndata:\n  key: value\n';
const DATA_LINES = Array.from({ length: 12 }, (_, i) => `  key${i}: value ${i}\n`).join('');

/** `count` ConfigMaps, one per document. */
function configMaps(count: number): string {
  return Array.from({ length: count }, (_, i) => CONFIG_MAP.replace('NAME', `c-${i}`)).join('---\n');
}

describe('limits over LSP', () => {
  let session: LspSession;
  /** Called with each configuration item the server asks for (a hook for ordering requests). */
  let onConfiguration: ((item: ConfigurationItem) => void) | undefined;
  before(async () => {
    session = await startConfiguredSession((item) => {
      onConfiguration?.(item);
      return item.scopeUri?.startsWith(RAISED_LIMIT_FOLDER) === true
        ? { ...VALIDATION_ONLY_SETTINGS, maxFileSizeKB: 20_480 }
        : VALIDATION_ONLY_SETTINGS;
    });
  });
  after(async () => {
    await stopWithin(session);
  });

  test('while a 4 MB file is analysed, the outline of another document is answered first', async () => {
    const bigUri = 'file:///limits-big/all.yaml';
    const smallUri = 'file:///limits-small/one.yaml';
    const events: string[] = [];
    // The server asks for the big file's settings just before analysing it: the small file's requests are
    // sent from there, so that they arrive while the big file is being analysed.
    const outline = new Promise<DocumentSymbol[] | SymbolInformation[] | null>((resolve, reject) => {
      onConfiguration = (item) => {
        if (item.scopeUri !== bigUri) {
          return;
        }
        onConfiguration = undefined;
        setImmediate(() => {
          sendOpen(session, smallUri, CONFIG_MAP.replace('NAME', 'small'))
            .then(() =>
              session.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: smallUri } }),
            )
            .then((symbols) => {
              events.push('small file outline');
              resolve(symbols);
            }, reject);
        });
      };
    });
    const bigDiagnostics = session.diagnostics(bigUri, 1, 120_000).then((diagnostics) => {
      events.push('big file diagnostics');
      return diagnostics;
    });
    const big = Array.from(
      { length: 15_000 },
      (_, i) => CONFIG_MAP.replace('NAME', `c-${i}`) + DATA_LINES,
    ).join('---\n');
    assert.ok(big.length > 4_000_000, `${big.length} characters`);
    await sendOpen(session, bigUri, big);
    const symbols = await withinBound('documentSymbol', outline);
    assert.deepEqual(
      symbols?.map((symbol) => symbol.name),
      ['ConfigMap small'],
    );
    assert.deepEqual(await bigDiagnostics, []);
    assert.deepEqual(events, ['small file outline', 'big file diagnostics']);
    await session.close(bigUri);
    await session.close(smallUri);
  });

  test('a 10 MB file, over the 8 MiB default, gets one information message and nothing else', async () => {
    const text = configMaps(150_000);
    assert.ok(text.length > 10_000_000);
    const diagnostics = await session.open('file:///limits-huge/all.yaml', text, 'yaml', 1, 120_000);
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity]),
      [['file-too-large', 3]],
    );
    await session.close('file:///limits-huge/all.yaml');
  });

  test('a 10 MB file with the size limit raised is analysed up to the node limit, and says where it stopped', async () => {
    const uri = `${RAISED_LIMIT_FOLDER}/all.yaml`;
    // Pods whose container has 50,000 arguments: about 100 KB and 50,000 values each, all valid; 19 fit.
    const pod = (i: number): string =>
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p-${i}\nspec:\n  containers:\n    - name: app\n      image: busybox:1.36\n      args: [${'a,'.repeat(49_999)}a]\n`;
    const text = Array.from({ length: 101 }, (_, i) => pod(i)).join('---\n');
    assert.ok(text.length > 10_000_000, `${text.length} characters`);
    const published = session.diagnostics(uri, 1, 120_000);
    await sendOpen(session, uri, text);
    const diagnostics = await published;
    assert.deepEqual(
      diagnostics.map((diagnostic) => diagnostic.code),
      ['analysis-incomplete'],
    );
    assert.match(
      diagnostics[0]?.message ?? '',
      /more than the 1,000,000 YAML values analysed in one file; the analysis stopped here, after 19 of 101 documents/,
    );
    await session.close(uri);
  });

  test('a file of 25,000 documents: the first 20,000 are analysed and one information says where it stopped', async () => {
    const text = configMaps(25_000).replace('name: c-7\ndata', 'name: c-7\ndta');
    const published = session.diagnostics('file:///limits-many/all.yaml', 1, 120_000);
    await sendOpen(session, 'file:///limits-many/all.yaml', text);
    const result = await published;
    assert.deepEqual(
      result.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line]),
      [
        ['schema-unknown-field', 7 * 7 + 4],
        ['analysis-incomplete', 20_000 * 7 - 1],
      ],
    );
    await session.close('file:///limits-many/all.yaml');
  });

  test('the server stays alive and its peak memory bounded', () => {
    assert.ok(session.isAlive);
    const peak = peakMemoryMiB(session);
    assert.ok(peak < 2_048, `peak ${peak.toFixed(0)} MiB`);
  });
});
