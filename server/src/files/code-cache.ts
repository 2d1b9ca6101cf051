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
 * The build writes the CLI's caches after a run (writeCodeCachesAfter): V8's data then holds the functions the run
 * compiled as well, not only those compiled before anything runs, and a process that does that work again skips
 * compiling them.
 *
 * Format of FILE.cache: the 4 bytes "KFC1", the 32 bytes of the source file's SHA-256, V8's cached data.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import * as nodeVm from 'node:vm';
import { Script } from 'node:vm';
import type { ScriptOptions } from 'node:vm';

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
  return {
    exports: runCompiled(script, file, createRequire(file)),
    cache: cached === undefined ? 'absent' : script.cachedDataRejected === true ? 'rejected' : 'used',
  };
}

/**
 * At build time: runs a CommonJS file as loadWithCodeCache does, without a cache, lets `exercise` use its exports,
 * then writes the code cache of the file and of each file it loaded meanwhile with loadWithCodeCache (its own copy
 * of this module). Each cache is taken after the run, so it holds the functions the run compiled: for the CLI
 * bundle and the validators, 1.3 MB and 0.9 MB instead of 0.7 MB and 9 KB, and a one-file `foresight validate`
 * spent 0.90x the CPU. Returns the files whose caches were written.
 */
export async function writeCodeCachesAfter(
  file: string,
  exercise: (exports: unknown) => Promise<void>,
): Promise<string[]> {
  const compiled: { readonly file: string; readonly script: Script }[] = [];
  // The scripts the file compiles itself are kept through its `node:vm`, which compiles without a cache.
  class KeptScript extends Script {
    constructor(code: string, options?: ScriptOptions) {
      const uncached: ScriptOptions = { ...options };
      delete uncached.cachedData;
      super(code, uncached);
      if (uncached.filename !== undefined) {
        compiled.push({ file: uncached.filename, script: this });
      }
    }
  }
  const vm = { ...nodeVm, Script: KeptScript };
  const own = createRequire(file);
  const require = Object.assign(
    (id: string): unknown => (id === 'node:vm' || id === 'vm' ? vm : own(id)),
    own,
  ) as NodeJS.Require;
  const script = new KeptScript(wrap(readFileSync(file, 'utf8')), { filename: file });
  await exercise(runCompiled(script, file, require));
  for (const entry of compiled) {
    writeFileSync(
      `${entry.file}.cache`,
      Buffer.concat([MAGIC, sha256(readFileSync(entry.file)), entry.script.createCachedData()]),
    );
  }
  return compiled.map((entry) => entry.file);
}

/** Runs a compiled file's wrapper with its own module object; returns its exports. */
function runCompiled(script: Script, file: string, require: NodeJS.Require): unknown {
  const module = { exports: {} as unknown, filename: file, id: file, loaded: false };
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  run.call(module.exports, module.exports, require, module, file, dirname(file));
  module.loaded = true;
  return module.exports;
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
