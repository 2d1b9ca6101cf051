/**
 * Loading a large bundle with V8's code cache: the build compiles dist/cli-bundle.js and the prebuilt validators
 * once and keeps V8's cached data beside each (FILE.cache), so that a process (and each `foresight validate`
 * worker thread) skips parsing and compiling 2.7 MB and 2.8 MB of JavaScript, about a fifth of a one-file
 * `foresight validate`'s CPU. Node 20 has no compile cache of its own (module.enableCompileCache came in 22.1).
 *
 * The cache only ever saves time: V8 rejects data made by another V8 version or with other flags (a process of
 * another Node compiles as without it), and since V8 checks only the source's length, each cache file starts
 * with the SHA-256 of the source it was made from; a cache of another source is not used at all.
 *
 * Format of FILE.cache: the 4 bytes "KFC1", the 32 bytes of the source file's SHA-256, V8's cached data.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

const MAGIC = Buffer.from('KFC1');
const HEADER_LENGTH = MAGIC.length + 32;

/** What loading a file with its cache did: its exports, and whether V8 took the cached data. */
export interface CachedLoad {
  readonly exports: unknown;
  readonly cache: 'used' | 'rejected' | 'absent';
}

/**
 * Runs a CommonJS file as `require` would (its own module object, a require relative to it, __filename and
 * __dirname) with the code cache beside it when that was made from this very source; returns its exports.
 */
export function loadWithCodeCache(file: string): CachedLoad {
  const source = readFileSync(file);
  const cached = cachedDataFor(source, readCache(`${file}.cache`));
  const script = new Script(wrap(source.toString('utf8')), {
    filename: file,
    ...(cached === undefined ? {} : { cachedData: cached }),
  });
  const module = { exports: {} as unknown, filename: file, id: file, loaded: false };
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return {
    exports: module.exports,
    cache: cached === undefined ? 'absent' : script.cachedDataRejected === true ? 'rejected' : 'used',
  };
}

/** Compiles a file (without running it) and writes its code cache beside it, as FILE.cache (at build time). */
export function writeCodeCache(file: string): void {
  const source = readFileSync(file);
  const data = new Script(wrap(source.toString('utf8')), { filename: file }).createCachedData();
  writeFileSync(`${file}.cache`, Buffer.concat([MAGIC, sha256(source), data]));
}

/** The text V8 compiles: Node's CommonJS wrapper around the file, a `#!` first line made a comment. */
function wrap(text: string): string {
  const body = text.startsWith('#!') ? `//${text.slice(2)}` : text;
  return `(function (exports, require, module, __filename, __dirname) { ${body}\n});`;
}

function readCache(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** The V8 data of a cache made from this source, or undefined. */
function cachedDataFor(source: Buffer, cache: Buffer | undefined): Buffer | undefined {
  if (
    cache === undefined ||
    cache.length <= HEADER_LENGTH ||
    !cache.subarray(0, MAGIC.length).equals(MAGIC) ||
    !cache.subarray(MAGIC.length, HEADER_LENGTH).equals(sha256(source))
  ) {
    return undefined;
  }
  return cache.subarray(HEADER_LENGTH);
}

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}
