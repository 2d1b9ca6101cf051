/**
 * Collects the manifest files named on a command line, reading directories recursively the way
 * `kubectl apply -f DIR` does (files ending in .yaml, .yml or .json), in a stable order.
 */
import { readdirSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';

/** File extensions taken from directories. */
export const MANIFEST_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

/** The files found, and the paths that could not be read. */
export interface CollectedFiles {
  readonly files: string[];
  readonly missing: string[];
}

/** Bounds on a directory walk. */
export interface CollectLimits {
  /** Stop after this many files. */
  readonly maxFiles?: number;
  /** Stop after reading this many directory entries (files and folders). */
  readonly maxEntries?: number;
}

/** Expands paths (files or directories) into manifest files, sorted within each directory. */
export function collectManifestFiles(
  paths: readonly string[],
  cwd: string,
  limits: CollectLimits = {},
): CollectedFiles {
  const maxFiles = limits.maxFiles ?? Infinity;
  const maxEntries = limits.maxEntries ?? Infinity;
  let entries = 0;
  const files: string[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  const add = (file: string): void => {
    if (!seen.has(file)) {
      seen.add(file);
      files.push(file);
    }
  };
  const walk = (directory: string, depth: number): void => {
    if (depth > 64 || files.length >= maxFiles || entries >= maxEntries) {
      return;
    }
    let names: string[];
    try {
      names = readdirSync(directory).sort();
    } catch {
      return;
    }
    for (const name of names) {
      entries++;
      if (files.length >= maxFiles || entries >= maxEntries) {
        return;
      }
      if (name === 'node_modules' || name.startsWith('.')) {
        continue;
      }
      const full = join(directory, name);
      const stats = statSync(full, { throwIfNoEntry: false });
      if (stats?.isDirectory()) {
        walk(full, depth + 1);
      } else if (
        stats?.isFile() &&
        (MANIFEST_EXTENSIONS as readonly string[]).includes(extname(name).toLowerCase())
      ) {
        add(full);
      }
    }
  };
  for (const path of paths) {
    const full = resolve(cwd, path);
    const stats = statSync(full, { throwIfNoEntry: false });
    if (stats === undefined) {
      missing.push(path);
    } else if (stats.isDirectory()) {
      walk(full, 0);
    } else {
      add(full);
    }
  }
  return { files, missing };
}
