/**
 * Which files `kubectl apply -f PATH` reads, in a stable order: a file named on the command line whatever its
 * extension; from a folder its `.yaml`, `.yml` and `.json` files, and those of its sub-folders only with `-R`
 * (kubectl's FilenameOptions.Recursive). A Helm chart folder (a `Chart.yaml` beside a `templates/` folder) is not
 * a folder of manifests but a template to render: it is skipped as a unit and reported, not read file by file.
 * https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/cli-runtime/pkg/resource/visitor.go
 * (ExpandPathsToFileVisitors: FileExtensions [".json", ".yaml", ".yml"], sub-directories only when recursive).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { kustomizationFileIn } from './kustomize/kustomization-tree';

/** File extensions taken from directories. */
const MANIFEST_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

/** The path that stands for standard input on a command line. */
export const STDIN_PATH = '-';

/** The files found, the Helm chart folders skipped, and the paths that could not be read. */
interface CollectedFiles {
  readonly files: string[];
  /** Helm chart folders met (named or walked into), each skipped as a unit. */
  readonly charts: string[];
  readonly missing: string[];
}

/** How to walk folders, and bounds on the walk. */
interface CollectOptions {
  /** Walk into sub-folders (`kubectl apply -R`). */
  readonly recursive?: boolean;
  /** Stop after this many files. */
  readonly maxFiles?: number;
  /** Stop after reading this many directory entries (files and folders). */
  readonly maxEntries?: number;
  /**
   * Leave out folders holding a kustomization (the command line's units): each is applied as `kubectl apply -k`
   * applies it, by its render (files/kustomize/kustomization-units.ts), never file by file.
   */
  readonly skipKustomizations?: boolean;
}

/** Whether a file name has an extension `kubectl apply -f DIR` reads. */
export function isManifestFileName(name: string): boolean {
  return (MANIFEST_EXTENSIONS as readonly string[]).includes(extname(name).toLowerCase());
}

/** Whether a folder is a Helm chart: a Chart.yaml beside a templates/ folder. */
export function isHelmChartFolder(directory: string): boolean {
  return (
    existsSync(join(directory, 'Chart.yaml')) &&
    statSync(join(directory, 'templates'), { throwIfNoEntry: false })?.isDirectory() === true
  );
}

/** How many folders up from a file a chart folder is looked for (templates/ files nest a level or two). */
const MAX_CHART_LEVELS = 4;

/**
 * The Helm chart folder a file belongs to, if any: the nearest folder above it (a few levels at most) holding a
 * Chart.yaml beside templates/. The editor skips such a file as the CLI skips the chart, as a unit.
 */
export function chartFolderOf(file: string): string | undefined {
  let folder = dirname(resolve(file));
  for (let level = 0; level < MAX_CHART_LEVELS; level++) {
    if (isHelmChartFolder(folder)) {
      return folder;
    }
    const parent = dirname(folder);
    if (parent === folder) {
      return undefined;
    }
    folder = parent;
  }
  return undefined;
}

/** Expands paths (files or folders; `-` is standard input, left to the caller) into manifest files. */
export function collectManifestFiles(
  paths: readonly string[],
  cwd: string,
  options: CollectOptions = {},
): CollectedFiles {
  const maxFiles = options.maxFiles ?? Infinity;
  const maxEntries = options.maxEntries ?? Infinity;
  let entries = 0;
  const files: string[] = [];
  const charts: string[] = [];
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
    if (isHelmChartFolder(directory)) {
      charts.push(directory);
      return;
    }
    if (options.skipKustomizations === true && kustomizationFileIn(directory) !== undefined) {
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
      // Not kubectl's rule: hidden folders (.git, .foresight with its cluster file) and node_modules hold no
      // manifests to apply.
      if (name === 'node_modules' || name.startsWith('.')) {
        continue;
      }
      const full = join(directory, name);
      const stats = statSync(full, { throwIfNoEntry: false });
      if (stats?.isDirectory()) {
        if (options.recursive === true) {
          walk(full, depth + 1);
        }
      } else if (stats?.isFile() && isManifestFileName(name)) {
        add(full);
      }
    }
  };
  for (const path of paths) {
    if (path === STDIN_PATH) {
      continue;
    }
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
  return { files, charts, missing };
}
