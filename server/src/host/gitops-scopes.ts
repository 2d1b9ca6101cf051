/**
 * The GitOps unit that applies a file, for the editor's predictions (docs/predictions.md, "GitOps units"): a file
 * that an Argo CD Application or a Flux Kustomization of the workspace applies is predicted as `foresight simulate`
 * applies it (files/gitops/): with the unit's files, each object in the unit's namespace, on the cluster nearest
 * the definition.
 *
 * Finding the definitions means looking at every file of the workspace. The files are listed, and those that
 * changed read, once before the first lookup and then in the background (never during a keystroke's lookup) when
 * the last listing is older than REFRESH_MS; only the few whose text names a GitOps API group are parsed. An open
 * document counts as edited: its text replaces the file's at once.
 */
import { readFileSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { collectManifestFiles } from '../files/manifest-files';
import { mayDefineGitopsUnits } from '../files/gitops/gitops-definitions';
import type { GitopsNote, GitopsUnit } from '../files/gitops/gitops-units';
import type { ManifestFile } from '../language/service';
import { findGitopsUnits } from '../files/gitops/gitops-units';

/** How old a listing of the workspace's files may be before a lookup asks for the next, in the background. */
const REFRESH_MS = 5000;
/** The most files and directory entries looked at in the workspace (a huge tree stays cheap). */
const MAX_WORKSPACE_FILES = 5000;
const MAX_WORKSPACE_ENTRIES = 50_000;
/** A larger file is not read to look for definitions (they are short objects). */
const MAX_DEFINITION_BYTES = 1024 * 1024;

/** An open document: its path on disk and its text as edited. */
export interface OpenText {
  readonly path: string;
  readonly text: string;
  /**
   * An object that stands for this version of the text (its analysis): whether the text may define units is
   * remembered for it, so a keystroke in a large file does not search the whole text again.
   */
  readonly version?: object;
}

/** What a file on disk was when last read. */
interface SeenFile {
  readonly mtimeMs: number;
  readonly size: number;
  readonly mayDefine: boolean;
}

/** The GitOps units of the workspace folders, looked up by the files they apply. */
export class GitopsScopes {
  private roots: readonly string[] = [];
  private readonly seen = new Map<string, SeenFile>();
  /** Files on disk that may define units, from the last listing. */
  private candidates: readonly string[] = [];
  private listedAt = -Infinity;
  private listing = 0;
  private refreshPending = false;
  private found:
    | { readonly key: string; readonly units: readonly GitopsUnit[]; readonly notes: readonly GitopsNote[] }
    | undefined;
  private readonly openMayDefine = new WeakMap<object, boolean>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The workspace folders (absolute paths): definitions are looked for in them, and paths resolved under them. */
  setWorkspaceRoots(roots: readonly string[]): void {
    this.roots = roots.map((root) => resolve(root));
    this.clear();
  }

  /** Forgets what was read (settings or trust changed, a cluster was written). */
  clear(): void {
    this.seen.clear();
    this.candidates = [];
    this.listedAt = -Infinity;
    this.found = undefined;
  }

  /**
   * The unit that applies a file: the first (in the order the definitions are found) whose plain files include
   * it, else whose kustomization folders hold it. Undefined outside any unit, or without workspace folders.
   */
  unitOf(file: string, open: readonly OpenText[]): GitopsUnit | undefined {
    if (this.roots.length === 0) {
      return undefined;
    }
    const units = this.unitsNow(open);
    const path = resolve(file);
    return (
      units.find((unit) => unit.files.includes(path)) ??
      units.find((unit) => unit.kustomizations.some((folder) => path.startsWith(`${folder}/`)))
    );
  }

  /**
   * The unit that applies a folder as a whole (the timeline panel shows a folder): the first whose folder it is,
   * else whose kustomization folders hold it.
   */
  unitOfFolder(folder: string, open: readonly OpenText[]): GitopsUnit | undefined {
    if (this.roots.length === 0) {
      return undefined;
    }
    const units = this.unitsNow(open);
    const path = resolve(folder);
    return (
      units.find((unit) => unit.files.length > 0 && unit.folder === path) ??
      units.find((unit) => unit.kustomizations.some((root) => path === root || path.startsWith(`${root}/`)))
    );
  }

  /** The unit that renders a kustomization folder (a kustomize overlay the editor renders), if any. */
  unitRendering(folder: string, open: readonly OpenText[]): GitopsUnit | undefined {
    if (this.roots.length === 0) {
      return undefined;
    }
    const path = resolve(folder);
    return this.unitsNow(open).find((unit) => unit.kustomizations.includes(path));
  }

  /**
   * The notes and warnings `foresight validate` gives on a definition in this file (a path not in the repository,
   * options not applied, sources not checked), for its diagnostics.
   */
  notesFor(file: string, open: readonly OpenText[]): readonly GitopsNote[] {
    if (this.roots.length === 0 || !this.isInWorkspace(file)) {
      return [];
    }
    this.unitsNow(open);
    const path = resolve(file);
    return (this.found?.notes ?? []).filter((note) => note.at.file === path);
  }

  private unitsNow(open: readonly OpenText[]): readonly GitopsUnit[] {
    if (this.listedAt === -Infinity) {
      this.list();
      this.listedAt = this.now();
    } else if (this.now() - this.listedAt >= REFRESH_MS && !this.refreshPending) {
      this.refreshPending = true;
      setImmediate(() => {
        this.refreshPending = false;
        if (this.roots.length > 0) {
          this.list();
          this.listedAt = this.now();
        }
      });
    }
    const openPaths = new Set(open.map((document) => resolve(document.path)));
    const texts = open
      .filter((document) => this.isInWorkspace(document.path) && this.mayDefine(document))
      .map((document) => ({ file: resolve(document.path), text: document.text }));
    const key = [this.listing, ...texts.map((text) => `${text.file}\u0000${text.text}`)].join('\u0001');
    if (this.found?.key !== key) {
      const files = this.candidates.filter((file) => !openPaths.has(file));
      const { units, notes } = findGitopsUnits(files, this.roots, (file) => this.display(file), texts);
      this.found = { key, units, notes };
    }
    return this.found.units;
  }

  /** Lists the workspace's files and reads those new or changed since the last listing. */
  private list(): void {
    const listed = collectManifestFiles(this.roots, this.roots[0] ?? '/', {
      recursive: true,
      maxFiles: MAX_WORKSPACE_FILES,
      maxEntries: MAX_WORKSPACE_ENTRIES,
    }).files;
    const candidates: string[] = [];
    const present = new Set<string>();
    let changed = false;
    for (const file of listed) {
      present.add(file);
      const stats = statSync(file, { throwIfNoEntry: false });
      if (stats === undefined) {
        continue;
      }
      let seen = this.seen.get(file);
      if (seen === undefined || seen.mtimeMs !== stats.mtimeMs || seen.size !== stats.size) {
        seen = { mtimeMs: stats.mtimeMs, size: stats.size, mayDefine: mayDefineFile(file, stats.size) };
        this.seen.set(file, seen);
        changed = true;
      }
      if (seen.mayDefine) {
        candidates.push(file);
      }
    }
    for (const file of this.seen.keys()) {
      if (!present.has(file)) {
        this.seen.delete(file);
        changed = true;
      }
    }
    // A listing whose files did not change keeps the units found (a folder's files are read again only then).
    if (changed || candidates.join('\n') !== this.candidates.join('\n')) {
      this.candidates = candidates;
      this.listing++;
    }
  }

  private mayDefine(document: OpenText): boolean {
    if (document.version === undefined) {
      return mayDefineGitopsUnits(document.text);
    }
    let may = this.openMayDefine.get(document.version);
    if (may === undefined) {
      may = mayDefineGitopsUnits(document.text);
      this.openMayDefine.set(document.version, may);
    }
    return may;
  }

  /** A path as the notes name it: relative to its workspace folder. */
  private display(file: string): string {
    const root = this.roots.find((candidate) => file === candidate || file.startsWith(`${candidate}/`));
    return root === undefined ? file : relative(root, file);
  }

  private isInWorkspace(path: string): boolean {
    const full = resolve(path);
    return this.roots.some((root) => full.startsWith(`${root}/`));
  }
}

/** How the manifest reader reads a file of a unit: applied by its controller, in its namespace. */
export function readAsUnit(unit: GitopsUnit): Pick<ManifestFile, 'appliedBy' | 'unitNamespace'> {
  return {
    appliedBy: unit.kind === 'Application' ? 'Argo CD' : 'Flux',
    ...(unit.namespace === undefined ? {} : { unitNamespace: unit.namespace }),
  };
}

function mayDefineFile(file: string, size: number): boolean {
  if (size > MAX_DEFINITION_BYTES) {
    return false;
  }
  try {
    return mayDefineGitopsUnits(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}
