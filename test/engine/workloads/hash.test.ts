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

  // Every template hash (pod-template-hash, controller-revision-hash) depends on this text: the appending
  // canonicalJson must write what the first one (map, sort, join) wrote, for any value a manifest can hold.
  const referenceCanonicalJson = (value: unknown): string => {
    if (Array.isArray(value)) {
      return `[${value.map((item) => referenceCanonicalJson(item)).join(',')}]`;
    }
    if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, entry]) => entry !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${referenceCanonicalJson(entry)}`).join(',')}}`;
    }
    return JSON.stringify(value) ?? 'null';
  };
  /** [undefined, 1, <absent>, 2, <absent>, <absent>]: what JSON never holds, but the reference handles. */
  const sparseArray = (): unknown[] => {
    const items: unknown[] = [undefined, 1];
    items[3] = 2;
    items.length = 6;
    return items;
  };
  const canonicalCases: readonly [string, unknown][] = [
    [
      'undefined values are left out, at the start, middle and end',
      { a: undefined, b: 1, c: undefined, d: 2, e: undefined },
    ],
    ['an object of only undefined values is empty', { a: undefined }],
    ['undefined and absent items of arrays', sparseArray()],
    ['keys sort by code unit (capitals, digits, non-ASCII)', { b: 1, B: 2, '10': 3, '9': 4, é: 5, a: 6 }],
    ['keys that need escaping', { 'a"b': 1, 'line\nbreak': 2, '\u2028': 3 }],
    [
      'numbers, NaN and infinities, booleans and null',
      [0, -0, 1.5, NaN, Infinity, -Infinity, true, false, null],
    ],
    [
      'nested arrays of objects',
      { spec: { containers: [{ name: 'a', env: [{ name: 'X', value: '' }] }, {}] } },
    ],
    ['strings with quotes and unicode', ['"q"', 'naïve ☃', '']],
    ['empty containers', { a: {}, b: [], c: [[]] }],
  ];
  for (const [name, value] of canonicalCases) {
    void test(`canonical JSON writes what the reference writes: ${name}`, () => {
      assert.equal(canonicalJson(value), referenceCanonicalJson(value));
    });
  }

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

  void test('a seeded UID is made of the FNV-1a hashes of the seed followed by /0 to /3, for any text', () => {
    // seededUid hashes the seed once and continues from it: the same as hashing each part's text whole.
    // 200 numbered seeds besides: hashes with leading zero digits among them.
    const numbered = Array.from({ length: 200 }, (_, index) => `Deployment/default/app-${index}`);
    for (const seed of [
      '',
      'a',
      'ReplicaSet/default/web-7c5ddbdf54',
      'naïve ☃ 🚀',
      'lone \ud800',
      ...numbered,
    ]) {
      const hex = [0, 1, 2, 3]
        .map((part) => fnv1a32(`${seed}/${part}`).toString(16).padStart(8, '0'))
        .join('');
      const expected = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
      assert.equal(seededUid(seed), expected, seed);
    }
  });
});
