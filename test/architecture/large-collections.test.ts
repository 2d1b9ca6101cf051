import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import type { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { appendAll, assignAll, maxOf, minOf } from '../../protocol/collections';

// A capture of 150,000 pods crashed `foresight simulate` with "RangeError: Maximum call stack size exceeded" in
// Math.max(0, ...pods). Lint refuses such spreads (eslint.collections.mjs); the helpers take any size.

const ROOT = join(__dirname, '..', '..');
/** More elements than V8 accepts as the arguments of one call. */
const LARGE = 300_000;

describe('reductions and appends over a large collection', () => {
  const values = Array.from({ length: LARGE }, (_, i) => (i * 7919) % LARGE);

  test('spreading it into Math.max overflows the stack, which is why the helpers exist', () => {
    // eslint-disable-next-line no-restricted-syntax -- the crash this file guards against, shown once
    assert.throws(() => Math.max(...values), RangeError);
  });

  test('maxOf and minOf give the largest and smallest of it', () => {
    assert.equal(maxOf(values), LARGE - 1);
    assert.equal(minOf(values), 0);
  });

  test('maxOf and minOf keep their bound when it wins, and over nothing return it', () => {
    assert.equal(maxOf([3, 4], 10), 10);
    assert.equal(minOf([3, 4], 1), 1);
    assert.equal(maxOf([], 0), 0);
    assert.equal(maxOf([]), Number.NEGATIVE_INFINITY);
    assert.equal(minOf([]), Number.POSITIVE_INFINITY);
  });

  test('a NaN makes the result NaN, as Math.max does', () => {
    assert.ok(Number.isNaN(maxOf([1, Number.NaN, 2])));
    assert.ok(Number.isNaN(minOf([1, Number.NaN, 2])));
  });

  test('appendAll appends every element in order and returns the target', () => {
    const target = [-1];
    assert.equal(appendAll(target, values), target);
    assert.equal(target.length, LARGE + 1);
    assert.equal(target[1], values[0]);
    assert.equal(target[LARGE], values[LARGE - 1]);
  });

  test('assignAll merges every source in order, later ones winning, onto the target it returns', () => {
    const target: Record<string, number> = { base: 1 };
    const sources = values.map((value, index) => ({ [`k${index % 1000}`]: value, last: index }));
    assert.equal(assignAll(target, sources), target);
    assert.equal(target['base'], 1);
    assert.equal(target['last'], LARGE - 1);
    assert.equal(target['k999'], values[LARGE - 1]);
  });

  test('appendAll takes any iterable', () => {
    assert.deepEqual(appendAll(['a'], new Set(['b', 'c'])), ['a', 'b', 'c']);
  });
});

describe('lint refuses a collection spread into a call', () => {
  const linter = (async () => {
    const { LARGE_COLLECTION_RULES } = (await import(join(ROOT, 'eslint.collections.mjs'))) as {
      LARGE_COLLECTION_RULES: Linter.RulesRecord;
    };
    return new ESLint({
      cwd: ROOT,
      overrideConfigFile: true,
      overrideConfig: [
        { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: LARGE_COLLECTION_RULES },
      ],
    });
  })();
  const cases: { code: string; refused: boolean }[] = [
    { code: 'Math.max(...pods.map((p) => p.start));', refused: true },
    { code: 'Math.min(0, ...starts);', refused: true },
    { code: 'findings.push(...more);', refused: true },
    { code: 'lines.unshift(...header);', refused: true },
    { code: 'all.concat(...lists);', refused: true },
    { code: 'String.fromCharCode(...codes);', refused: true },
    { code: 'Object.assign({}, ...scenarios.map((s) => s.timing));', refused: true },
    { code: 'Object.assign({}, defaults, { a: 1 });', refused: false },
    { code: 'Math.max(a, b);', refused: false },
    { code: 'findings.push({ ...finding, path });', refused: false },
    { code: 'const both = [...a, ...b];', refused: false },
    { code: 'log(...args);', refused: false },
  ];
  for (const { code, refused } of cases) {
    test(`${refused ? 'refuses' : 'allows'} ${code}`, async () => {
      const [result] = await (await linter).lintText(code, { filePath: join(ROOT, 'server/src/x.ts') });
      const messages = (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax');
      assert.equal(messages.length > 0, refused, JSON.stringify(result?.messages));
    });
  }
});
