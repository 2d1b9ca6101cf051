/**
 * The panel's short texts, in plain Node: the axis's clock labels, the length of a break (at most four
 * characters: a break is about 32 px at 480 px), and a chip label shortened in the middle to a length.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chipLabel, formatClock, formatShortDuration } from '../../../media/format';

describe('the axis labels', () => {
  const clocks: readonly [number, string][] = [
    [0, '0:00'],
    [7.9, '0:07'],
    [300, '5:00'],
    [3750, '1:02:30'],
    [-4, '0:00'],
    [Number.NaN, '0:00'],
  ];
  for (const [seconds, text] of clocks) {
    test(`${seconds} s reads ${text} at a segment's start`, () => assert.equal(formatClock(seconds), text));
  }

  const breaks: readonly [number, string][] = [
    [46, '46s'],
    [99.4, '99s'],
    [100, '1.7m'],
    [262, '4.4m'],
    [600, '10m'],
    [5940, '99m'],
    [9000, '2.5h'],
    [108000, '30h'],
  ];
  for (const [seconds, text] of breaks) {
    test(`a break of ${seconds} s reads ${text}, at most four characters`, () => {
      assert.equal(formatShortDuration(seconds), text);
      assert.ok(text.length <= 4);
    });
  }
});

describe('chip labels', () => {
  const cases: readonly [string, number | undefined, string][] = [
    ['web-0', undefined, 'web-0'],
    ['storefront-659c8dc46c-z4tv7', undefined, 'storefront-65…-z4tv7'],
    ['storefront-659c8dc46c-z4tv7', 27, 'storefront-659c8dc46c-z4tv7'],
    ['kube-controller-manager-control-plane', 30, 'kube-controller-manager…-plane'],
    ['x'.repeat(300), 20, `${'x'.repeat(13)}…xxxxxx`],
  ];
  for (const [name, max, label] of cases) {
    test(`${name.slice(0, 40)} at ${max ?? 'the default'} characters reads ${label.slice(0, 30)}`, () => {
      assert.equal(chipLabel(name, max), label);
      assert.ok(label.length <= (max ?? 20));
    });
  }
});
