/**
 * Where a GitOps definition's path is on this disk. A path in an Argo CD Application or a Flux Kustomization is
 * relative to the root of its source (a Git repository): here, the root of the Git work tree holding the
 * definition, or else a folder named on the command line (a checkout without .git, an unpacked archive). A
 * repository is "this one" when its URL is the work tree's `origin`, or when another definition naming the same URL
 * has its path here. Flux's ArtifactGenerator (source-watcher) copies folders of a repository into an artifact under
 * other names; a Kustomization of such an artifact has its path mapped back through those copies.
 * https://fluxcd.io/flux/components/source/artifactgenerators/ (spec.artifacts[].copy: from "@alias/dir/**", to
 * "@artifact/dir/").
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Where the work tree of a file is, and its origin's URL if its .git folder tells it. */
export interface SourceRoot {
  readonly folder: string;
  readonly originUrl: string | undefined;
}

/** The roots a path of a definition in `file` is tried against, nearest first. */
export function rootsOf(file: string, namedFolders: readonly string[]): SourceRoot[] {
  const roots: SourceRoot[] = [];
  const git = gitWorkTreeOf(file);
  if (git !== undefined) {
    roots.push(git);
  }
  for (const folder of namedFolders) {
    if (isInside(file, folder) && !roots.some((root) => root.folder === folder)) {
      roots.push({ folder, originUrl: undefined });
    }
  }
  return roots;
}

/** The existing folder a path names under one of the roots, or undefined. */
export function folderUnder(roots: readonly SourceRoot[], path: string): string | undefined {
  for (const root of roots) {
    const folder = resolve(root.folder, path);
    if (statSync(folder, { throwIfNoEntry: false })?.isDirectory() === true) {
      return folder;
    }
  }
  return undefined;
}

/** A repository URL in one spelling: no scheme, user, `.git` or trailing slash; `git@host:org/repo` as a path. */
export function normalizeRepoUrl(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/^[a-z+]+:\/\//, '')
    .replace(/^[^@/]+@/, '')
    .replace(/^([^/:]+):(?!\d)/, '$1/')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
}

/**
 * A Kustomization's path in an artifact mapped to the repository's: the first copy whose destination holds it
 * ("./production" of an artifact copying "@repo/apps/production/**" to "@artifact/production/" is
 * "apps/production"). Undefined when no copy holds it.
 */
export function mapArtifactPath(
  path: string,
  copies: readonly { readonly from: string; readonly to: string }[],
): string | undefined {
  const wanted = trimPath(path);
  const candidates = copies
    .map((copy) => ({
      from: trimPath(copy.from.replace(/^@[^/]*\/?/, '').replace(/\/?\*\*?$/, '')),
      to: trimPath(copy.to.replace(/^@artifact\/?/, '')),
    }))
    .filter((copy) => copy.to === '' || wanted === copy.to || wanted.startsWith(`${copy.to}/`))
    .sort((a, b) => b.to.length - a.to.length);
  const copy = candidates[0];
  if (copy === undefined) {
    return undefined;
  }
  const rest = wanted.slice(copy.to.length).replace(/^\//, '');
  return [copy.from, rest].filter((part) => part !== '').join('/') || '.';
}

/** A path without "./", leading or trailing slashes. */
function trimPath(path: string): string {
  return path
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+|\/+$/g, '')
    .replace(/^\.$/, '');
}

/** The Git work tree holding a file (a `.git` folder or file above it), with its origin's URL when readable. */
function gitWorkTreeOf(file: string): SourceRoot | undefined {
  let folder = dirname(resolve(file));
  for (let level = 0; level < 64; level++) {
    const git = join(folder, '.git');
    const stats = statSync(git, { throwIfNoEntry: false });
    if (stats !== undefined) {
      return { folder, originUrl: stats.isDirectory() ? originUrlIn(join(git, 'config')) : undefined };
    }
    const parent = dirname(folder);
    if (parent === folder) {
      return undefined;
    }
    folder = parent;
  }
  return undefined;
}

/** The url of `[remote "origin"]` in a Git config file. */
function originUrlIn(config: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(config, 'utf8');
  } catch {
    return undefined;
  }
  const section = /\[remote "origin"\]([^[]*)/.exec(text)?.[1] ?? '';
  return /^\s*url\s*=\s*(\S+)/m.exec(section)?.[1];
}

function isInside(file: string, folder: string): boolean {
  const full = resolve(file);
  return full === folder || full.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}
