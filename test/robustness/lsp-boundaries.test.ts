/**
 * Failures inside one part of the server stay at its boundary: a prediction that throws (the engine on an
 * input it does not expect) leaves the document's validation diagnostics published, and the server answers
 * the next edit. Found by fuzzing: a Pod whose volumes list holds a null item (`volumes:` then `- ` and
 * nothing) made the simulation throw, and the document lost all its diagnostics. Requires `npm run build`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LspSession } from '../support/lsp-session';
import { withinBound } from './lsp-support';

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
    await session.stop();
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
});
