/**
 * Which files a GitOps controller reads from a folder, as its source says:
 *
 * - Argo CD decides what a path is (util/app/discovery/discovery.go, AppType): a Helm chart when it holds a
 *   Chart.yaml, a kustomization when it holds a kustomization file, else a plain directory; a type set on the
 *   source (`helm`, `kustomize`, `directory`, `plugin`) wins (ApplicationSource.ExplicitType). A directory is read
 *   by reposerver/repository/repository.go (findManifests): files matching `.yaml`, `.yml`, `.json` or `.jsonnet`,
 *   sub-folders only with `directory.recurse` (false by default), `exclude` then `include` globs matched against
 *   the path relative to the folder (util/glob: gobwas globs, `*` crossing `/`, `{a,b}` alternatives).
 * - Flux's kustomize-controller builds every path with kustomize: a folder holding a kustomization file is used
 *   as it is; else one is generated (fluxcd/pkg kustomize/kustomize_generator.go, generateKustomization) listing
 *   every `.yaml` and `.yml` file below the folder, recursively, with each sub-folder holding a kustomization
 *   listed as a resource (rendered) and not descended into.
 */
import { readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { kustomizationFileIn } from '../kustomize/kustomization-tree';

/** What a folder is to Argo CD. */
export type ArgoSourceType = 'Helm' | 'Kustomize' | 'Directory' | 'Plugin';

/** The type Argo CD gives a source: the one set on it, else what its folder holds. */
export function argoSourceTypeOf(folder: string, explicit: readonly string[]): ArgoSourceType {
  if (explicit.includes('plugin')) {
    return 'Plugin';
  }
  if (explicit.includes('helm')) {
    return 'Helm';
  }
  if (explicit.includes('kustomize')) {
    return 'Kustomize';
  }
  if (explicit.includes('directory')) {
    return 'Directory';
  }
  if (statSync(join(folder, 'Chart.yaml'), { throwIfNoEntry: false })?.isFile() === true) {
    return 'Helm';
  }
  return kustomizationFileIn(folder) === undefined ? 'Directory' : 'Kustomize';
}

/** The files of an Argo CD directory source, and the `.jsonnet` files among them (evaluated by Argo CD only). */
export function argoDirectoryFiles(
  folder: string,
  directory: { readonly recurse: boolean; readonly include: string; readonly exclude: string },
): { readonly files: string[]; readonly jsonnet: string[] } {
  const include = directory.include === '' ? undefined : globToRegExp(directory.include);
  const exclude = directory.exclude === '' ? undefined : globToRegExp(directory.exclude);
  const files: string[] = [];
  const jsonnet: string[] = [];
  walk(folder, directory.recurse, (file) => {
    const extension = extname(file).toLowerCase();
    if (!['.yaml', '.yml', '.json', '.jsonnet'].includes(extension)) {
      return;
    }
    const path = relative(folder, file);
    if (exclude?.test(path) === true || (include !== undefined && !include.test(path))) {
      return;
    }
    (extension === '.jsonnet' ? jsonnet : files).push(file);
  });
  return { files, jsonnet };
}

/** The files and kustomization folders of the kustomization Flux generates for a folder that has none. */
export function fluxGeneratedResources(folder: string): {
  readonly files: string[];
  readonly kustomizations: string[];
} {
  const files: string[] = [];
  const kustomizations: string[] = [];
  walk(
    folder,
    true,
    (file) => {
      const extension = extname(file).toLowerCase();
      if (extension === '.yaml' || extension === '.yml') {
        files.push(file);
      }
    },
    (sub) => {
      if (kustomizationFileIn(sub) !== undefined) {
        kustomizations.push(sub);
        return false;
      }
      return true;
    },
  );
  return { files, kustomizations };
}

/**
 * Every file below a folder in a stable order; sub-folders only when `recursive`, and only those `enter` lets in.
 * Hidden entries (.git, .sourceignore) and node_modules are left out, as the rest of the CLI's walks leave them.
 */
function walk(
  folder: string,
  recursive: boolean,
  visit: (file: string) => void,
  enter: (folder: string) => boolean = () => true,
  depth = 0,
): void {
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith('.') || name === 'node_modules') {
      continue;
    }
    const full = join(folder, name);
    const stats = statSync(full, { throwIfNoEntry: false });
    if (stats?.isFile() === true) {
      visit(full);
    } else if (stats?.isDirectory() === true && recursive && depth < 64 && enter(full)) {
      walk(full, recursive, visit, enter, depth + 1);
    }
  }
}

/** A gobwas-style glob as a regular expression: `*` and `**` match anything (also `/`), `?` one character. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  let braces = 0;
  for (const char of glob) {
    if (char === '*') {
      source += '.*';
    } else if (char === '?') {
      source += '.';
    } else if (char === '{') {
      braces++;
      source += '(?:';
    } else if (char === '}' && braces > 0) {
      braces--;
      source += ')';
    } else if (char === ',' && braces > 0) {
      source += '|';
    } else {
      source += char.replace(/[.+^$()|[\]\\]/g, '\\$&');
    }
  }
  try {
    return new RegExp(`^${source}${')'.repeat(braces)}$`);
  } catch {
    return /^$/;
  }
}
