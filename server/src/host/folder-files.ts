/**
 * The manifests of a folder on disk, read recursively like `kubectl apply -f DIR`, each analysed once and kept
 * until its modification time or size changes, so a keystroke in one file does not re-read the others.
 */
import { readFileSync, statSync } from 'node:fs';
import { collectManifestFiles } from '../files/manifest-files';
import type { AnalysisContext, FileAnalysis, LanguageService } from '../language/service';
import { KustomizeRoles } from '../files/kustomize-roles';

/** The most files read from one folder. */
const MAX_FOLDER_FILES = 2000;
/** The most directory entries looked at while listing one folder (a scope opened on a huge tree stays cheap). */
const MAX_FOLDER_ENTRIES = 20_000;

interface CachedFile {
  readonly mtimeMs: number;
  readonly size: number;
  readonly contextKey: string;
  readonly analysis: FileAnalysis;
}

/** Analyses of files on disk, cached by path. */
export class FolderFiles {
  private readonly cache = new Map<string, CachedFile>();
  /** A kustomize patch among the files is analysed as a patch, and left out of the manifests. */
  private readonly kustomizeRoles: KustomizeRoles;

  constructor(private readonly service: LanguageService) {
    this.kustomizeRoles = new KustomizeRoles(service);
  }

  /** Every manifest file under a folder (at most MAX_FOLDER_FILES), except those in `skip` (open documents). */
  list(folder: string): string[] {
    // The folder and its sub-folders, as `kubectl apply -R -f DIR` reads them (Helm chart folders left out).
    return collectManifestFiles([folder], folder, {
      recursive: true,
      maxFiles: MAX_FOLDER_FILES,
      maxEntries: MAX_FOLDER_ENTRIES,
    }).files;
  }

  /** The analysis of a file on disk, from the cache when it has not changed; undefined when unreadable. */
  analyze(path: string, sharedContext: AnalysisContext): FileAnalysis | undefined {
    const context = this.service.contextForFile(sharedContext, {
      kustomizeRole: this.kustomizeRoles.roleOf(path),
    });
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats === undefined || !stats.isFile()) {
      this.cache.delete(path);
      return undefined;
    }
    const cached = this.cache.get(path);
    if (
      cached !== undefined &&
      cached.mtimeMs === stats.mtimeMs &&
      cached.size === stats.size &&
      cached.contextKey === context.key
    ) {
      return cached.analysis;
    }
    let text: string;
    try {
      text = stats.size > context.maxFileLength * 4 ? '' : readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
    const analysis = this.service.analyzeText(text, context);
    this.cache.set(path, { mtimeMs: stats.mtimeMs, size: stats.size, contextKey: context.key, analysis });
    return analysis;
  }

  /** Forgets everything (settings changed). */
  clear(): void {
    this.cache.clear();
  }
}
