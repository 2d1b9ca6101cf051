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
