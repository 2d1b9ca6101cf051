/**
 * How many worker threads `foresight validate` uses: none for a little input (starting a worker, which loads the
 * schemas again, costs about what analysing 20 files or 200 KB does), else one per core, 2 to 4. The environment
 * variable FORESIGHT_VALIDATE_THREADS sets the number (1: this thread only), whatever the input's size.
 */
import { availableParallelism, cpus } from 'node:os';
import type { CliIo } from '../io';
import type { InputText } from '../../language/service';

/** Below both of these, validate runs in one thread. */
const MIN_FILES = 21;
const MIN_CHARACTERS = 200 * 1024;
const MAX_THREADS = 4;

/** The number of threads to validate these texts in; 1 means this thread, without workers. */
export function validateThreadsFor(texts: readonly InputText[], io: CliIo): number {
  // Renders of two kustomizations can share a source file's name; findings are routed to workers by name, so
  // such a run stays in one thread.
  if (new Set(texts.map((text) => text.id)).size < texts.length) {
    return 1;
  }
  const forced = io.env?.['FORESIGHT_VALIDATE_THREADS'];
  if (forced !== undefined && forced !== '') {
    const count = Number(forced);
    return Number.isInteger(count) && count >= 1 ? Math.min(count, texts.length, 16) || 1 : 1;
  }
  const characters = texts.reduce((sum, text) => sum + text.text.length, 0);
  if (texts.length < 2 || (texts.length < MIN_FILES && characters < MIN_CHARACTERS)) {
    return 1;
  }
  const cores = typeof availableParallelism === 'function' ? availableParallelism() : cpus().length;
  return cores < 2 ? 1 : Math.min(cores, MAX_THREADS, texts.length);
}
