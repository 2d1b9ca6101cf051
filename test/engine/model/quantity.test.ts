import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatBytes, formatMilli, parseQuantity } from '../../../server/src/engine/model/quantity';

describe('parseQuantity', () => {
  const valid: { name: string; input: string | number; milli: number; value: number }[] = [
    { name: 'millicores are thousandths', input: '500m', milli: 500, value: 1 },
    { name: 'a bare integer is whole units', input: '2', milli: 2000, value: 2 },
    { name: 'a YAML number is read as its decimal text', input: 0.5, milli: 500, value: 1 },
    {
      name: 'binary suffixes are powers of 1024',
      input: '128Mi',
      milli: 128 * 1024 ** 2 * 1000,
      value: 128 * 1024 ** 2,
    },
    { name: 'decimal suffixes are powers of 1000', input: '1G', milli: 1e12, value: 1e9 },
    { name: 'k is lowercase for kilo', input: '3k', milli: 3e6, value: 3000 },
    { name: 'an exponent is a power of ten', input: '1e3', milli: 1e6, value: 1000 },
    { name: 'a negative exponent divides', input: '25E-1', milli: 2500, value: 3 },
    { name: 'fractions round up to the next milli as MilliValue does', input: '0.0001', milli: 1, value: 1 },
    { name: 'nano values round up to one milli', input: '1n', milli: 1, value: 1 },
    { name: 'a leading dot is a valid number', input: '.5', milli: 500, value: 1 },
    { name: 'a trailing dot is a valid number', input: '5.', milli: 5000, value: 5 },
    { name: 'a plus sign is allowed', input: '+1Ki', milli: 1024000, value: 1024 },
    { name: 'zero is zero', input: '0', milli: 0, value: 0 },
  ];
  for (const { name, input, milli, value } of valid) {
    test(name, () => {
      const parsed = parseQuantity(input);
      assert.ok(parsed.ok, `${String(input)} should parse`);
      assert.equal(parsed.quantity.milli, milli);
      assert.equal(parsed.quantity.value, value);
    });
  }

  const invalid: { name: string; input: string; suggestions: string[] }[] = [
    { name: '"128mb" (megabytes) suggests 128M, then 128Mi', input: '128mb', suggestions: ['128M', '128Mi'] },
    { name: '"512mb" suggests 512M and 512Mi', input: '512mb', suggestions: ['512M', '512Mi'] },
    { name: '"1GB" suggests 1G and 1Gi', input: '1GB', suggestions: ['1G', '1Gi'] },
    { name: '"1gb" suggests 1G and 1Gi', input: '1gb', suggestions: ['1G', '1Gi'] },
    { name: '"512MIB" is binary only: 512Mi', input: '512MIB', suggestions: ['512Mi'] },
    { name: '"2 Gi" with a space suggests 2Gi', input: '2 Gi', suggestions: ['2Gi'] },
    {
      name: '"100 m" with a space suggests 100m (millicores), not megabytes',
      input: '100 m',
      suggestions: ['100m'],
    },
    { name: '"1kb" suggests 1k and 1Ki', input: '1kb', suggestions: ['1k', '1Ki'] },
    { name: '"2 cores" suggests 2', input: '2 cores', suggestions: ['2'] },
    { name: '"1 vCPU" suggests 1', input: '1 vCPU', suggestions: ['1'] },
    { name: '"250 millicores" suggests 250m', input: '250 millicores', suggestions: ['250m'] },
    {
      name: '"1g" is not guessed (a bare letter in the wrong case may be anything)',
      input: '1g',
      suggestions: [],
    },
    { name: 'a word after a number that is no unit has no suggestion', input: '2 pods', suggestions: [] },
    { name: 'a word is not a quantity and has no suggestion', input: 'lots', suggestions: [] },
    { name: 'an empty string is not a quantity', input: '', suggestions: [] },
    { name: 'a lone exponent marker is not a quantity', input: '1e', suggestions: [] },
    { name: 'two suffixes are not a quantity', input: '1KiMi', suggestions: [] },
  ];
  for (const { name, input, suggestions } of invalid) {
    test(name, () => {
      const parsed = parseQuantity(input);
      assert.equal(parsed.ok, false);
      assert.ok(!parsed.ok);
      assert.deepEqual(parsed.suggestions, suggestions);
      assert.match(parsed.message, /is not a quantity/);
    });
  }

  test('a negative quantity parses and says it is negative', () => {
    const parsed = parseQuantity('-100m');
    assert.ok(parsed.ok);
    assert.equal(parsed.quantity.isNegative, true);
    assert.equal(parsed.quantity.milli, -100);
  });

  test('an absurd exponent is refused instead of allocating a huge number', () => {
    assert.equal(parseQuantity('1e999999').ok, false);
  });
});

describe('formatting', () => {
  test('formatMilli prints whole cores without a suffix and the rest in m', () => {
    assert.equal(formatMilli(2000), '2');
    assert.equal(formatMilli(1500), '1500m');
  });
  test('formatBytes uses the largest exact binary suffix', () => {
    assert.equal(formatBytes(128 * 1024 ** 2), '128Mi');
    assert.equal(formatBytes(1536 * 1024), '1536Ki');
    assert.equal(formatBytes(1000), '1000');
  });
});
