/**
 * What role the nearest kustomizations give a file (language/kustomize/kustomization.ts): walks up from the file's
 * folder a few levels reading kustomization files, then, for a resource, looks for the overlays that include its
 * base in the folders around it. Cheap enough to ask on every keystroke: a kustomization is read again only when
 * its modification time or size changes, and the folders searched for overlays only when one of them changes.
 */
import type { Stats } from 'node:fs';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { KustomizationReferences, KustomizeRole, LanguageService } from '../language/service';
import { createDiskLanguageService } from './schema-files';

/** Folders walked up from a file looking for the kustomization that names it. */
const MAX_LEVELS_UP = 4;
/** Folders above a base's kustomization where overlays including it are looked for, and how deep below. */
const OVERLAY_SEARCH_UP = 1;
const OVERLAY_SEARCH_DEPTH = 3;
/** At most this many folders are listed looking for overlays. */
const MAX_SEARCHED_FOLDERS = 300;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'vendor']);

interface CachedKustomization {
  readonly stamp: string;
  readonly references: KustomizationReferences | undefined;
}

interface CachedSearch {
  /** Each folder listed, with its modification time when listed. */
  readonly folders: ReadonlyMap<string, number>;
  /** Folders holding a kustomization file. */
  readonly kustomizationFolders: readonly string[];
}

/** Finds and caches the roles kustomizations give files; one per host (language server, CLI run). */
export class KustomizeRoles {
  private readonly kustomizations = new Map<string, CachedKustomization>();
  private readonly searches = new Map<string, CachedSearch>();

  /**
   * `service` reads the kustomization files (the host's own; a disk service by default). `stable`: the files do
   * not change while this instance is used (one command-line run, one pass over a folder), so a folder search is
   * not checked again for changes at each file; each check stats every folder searched, up to 300 per file.
   */
  constructor(
    private readonly service: Pick<
      LanguageService,
      'readKustomization' | 'kustomizationFileNames'
    > = createDiskLanguageService(),
    private readonly stable = false,
  ) {}

  /**
   * The role of the file at this path ('kustomization' for a kustomization file itself; 'unlisted' for a file
   * beside a kustomization that no kustomization near it names, which no apply applies), or undefined when no
   * kustomization near it names it and none is beside it.
   */
  roleOf(file: string): KustomizeRole | undefined {
    const target = resolve(file);
    if (this.service.kustomizationFileNames.includes(basename(target))) {
      return { kind: 'kustomization', selectorSupplied: false };
    }
    let folder = dirname(target);
    const beside = this.kustomizationIn(folder);
    // Folders whose kustomization includes the file, directly or through an included folder.
    const including: string[] = [];
    for (let level = 0; level <= MAX_LEVELS_UP; level++) {
      const references = this.kustomizationIn(folder);
      if (references !== undefined) {
        if (including.length === 0) {
          if (names(folder, references.patches, target)) {
            return { kind: 'patch', selectorSupplied: false };
          }
          if (names(folder, references.configurations, target)) {
            return { kind: 'transformer-config', selectorSupplied: false };
          }
          if (names(folder, references.resources, target)) {
            including.push(folder);
          }
        } else if (including.some((base) => names(folder, references.resources, base))) {
          including.push(folder);
        }
        if (including.includes(folder) && references.suppliesSelector) {
          return { kind: 'resource', selectorSupplied: true };
        }
      }
      const parent = dirname(folder);
      if (parent === folder) {
        break;
      }
      folder = parent;
    }
    if (including.length === 0) {
      // The same rule as the CLI's units (files/kustomize/kustomization-units.ts): a file beside a kustomization
      // that lists it nowhere is applied by nothing. Generator inputs and CRD schemas are read, not applied.
      return beside !== undefined && !names(dirname(target), beside.inputs, target)
        ? { kind: 'unlisted', selectorSupplied: false }
        : undefined;
    }
    return { kind: 'resource', selectorSupplied: this.isSelectorSuppliedByOverlay(including) };
  }

