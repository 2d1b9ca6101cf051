import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { loadWithCodeCache } from '../../server/src/files/code-cache';

// Loading a bundle with V8's code cache (server/src/files/code-cache.ts): the cache is used only for the source it
// was made from, and a file loads the same with it, without it, or with a cache that does not fit.

const ROOT = join(__dirname, '..', '..');

let files = 0;

/**
 * writeCodeCache in a process of its own, as the build runs it: a process that compiled a text itself answers a
 * second compile from memory without reading the cache at all.
 */
function writeCodeCache(file: string): void {
  const module = join(ROOT, 'server', 'src', 'files', 'code-cache.ts');
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '-e', `require(${JSON.stringify(module)}).writeCodeCache(${JSON.stringify(file)})`],
    { encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
}

/**
 * A file of this body in a folder of its own, with a last line of its own: V8 keeps what a process compiled by
 * source text, so a text compiled by an earlier test would not be compiled (nor its cache read) again.
 */
function moduleFile(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'foresight-code-cache-'));
  files++;
  body = `${body}// file ${String(files).padStart(4, '0')}\n`;
  writeFileSync(join(dir, 'helper.js'), 'module.exports = { twice: (n) => 2 * n };\n');
  const file = join(dir, 'bundle.js');
  writeFileSync(file, body);
  return file;
}

const BODY = [
  '#!/usr/bin/env node',
  "const { twice } = require('./helper');",
  "const path = require('node:path');",
  'exports.answer = twice(21);',
  'exports.where = [path.basename(__filename), path.basename(__dirname) === path.basename(path.dirname(__filename))];',
  'exports.self = module.exports === exports;',
  '',
].join('\n');

describe('loading a bundle with its code cache', () => {
  test('without a cache the file runs as require runs it: its require, __filename, __dirname, a #! line', () => {
    const loaded = loadWithCodeCache(moduleFile(BODY));
    assert.equal(loaded.cache, 'absent');
    assert.deepEqual(loaded.exports, { answer: 42, where: ['bundle.js', true], self: true });
  });

  test('the cache written for the file is used, and the file runs the same', () => {
    const file = moduleFile(BODY);
    writeCodeCache(file);
    const loaded = loadWithCodeCache(file);
    assert.equal(loaded.cache, 'used');
    assert.deepEqual(loaded.exports, { answer: 42, where: ['bundle.js', true], self: true });
  });

  test('a cache of another source of the same length is not used (V8 itself checks only the length)', () => {
    const file = moduleFile(BODY);
    writeCodeCache(file);
    const text = readFileSync(file, 'utf8');
    const changed = text.replace('twice(21)', 'twice(12)');
    assert.equal(changed.length, text.length);
    writeFileSync(file, changed);
    const loaded = loadWithCodeCache(file);
    assert.equal(loaded.cache, 'absent');
    assert.equal((loaded.exports as { answer: number }).answer, 24);
  });

  test('a cache file of garbage changes nothing but the time', () => {
    const file = moduleFile(BODY);
    writeFileSync(`${file}.cache`, 'not a cache');
    const loaded = loadWithCodeCache(file);
    assert.equal(loaded.cache, 'absent');
    assert.equal((loaded.exports as { answer: number }).answer, 42);
  });

  test('V8 data of another V8 is rejected by V8, and the file runs the same', () => {
    const file = moduleFile(BODY);
    writeCodeCache(file);
    const cache = readFileSync(`${file}.cache`);
    // Keep our header (magic and the source's hash); change V8's own header (its magic number and version hash)
    // as data made by another V8 has another.
    cache.fill(7, 36, 36 + 8);
    writeFileSync(`${file}.cache`, cache);
    const loaded = loadWithCodeCache(file);
    assert.equal(loaded.cache, 'rejected');
    assert.equal((loaded.exports as { answer: number }).answer, 42);
  });
});

describe('writing the caches after a run (the build, for the CLI bundle)', () => {
  test('the file and each file it compiled while exercised get a cache made from their source, which is used', () => {
    const inner = moduleFile('exports.triple = (n) => 3 * n;\n');
    // The bundle loads the inner file as its copy of code-cache.ts does: a Script of node:vm with a filename.
    const file = moduleFile(
      [
        "const vm = require('node:vm');",
        "const fs = require('node:fs');",
        `const innerFile = ${JSON.stringify(inner)};`,
        "const wrapper = '(function (exports) { ' + fs.readFileSync(innerFile, 'utf8') + '\\n});';",
        'const inner = {};',
        'new vm.Script(wrapper, { filename: innerFile }).runInThisContext()(inner);',
        'exports.run = () => inner.triple(14);',
        '',
      ].join('\n'),
    );
    const module = join(ROOT, 'server', 'src', 'files', 'code-cache.ts');
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `require(${JSON.stringify(module)}).writeCodeCachesAfter(${JSON.stringify(file)}, async (exports) => {` +
          " if (exports.run() !== 42) throw new Error('not run'); })" +
          '.then((files) => console.log(JSON.stringify(files)))',
      ],
      { encoding: 'utf8' },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), [file, inner]);
    for (const written of [file, inner]) {
      const cache = readFileSync(`${written}.cache`);
      assert.ok(cache.subarray(4, 36).equals(createHash('sha256').update(readFileSync(written)).digest()));
    }
    const loaded = loadWithCodeCache(file);
    assert.equal(loaded.cache, 'used');
    assert.equal((loaded.exports as { run: () => number }).run(), 42);
  });
});

// npm run build writes the caches of the bundles the CLI loads whole: each must be of the bundle built beside it.
describe('the build wrote the caches of the CLI bundle and the validators', () => {
  for (const file of ['cli-bundle.js', 'kubernetes-validators-1.35.js']) {
    const path = join(ROOT, 'dist', file);
    test(
      `dist/${file}.cache is made from dist/${file}`,
      { skip: !existsSync(path) && 'dist is not built' },
      () => {
        const cache = readFileSync(`${path}.cache`);
        assert.equal(cache.subarray(0, 4).toString(), 'KFC1');
        assert.ok(cache.subarray(4, 36).equals(createHash('sha256').update(readFileSync(path)).digest()));
        assert.equal(loadWithCodeCache(path).cache, 'used');
      },
    );
  }
});
