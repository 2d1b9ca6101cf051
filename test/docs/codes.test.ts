import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FINDING_CODES } from '../../protocol/finding-codes';
import { documentedCodes, ROOT } from './markdown';

// docs/codes.md's tables list exactly the codes the product can emit (protocol/finding-codes.ts, the one table
// the analyzer, the reader, the engine, the editor and the CLI use), each with its severity.

const CODES_PAGE = readFileSync(join(ROOT, 'docs', 'codes.md'), 'utf8');

/** The codes whose documented severity differs from the emitted one (undefined: not documented). */
function misdocumented(documented: ReadonlyMap<string, string>): [string, string | undefined][] {
  return Object.entries(FINDING_CODES)
    .filter(([code, severity]) => documented.get(code) !== severity)
    .map(([code]) => [code, documented.get(code)]);
}

describe('docs/codes.md', () => {
  const documented = documentedCodes(CODES_PAGE);

  test('every code the product emits is documented with its severity', () => {
    assert.deepEqual(misdocumented(documented), []);
  });

  test('every documented code exists', () => {
    const unknown = [...documented.keys()].filter((code) => !(code in FINDING_CODES));
    assert.deepEqual(unknown, []);
  });

  test('the check notices a code left out, one with another severity, and one that does not exist', () => {
    const rows = CODES_PAGE.split('\n');
    const withoutSyntax = rows.filter((row) => !row.startsWith('| `yaml-syntax`')).join('\n');
    assert.deepEqual(misdocumented(documentedCodes(withoutSyntax)), [['yaml-syntax', undefined]]);
    const demoted = rows
      .map((row) => (row.startsWith('| `yaml-syntax`') ? row.replace('| error ', '| warning ') : row))
      .join('\n');
    assert.deepEqual(misdocumented(documentedCodes(demoted)), [['yaml-syntax', 'warning']]);
    const invented = `${CODES_PAGE}\n| \`pod-teleported\` | error | a pod moved without a scheduler |\n`;
    assert.ok(documentedCodes(invented).has('pod-teleported'));
    assert.ok(!('pod-teleported' in FINDING_CODES));
  });
});