  /** Whether a kustomization in the folders around the bases includes one of them and supplies selectors. */
  private isSelectorSuppliedByOverlay(bases: readonly string[]): boolean {
    let root = bases[bases.length - 1] ?? '';
    // Not above a repository's root: overlays of a base live in its repository, and the folder holding a
    // repository (a home folder, a checkout of many projects) would be listed, sibling repositories and all.
    for (let level = 0; level < OVERLAY_SEARCH_UP && !isRepositoryRoot(root); level++) {
      root = dirname(root);
    }
    const known = new Set(bases);
    const candidates = this.kustomizationFoldersUnder(root).filter((folder) => !known.has(folder));
    // Inclusion is transitive: an overlay of an overlay counts; each round adds the folders including a known one.
    for (let round = 0; round < candidates.length; round++) {
      let added = false;
      for (const folder of candidates) {
        const references = known.has(folder) ? undefined : this.kustomizationIn(folder);
        if (
          references !== undefined &&
          [...known].some((base) => names(folder, references.resources, base))
        ) {
          if (references.suppliesSelector) {
            return true;
          }
          known.add(folder);
          added = true;
        }
      }
      if (!added) {
        break;
      }
    }
    return false;
  }

  /** Folders under root (a few levels deep) holding a kustomization, listed again only when a folder changed. */
  private kustomizationFoldersUnder(root: string): readonly string[] {
    const cached = this.searches.get(root);
    if (
      cached !== undefined &&
      (this.stable || [...cached.folders].every(([folder, time]) => statOf(folder)?.mtimeMs === time))
    ) {
      return cached.kustomizationFolders;
    }
    const folders = new Map<string, number>();
    const kustomizationFolders: string[] = [];
    const visit = (folder: string, depth: number): void => {
      const stats = statOf(folder);
      if (stats === undefined || folders.size >= MAX_SEARCHED_FOLDERS) {
        return;
      }
      folders.set(folder, stats.mtimeMs);
      let entries: string[];
      try {
        entries = readdirSync(folder, { withFileTypes: true })
          .filter((entry) => entry.isDirectory() || entry.isFile())
          .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
      } catch {
        return;
      }
      if (entries.some((entry) => this.service.kustomizationFileNames.includes(entry))) {
        kustomizationFolders.push(folder);
      }
      if (depth < OVERLAY_SEARCH_DEPTH) {
        for (const entry of entries.sort()) {
          if (entry.endsWith('/') && !entry.startsWith('.') && !SKIPPED_FOLDERS.has(entry.slice(0, -1))) {
            visit(join(folder, entry.slice(0, -1)), depth + 1);
          }
        }
      }
    };
    visit(root, 0);
    this.searches.set(root, { folders, kustomizationFolders });
    return kustomizationFolders;
  }

  /** The references of the kustomization in a folder, if it has one (kustomize's file names, in its order). */
  private kustomizationIn(folder: string): KustomizationReferences | undefined {
    for (const name of this.service.kustomizationFileNames) {
      const path = join(folder, name);
      const stats = statOf(path);
      if (stats === undefined || !stats.isFile()) {
        continue;
      }
      const stamp = `${stats.mtimeMs}:${stats.size}`;
      const cached = this.kustomizations.get(path);
      if (cached?.stamp === stamp) {
        return cached.references;
      }
      let references: KustomizationReferences | undefined;
      try {
        references = this.service.readKustomization(readFileSync(path, 'utf8'));
      } catch {
        references = undefined;
      }
      this.kustomizations.set(path, { stamp, references });
      return references;
    }
    return undefined;
  }
}

/** Whether one of the entries, relative to folder, is the path. */
function names(folder: string, entries: readonly string[], path: string): boolean {
  return entries.some((entry) => resolve(folder, entry) === path);
}

/** Whether the folder is the root of a git repository (its .git is a folder, or a file in a worktree). */
function isRepositoryRoot(folder: string): boolean {
  return statOf(join(folder, '.git')) !== undefined;
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
