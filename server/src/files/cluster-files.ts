/**
 * Where a folder's cluster file is: the nearest `.foresight/cluster.yaml` at or above it. One lookup for the
 * editor (host/cluster-file.ts, the `kubeForesight.cluster` setting's "nearest" rule) and for `foresight
 * simulate`, which simulates each apply unit on its own (docs/cli.md, "Each unit on its cluster").
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** Where a cluster file sits, relative to the folder it serves. */
export const CLUSTER_FILE = join('.foresight', 'cluster.yaml');

/**
 * The nearest cluster file at or above `folder`, or undefined: the walk ends after `stopAt` (a workspace folder,
 * a repository's root) when it is passed, else at the file system's root.
 */
export function nearestClusterFile(folder: string, stopAt?: string): string | undefined {
  const stop = stopAt === undefined ? undefined : resolve(stopAt);
  for (let directory = resolve(folder); ; directory = dirname(directory)) {
    const candidate = join(directory, CLUSTER_FILE);
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile() === true) {
      return candidate;
    }
    if (dirname(directory) === directory || directory === stop) {
      return undefined;
    }
  }
}

/**
 * Where a command line's search for a folder's cluster file stops, as the editor's stops at its workspace folder:
 * the root of the git repository holding the folder (a folder with `.git`, a directory or a worktree's file),
 * else the working directory when it holds the folder, else the folder itself (a path outside both borrows no
 * cluster file from the folders above it).
 */
export function clusterSearchRoot(folder: string, cwd: string): string {
  const start = resolve(folder);
  for (let directory = start; ; directory = dirname(directory)) {
    if (existsSync(join(directory, '.git'))) {
      return directory;
    }
    if (dirname(directory) === directory) {
      break;
    }
  }
  const fromCwd = relative(resolve(cwd), start);
  const isInsideCwd = fromCwd === '' || (!fromCwd.startsWith('..') && !isAbsolute(fromCwd));
  return isInsideCwd ? resolve(cwd) : start;
}
