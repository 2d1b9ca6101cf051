/**
 * The kustomizations that include a file, as the editor renders them (docs/predictions.md, "Kustomize
 * overlays"): every folder holding a kustomization under the search roots (the workspace folders that hold the
 * file, else the folders a few levels above it), read as trees (kustomization-tree.ts); a unit is one that no
 * other includes as a base or component, as `kubectl apply -k` would be pointed at it, and it includes the file
 * when the file is one of its tree's files (a resource, patch, generator input or kustomization file). A
 * Component no kustomization lists is not a unit: kustomize builds it only as part of one.
 */
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isComponentFolder, kustomizationFileIn, readKustomizationTree } from './kustomization-tree';
import { KUSTOMIZATION_FILE_NAMES } from '../../language/service';
import type { KustomizationTree } from './kustomization-tree';

/** Folders above the nearest kustomization searched when no workspace folder holds the file. */
const LEVELS_UP_WITHOUT_ROOT = 3;
/** How deep below a root kustomizations are looked for, and at most how many folders are listed. */
const MAX_DEPTH = 8;
const MAX_FOLDERS = 2_000;
const SKIPPED_FOLDERS = new Set(['node_modules', 'vendor']);

/** A kustomization rendered as a whole, that includes the file asked about. */
export interface OverlayUnit {
  /** The folder of its kustomization, absolute. */
  readonly folder: string;
  /** Its kustomization file, absolute. */
  readonly kustomizationFile: string;
  /** Its name in messages: the folder relative to its workspace folder ("overlays/prod"). */
  readonly label: string;
  readonly tree: KustomizationTree;
}

/**
 * The units that include `file`, in folder order, kept to those `chosen` names ("all", or folders relative to
 * the workspace folder or absolute); kustomization files are read from `openTexts` (by path) when open there.
 */
export async function overlayUnitsIncluding(
  file: string,
  roots: readonly string[],
  chosen: 'all' | readonly string[],
  openTexts: ReadonlyMap<string, string> = new Map(),
): Promise<OverlayUnit[]> {
  const target = resolve(file);
  const holding = roots.map((root) => resolve(root)).filter((root) => target.startsWith(`${root}${sep}`));
  const workspaceRoot = holding.sort((a, b) => b.length - a.length)[0];
  // kustomize loads a file only from under the kustomization's folder (its default load restriction), and a
  // folder only when it holds a kustomization: a file with no kustomization in its own or a parent folder
  // belongs to none, and nothing is listed for it (most files, on every edit).
  const nearest = nearestKustomizationFolder(target, workspaceRoot);
  if (nearest === undefined) {
    return [];
  }
  let searchRoot = workspaceRoot;
  if (searchRoot === undefined) {
    searchRoot = nearest;
    for (let level = 0; level < LEVELS_UP_WITHOUT_ROOT && dirname(searchRoot) !== searchRoot; level++) {
      searchRoot = dirname(searchRoot);
    }
  }
  const trees = (await kustomizationFoldersUnder(searchRoot)).map((folder) => ({
    folder,
    tree: readKustomizationTree(folder, (path) => openTexts.get(path) ?? readFileSync(path, 'utf8')),
  }));
  const included = new Set(trees.flatMap(({ tree }) => [...tree.includedFolders]));
  const root = searchRoot;
  const chosenFolders =
    chosen === 'all' ? undefined : new Set(chosen.map((entry) => resolve(root, entry.replace(/\/+$/, ''))));
  return trees
    .filter(
      ({ folder, tree }) => !included.has(folder) && tree.files.has(target) && !isComponentFolder(folder),
    )
    .filter(({ folder }) => chosenFolders === undefined || chosenFolders.has(folder))
    .flatMap(({ folder, tree }) => {
      const kustomizationFile = kustomizationFileIn(folder);
      if (kustomizationFile === undefined) {
        return [];
      }
      const label = relative(root, folder).split(sep).join('/');
      return [{ folder, kustomizationFile, tree, label: label === '' || isAbsolute(label) ? folder : label }];
    });
}

/** The file's own folder or the nearest parent (up to the workspace folder) that holds a kustomization. */
function nearestKustomizationFolder(file: string, stopAt: string | undefined): string | undefined {
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    if (kustomizationFileIn(folder) !== undefined) {
      return folder;
    }
    if (folder === stopAt || dirname(folder) === folder) {
      return undefined;
    }
  }
}

/**
 * Folders under root (bounded in depth and count) that hold a kustomization file, sorted. Listed without
 * blocking: a workspace of thousands of folders must not hold up the keystrokes the server answers meanwhile.
 */
async function kustomizationFoldersUnder(root: string): Promise<string[]> {
  const found: string[] = [];
  let listed = 0;
  const visit = async (folder: string, depth: number): Promise<void> => {
    if (listed >= MAX_FOLDERS) {
      return;
    }
    listed++;
    let entries: { name: string; isDirectory: boolean; isFile: boolean }[];
    try {
      entries = (await readdir(folder, { withFileTypes: true })).map((entry) => ({
        name: entry.name,
        isDirectory: entry.isDirectory(),
        isFile: entry.isFile(),
      }));
    } catch {
      return;
    }
    if (
      entries.some((entry) => entry.isFile && KUSTOMIZATION_FILE_NAMES.some((name) => name === entry.name))
    ) {
      found.push(folder);
    }
    if (depth >= MAX_DEPTH) {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.isDirectory && !entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) {
        await visit(join(folder, entry.name), depth + 1);
      }
    }
  };
  await visit(root, 0);
  return found;
}
