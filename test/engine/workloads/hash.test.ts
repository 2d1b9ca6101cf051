import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  SAFE_ALPHABET,
  canonicalJson,
  fnv1a32,
  safeEncodeString,
  seededSuffix,
  seededUid,
  templateHash,
} from '../../../server/src/engine/workloads/hash';

void describe('workload hashes', () => {
  const fnvCases: readonly [string, string, number][] = [
    ['the FNV-1a hash of the empty string is the offset basis', '', 0x811c9dc5],
    ['the FNV-1a hash of "a" is the published test vector', 'a', 0xe40c292c],
    ['the FNV-1a hash of "foobar" is the published test vector', 'foobar', 0xbf9cf968],
    // The ASCII fast path must give way to the UTF-8 bytes (FNV over 2-, 3- and 4-byte sequences).
    ['the FNV-1a hash of text beyond ASCII is taken over its UTF-8 bytes', 'naïve ☃ 🚀', 0x7e1c55bf],
  ];
  for (const [name, input, expected] of fnvCases) {
    void test(name, () => assert.equal(fnv1a32(input), expected));
  }

  const encodeCases: readonly [string, string, string][] = [
    ['SafeEncodeString maps each decimal digit by its character code modulo 27', '0123456789', '456789bcdf'],
    ['SafeEncodeString of the empty string is empty', '', ''],
  ];
  for (const [name, input, expected] of encodeCases) {
    void test(name, () => assert.equal(safeEncodeString(input), expected));
  }

  void test('canonical JSON sorts keys at every depth and keeps array order', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [2, 1], c: null } }), '{"a":{"c":null,"d":[2,1]},"b":1}');
  });

  void test('a template hash ignores key order and changes with content', () => {
    const one = templateHash({ metadata: { labels: { app: 'web' } }, spec: { containers: [] } });
    const reordered = templateHash({ spec: { containers: [] }, metadata: { labels: { app: 'web' } } });
    const changed = templateHash({ metadata: { labels: { app: 'api' } }, spec: { containers: [] } });
    assert.equal(one, reordered);
    assert.notEqual(one, changed);
    assert.match(one, new RegExp(`^[${SAFE_ALPHABET}]{9,10}$`));
  });

  void test('seeded suffixes are five safe characters and stable for a seed', () => {
    assert.match(seededSuffix('x'), new RegExp(`^[${SAFE_ALPHABET}]{5}$`));
    assert.equal(seededSuffix('x'), seededSuffix('x'));
    assert.notEqual(seededSuffix('x'), seededSuffix('y'));
  });

  void test('seeded UIDs are shaped like version-4 UUIDs and stable for a seed', () => {
    assert.match(
      seededUid('Job/default/pi'),
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.equal(seededUid('a'), seededUid('a'));
  });
});
