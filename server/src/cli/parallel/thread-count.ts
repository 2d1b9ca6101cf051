/**
 * How many worker threads `foresight validate` uses: none for a little input (starting a worker, which loads the
 * schemas again, costs about what analysing 20 files or 200 KB does), none on fewer than 3 cores, else one per
 * core, up to 4. The environment variable FORESIGHT_VALIDATE_THREADS sets the number (1: this thread only),
 * whatever the input's size and the cores.
 */
import { statSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { resolve } from 'node:path';
import type { CliIo } from '../io';
import type { InputText } from '../../language/service';

/** Below both of these, validate runs in one thread. */
const MIN_FILES = 21;
const MIN_CHARACTERS = 200 * 1024;
const MAX_THREADS = 4;
/**
 * Below this many cores, validate runs in one thread. One thread already keeps about one and a half cores busy (V8's
 * garbage collector and compiler work beside it: 1.6 s of CPU in 1.1 s on the 10,000-resource tree), so on 2 cores
 * a worker has half a core to win and costs more than that (its own start, warm-up and collector: 0.3 s of CPU).
 * Measured on 2 cores, one thread against two, on that tree: the same wall time when the machine is idle,
 * 0.76x when another process keeps a core busy, and 0.83x of the CPU either way.
 */
const MIN_CORES_FOR_WORKERS = 3;

/** The number of threads to validate these texts in; 1 means this thread, without workers. */
export function validateThreadsFor(texts: readonly InputText[], io: CliIo): number {
  // Renders of two kustomizations can share a source file's name; findings are routed to workers by name, so
  // such a run stays in one thread.
  if (hasRepeatedIds(texts)) {
    return 1;
  }
  const forced = io.env?.['FORESIGHT_VALIDATE_THREADS'];
  if (forced !== undefined && forced !== '') {
    const count = Number(forced);
    return Number.isInteger(count) && count >= 1 ? Math.min(count, texts.length, 16) || 1 : 1;
  }
  return isLargeInput(texts) ? Math.min(threadsOfCores(), texts.length) : 1;
}

/**
 * Whether validate goes through the pool of validate-in-threads.ts, even when it has this thread only: for input
 * that gets threads on enough cores, or more than one thread. The pool keeps of each analysed file only the places
 * findings need, so its YAML nodes die young, where the plain run keeps every file's analysis until all are
 * analysed (the collector then copies them to the old space): on the 10,000-resource tree in one thread, 0.86x
 * the CPU and 145 MB at peak instead of 231, with the same output. A little input gains nothing by it.
 */
export function validatesInPool(texts: readonly InputText[], threads: number): boolean {
  return !hasRepeatedIds(texts) && (threads > 1 || isLargeInput(texts));
}

/** Two files or more, and 21 files or 200 KB. */
function isLargeInput(texts: readonly InputText[]): boolean {
  const characters = texts.reduce((sum, text) => sum + text.text.length, 0);
  return texts.length >= 2 && (texts.length >= MIN_FILES || characters >= MIN_CHARACTERS);
}

function hasRepeatedIds(texts: readonly InputText[]): boolean {
  return new Set(texts.map((text) => text.id)).size < texts.length;
}

/**
 * The threads to start before the input is read, so that the workers load the bundle and the schemas while this
 * thread reads the files and renders the kustomizations: as many as validateThreadsFor gives many files when a
 * path is a folder or there are many paths, else 1. A guess: the caller ends the workers when the input read
 * turns out small (validateThreadsFor says 1).
 */
export function likelyThreadsFor(paths: readonly string[], io: CliIo): number {
  const forced = io.env?.['FORESIGHT_VALIDATE_THREADS'];
  if (forced !== undefined && forced !== '') {
    const count = Number(forced);
    return Number.isInteger(count) && count >= 1 ? Math.min(count, 16) : 1;
  }
  const isFolder = (path: string): boolean =>
    path !== '-' && statSync(resolve(io.cwd, path), { throwIfNoEntry: false })?.isDirectory() === true;
  return paths.length >= MIN_FILES || paths.some(isFolder) ? threadsOfCores() : 1;
}

/** One thread per core, at most MAX_THREADS; 1 below MIN_CORES_FOR_WORKERS. */
function threadsOfCores(): number {
  const cores = typeof availableParallelism === 'function' ? availableParallelism() : cpus().length;
  return cores < MIN_CORES_FOR_WORKERS ? 1 : Math.min(cores, MAX_THREADS);
}
