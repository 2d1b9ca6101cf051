/**
 * The files a kustomization is made of, read from its kustomization.yaml and those of its bases and components,
 * without running kustomize: which local files belong to the unit (so they are not read again as raw manifests)
 * and whether it names a remote base (which kustomize would fetch). The fields are kustomize's
 * (api/types/kustomization.go, v5); inline patches and generator options that are not paths are left out.
 * https://github.com/kubernetes-sigs/kustomize/blob/master/api/types/kustomization.go
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { KUSTOMIZATION_FILE_NAMES } from '../../language/service';

/** What a kustomization tree is made of. */
export interface KustomizationTree {
  /** Every local file of the unit (kustomization files, resources, patches, generator inputs), absolute. */
  readonly files: ReadonlySet<string>;
  /** The folders of kustomizations it includes (bases and components), absolute, itself left out. */
  readonly includedFolders: ReadonlySet<string>;
  /** The remote bases it names ("https://github.com/…", "git@…"), as written. */
  readonly remotes: readonly string[];
}

/** The kustomization file of a folder, or undefined when it has none. */
export function kustomizationFileIn(folder: string): string | undefined {
  return KUSTOMIZATION_FILE_NAMES.map((name) => join(folder, name)).find(
    (file) => statSync(file, { throwIfNoEntry: false })?.isFile() === true,
  );
}

/**
 * Whether a folder's kustomization is a Component (kind: Component): in a tree it is applied by the kustomizations
 * that list it under `components`, not as a unit of its own; named alone (`kubectl apply -k DIR`), kustomize builds
 * it as it builds a kustomization, but no kustomization can list it under `resources`.
 */
export function isComponentFolder(folder: string): boolean {
  const file = kustomizationFileIn(folder);
  try {
    return file !== undefined && /^kind:\s*["']?Component["']?\s*(#.*)?$/m.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Whether a resource names a remote target: a URL, an scp-like git address, or a host kustomize knows as a git
 * host (api/internal/git/repospec.go: github.com, gitlab.com, bitbucket.org, "git::" forms), a `.git` repository
 * or a `?ref=` query.
 */
export function isRemoteResource(entry: string): boolean {
  return (
    /^(https?:\/\/|ssh:\/\/|git::|git@|file:\/\/)/i.test(entry) ||
    /^(github|gitlab|bitbucket)\.(com|org)\//i.test(entry) ||
    /\?(.*&)?(ref|version|submodules|timeout)=|\.git(\/\/|\/|\?|$)/.test(entry)
  );
}

/**
 * Reads the tree of the kustomization in a folder (bounded: a base included twice is read once); `readText` gives
 * a kustomization file's text (the editor's unsaved text counts), by default the file on disk.
 */
export function readKustomizationTree(
  folder: string,
  readText: (file: string) => string = (file) => readFileSync(file, 'utf8'),
): KustomizationTree {
  const files = new Set<string>();
  const includedFolders = new Set<string>();
  const remotes: string[] = [];
  const visit = (directory: string, depth: number): void => {
    const file = kustomizationFileIn(directory);
    if (file === undefined || files.has(file) || depth > 32) {
      return;
    }
    files.add(file);
    if (depth > 0) {
      includedFolders.add(directory);
    }
    let value: unknown;
    try {
      value = parse(readText(file));
    } catch {
      return; // kustomize reports a kustomization it cannot read when it renders
    }
    if (!isRecord(value)) {
      return;
    }
    const addPath = (entry: unknown): void => {
      if (typeof entry !== 'string' || entry.includes('\n')) {
        return; // an inline patch, not a path
      }
      if (isRemoteResource(entry)) {
        remotes.push(entry);
        return;
      }
      const full = resolve(directory, entry);
      const stats = statSync(full, { throwIfNoEntry: false });
      if (stats?.isDirectory() === true) {
        visit(full, depth + 1);
      } else if (stats?.isFile() === true) {
        files.add(full);
      }
    };
    for (const field of [
      'resources',
      'bases',
      'components',
      'crds',
      'configurations',
      'patchesStrategicMerge',
    ]) {
      listOf(value[field]).forEach(addPath);
    }
    for (const field of ['transformers', 'generators', 'validators']) {
      listOf(value[field]).forEach((entry) => {
        if (typeof entry === 'string' && existsSync(resolve(directory, entry))) {
          addPath(entry);
        }
      });
    }
    for (const field of ['patches', 'patchesJson6902', 'replacements']) {
      listOf(value[field]).forEach((entry) => addPath(isRecord(entry) ? entry['path'] : undefined));
    }
    if (isRecord(value['openapi'])) {
      addPath(value['openapi']['path']);
    }
    for (const field of ['configMapGenerator', 'secretGenerator']) {
      for (const generator of listOf(value[field]).filter(isRecord)) {
        // files: "path" or "key=path"; envs: paths; env: one path.
        listOf(generator['files']).forEach((entry) =>
          addPath(typeof entry === 'string' ? entry.slice(entry.indexOf('=') + 1) : undefined),
        );
        listOf(generator['envs']).forEach(addPath);
        addPath(generator['env']);
      }
    }
  };
  visit(resolve(folder), 0);
  return { files, includedFolders, remotes };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
