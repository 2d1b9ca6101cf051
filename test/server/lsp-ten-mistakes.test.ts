/**
 * A manifest with ten distinct mistakes, opened in the bundled server over LSP, shows ten precise diagnostics
 * in file order, each on the key or value that is wrong.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { LspSession } from '../support/lsp-session';

const FIXTURE = join(__dirname, '..', 'fixtures', 'language', 'ten-mistakes', 'input.yaml');

/** Each mistake: its code and the exact text its range covers. */
const EXPECTED: [code: string, covered: string][] = [
  ['invalid-name', 'Web_App'],
  ['schema-type', '"3"'],
  ['schema-enum', 'Alwayz'],
  ['invalid-port-name', 'http-port-for-the-app'],
  ['invalid-quantity', '128mb'],
  ['duplicate-container-name', 'app'],
  ['schema-unknown-field', 'comand'],
  ['removed-api-version', 'policy/v1beta1'],
  ['target-port-not-found', 'htpp'],
  ['schema-enum', 'Always'],
];

let session: LspSession;
before(async () => {
  session = await LspSession.start();
});
after(async () => {
  await session.stop();
});

test('ten mistakes give ten diagnostics in file order, each on the offending key or value', async () => {
  const text = readFileSync(FIXTURE, 'utf8');
  const lines = text.split('\n');
  const diagnostics = await session.open('file:///ten-mistakes.yaml', text);
  const actual = diagnostics.map((d) => {
    assert.equal(d.range.start.line, d.range.end.line, `${String(d.code)} stays on one line`);
    return [d.code, (lines[d.range.start.line] ?? '').slice(d.range.start.character, d.range.end.character)];
  });
  assert.deepEqual(actual, EXPECTED);
  const positions = diagnostics.map((d) => d.range.start.line * 1000 + d.range.start.character);
  assert.deepEqual(
    positions,
    [...positions].sort((a, b) => a - b),
    'in file order',
  );
  assert.ok(diagnostics.every((d) => d.source === 'kube-foresight'));
});
