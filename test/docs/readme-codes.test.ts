import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FINDING_CODES } from '../../protocol/finding-codes';

// The README's code tables list exactly the codes the product can emit (protocol/finding-codes.ts, the one
// table the analyzer, the reader, the engine, the editor and the CLI use), each with its severity.

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

/** Code → severity from every README table row whose first cell holds backticked codes. */
function documentedCodes(markdown: string): Map<string, string> {
  const codes = new Map<string, string>();
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const [, first, severity] = cells;
    if (first === undefined || severity === undefined || !first.startsWith('`')) {
      continue;
    }
    if (!['error', 'warning', 'information'].includes(severity)) {
      continue;
    }
    for (const match of first.matchAll(/`([a-z0-9-]+)`/g)) {
      codes.set(match[1] ?? '', severity);
    }
  }
  return codes;
}

describe('README codes', () => {
  const documented = documentedCodes(README);

  test('every code the product emits is documented with its severity', () => {
    const missing = Object.entries(FINDING_CODES).filter(
      ([code, severity]) => documented.get(code) !== severity,
    );
    assert.deepEqual(missing, []);
  });

  test('every documented code exists', () => {
    const unknown = [...documented.keys()].filter((code) => !(code in FINDING_CODES));
    assert.deepEqual(unknown, []);
  });
});
