/**
 * Failures inside one part of the server stay at its boundary: a prediction that throws (the engine on an
 * input it does not expect) leaves the document's validation diagnostics published, and the server answers
 * the next edit; completion never loops. Found by fuzzing: a Pod whose volumes list holds a null item
 * (`volumes:` then `- ` and nothing) made the simulation throw, and the document lost all its diagnostics;
 * completion in a document starting with an empty line looped forever. Requires `npm run build`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LspSession } from '../support/lsp-session';
import { CompletionRequest } from 'vscode-languageserver-protocol/node';
import { withinBound, stopWithin } from './lsp-support';

const POD_WITH_NULL_VOLUME =
  'apiVersion: v1\nkind: Pod\nmetadata:\n  name: azure\nspec:\n  containers:\n    - image: kubernetes/pause\n      name: azure\n  volumes:\n    - \n';
const MISSPELT_CONFIG_MAP =
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndta:\n  key: value\n';

describe('failures stay at their boundary', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await stopWithin(session);
  });

  test('a prediction that throws leaves the validation diagnostics of the file published', async () => {
    const uri = 'file:///boundaries/null-volume/all.yaml';
    const text = `${POD_WITH_NULL_VOLUME}---\n${MISSPELT_CONFIG_MAP}`;
    const diagnostics = await withinBound('diagnostics', session.open(uri, text));
    assert.deepEqual(
      diagnostics
        .filter((d) => d.code === 'schema-unknown-field')
        .map((d) => [d.range.start.line, d.message]),
      [[15, 'Unknown field "dta"; did you mean "data"?']],
    );
    const fixed = await withinBound(
      'diagnostics after an edit',
      session.change(uri, 2, [
        { range: { start: { line: 15, character: 0 }, end: { line: 15, character: 3 } }, text: 'data' },
      ]),
    );
    assert.deepEqual(
      fixed.filter((d) => d.code === 'schema-unknown-field'),
      [],
    );
    assert.ok(session.isAlive);
  });

  test('completion in a document whose first line is empty is answered, and the server answers afterwards', async () => {
    const uri = 'file:///boundaries/blank-first-line/config.yaml';
    const text = '\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  ';
    await withinBound('diagnostics', session.open(uri, text));
    const items = await withinBound(
      'completion',
      session.connection.sendRequest(CompletionRequest.type, {
        textDocument: { uri },
        position: { line: 5, character: 2 },
      }),
    );
    const labels = (Array.isArray(items) ? items : (items?.items ?? [])).map((item) => item.label);
    assert.ok(labels.includes('labels'), labels.join(', '));
    const next = await withinBound(
      'diagnostics of another document',
      session.open('file:///boundaries/after/x.yaml', text),
    );
    assert.deepEqual(next, []);
  });
});
