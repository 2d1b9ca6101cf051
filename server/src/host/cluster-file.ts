/**
 * Which cluster a simulation uses: the `kubeForesight.cluster` setting (a path, relative to the analysed
 * folder), else the nearest `.foresight/cluster.yaml` at or above it, else the embedded default cluster.
 */
import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Where the default cluster file sits, relative to a folder. */
const CLUSTER_FILE = join('.foresight', 'cluster.yaml');

/** The cluster file for a folder, or undefined for the embedded default cluster. */
export function findClusterFile(folder: string, setting: string, stopAt?: string): string | undefined {
  if (setting.trim() !== '') {
    const file = isAbsolute(setting) ? setting : resolve(folder, setting);
    return statSync(file, { throwIfNoEntry: false })?.isFile() === true ? file : undefined;
  }
  for (let directory = folder; ; directory = dirname(directory)) {
    const candidate = join(directory, CLUSTER_FILE);
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile() === true) {
      return candidate;
    }
    if (
      dirname(directory) === directory ||
      (stopAt !== undefined && resolve(directory) === resolve(stopAt))
    ) {
      return undefined;
    }
  }
}
