import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TextReads } from '../../server/src/files/text-reads';

// TextReads decodes a file's bytes itself (faster than readFileSync(file, 'utf8') on large captures); the text
// must be what readFileSync(file, 'utf8') gives, whatever the bytes.

describe('TextReads', () => {
  const CASES: readonly { name: string; bytes: Buffer }[] = [
    { name: 'plain ASCII YAML reads as written', bytes: Buffer.from('kind: Node\nmetadata: {}\n') },
    {
      name: 'a byte-order mark is kept, as readFileSync keeps it',
      bytes: Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x3a, 0x20, 0x31, 0x0a]),
    },
    {
      name: 'multi-byte characters (an emoji, a no-break space) decode as UTF-8',
      bytes: Buffer.from('name: "caf\u00e9 \u{1f600}"\u00a0\n', 'utf8'),
    },
    {
      name: 'invalid and truncated sequences become replacement characters alike',
      bytes: Buffer.from([0x61, 0xff, 0xfe, 0x20, 0xc3, 0x28, 0x20, 0xe2, 0x82, 0x0a, 0xf0, 0x9f, 0x98]),
    },
    { name: 'an empty file is the empty text', bytes: Buffer.alloc(0) },
  ];
  for (const { name, bytes } of CASES) {
    test(name, () => {
      const file = join(mkdtempSync(join(tmpdir(), 'foresight-text-reads-')), 'file.yaml');
      writeFileSync(file, bytes);
      assert.equal(new TextReads().read(file), readFileSync(file, 'utf8'));
    });
  }

  test('a file is read once: a second read gives the first text even after the file changed', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'foresight-text-reads-')), 'file.yaml');
    writeFileSync(file, 'first\n');
    const reads = new TextReads();
    assert.equal(reads.read(file), 'first\n');
    writeFileSync(file, 'second\n');
    assert.equal(reads.read(file), 'first\n');
  });

  test('a missing file throws from read and is undefined from readOrUndefined', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'foresight-text-reads-')), 'missing.yaml');
    const reads = new TextReads();
    assert.throws(() => reads.read(file), /ENOENT/);
    assert.equal(reads.readOrUndefined(file), undefined);
  });
});
