/**
 * What a CLI command writes to, so commands can be run from tests without spawning a process.
 */

/** Output streams and the working directory of one CLI invocation. */
export interface CliIo {
  /** Writes to standard output (the text is written as is: include newlines). */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
  /** The directory relative paths are resolved against. */
  cwd: string;
  /** Reads all of standard input (the path `-`); absent when the invocation has none (tests that pass no input). */
  readStdin?: () => string;
  /** The environment variables the commands read (GITHUB_ACTIONS); none when absent. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The script a worker thread runs (the CLI bundle, dist/cli.js): `foresight validate` shares many files out to
   * worker threads only when it is set; commands run in-process (tests) leave it out and run in one thread.
   */
  workerScript?: string;
}

/** The most characters handed to one write: a report of a 150,000-pod capture is 176 MB of JSON. */
export const WRITE_PIECE_LENGTH = 1 << 20;

/**
 * Writes a text in pieces of about WRITE_PIECE_LENGTH characters: one write of a 176 MB string made one 176 MB
 * buffer beside it (seconds of encoding and collection, and that much more peak memory). A piece never ends between
 * the two halves of a surrogate pair, which would encode as two replacement characters.
 */
export function writeInPieces(write: (piece: string) => void, text: string): void {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + WRITE_PIECE_LENGTH, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) {
      end -= 1;
    }
    write(text.slice(start, end));
    start = end;
  }
}
