import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FINDING_CODES } from '../../protocol/finding-codes';
import { CODE_DOCS } from '../../server/src/cli/formats/code-docs';
import { readCodeDocs } from './code-docs-source';

// SARIF's rules describe each code by its doc comment in protocol/finding-codes.ts; the CLI carries a copy
// (server/src/cli/formats/code-docs.ts), rewritten by `npx tsx test/cli/code-docs-source.ts --write`.

describe('the descriptions of finding codes', () => {
  test('the copy the CLI carries equals the doc comments of protocol/finding-codes.ts', () => {
    assert.deepEqual(
      CODE_DOCS,
      readCodeDocs(),
      'run `npx tsx test/cli/code-docs-source.ts --write` after changing protocol/finding-codes.ts',
    );
  });

  test('every code has a description of at least one sentence', () => {
    const undocumented = Object.keys(FINDING_CODES).filter(
      (code) => !/[.)]$/.test(CODE_DOCS[code as keyof typeof FINDING_CODES] ?? ''),
    );
    assert.deepEqual(undocumented, []);
  });
});
