/**
 * The kustomizations among a command line's folders, rendered as units (docs/cli.md, "Kustomize"): a folder named
 * on the command line that holds a kustomization.yaml, and with `-R` every such folder below, except those another
 * one includes as a base or component (they are rendered as part of it). Each unit's rendered objects stand for its
 * files, which are then not read again as raw manifests. A unit that names a remote base (unless allowed), or met
 * without kustomize, gets a note, and its files are read raw as `kubectl apply -f` would.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Finding, LanguageService, RenderedText } from '../../language/service';
import { STDIN_PATH } from '../manifest-files';
import { isComponentFolder, kustomizationFileIn, readKustomizationTree } from './kustomization-tree';
import { findKustomize, renderKustomization } from './render-kustomization';
import { patchFieldsOf } from './patch-fields';
import { severityOf } from '../../language/service';

/** How to find and run kustomize. */
export interface KustomizeOptions {
  /** The kustomize or kubectl binary (`--kustomize`, FORESIGHT_KUSTOMIZE); found on PATH when absent. */
  readonly binary?: string;
  /** Render kustomizations that name remote bases (`--kustomize-allow-remote`). */
  readonly allowRemote: boolean;
  /** The PATH to search for kubectl and kustomize. */
  readonly pathVariable?: string;
}

/** The kustomize options of a command line: the binary it names (or FORESIGHT_KUSTOMIZE), and PATH to search. */
export function kustomizeOptionsOf(
  binary: string | undefined,
  allowRemote: boolean,
  io: { readonly env?: Readonly<Record<string, string | undefined>> },
): KustomizeOptions {
  return {
    ...(binary === undefined || binary === '' ? {} : { binary }),
    allowRemote,
    pathVariable: io.env?.['PATH'] ?? process.env['PATH'],
  };
}

/** A note or error on a kustomization file. */
export interface KustomizationNote {
  /** The kustomization file, absolute. */
  readonly file: string;
  readonly finding: Finding;
}

/** What the kustomizations gave. */
export interface RenderedKustomizations {
  readonly texts: readonly RenderedText[];
  /** Files (absolute) that belong to a rendered (or failed) unit: not read raw. */
  readonly covered: ReadonlySet<string>;
  readonly notes: readonly KustomizationNote[];
  /** kustomize's warnings (stderr of renders that succeeded). */
  readonly warnings: readonly string[];
}

/** Renders the kustomizations of the command line's folders. `display` names a file for messages. */
export function renderKustomizations(
  paths: readonly string[],
  cwd: string,
  recursive: boolean,
  options: KustomizeOptions,
  display: (file: string) => string,
  service: Pick<LanguageService, 'renderedTexts'>,
): RenderedKustomizations {
  const folders = kustomizationFolders(paths, cwd, recursive);
  const trees = folders.map((folder) => ({ folder, tree: readKustomizationTree(folder) }));
  const included = new Set(trees.flatMap(({ tree }) => [...tree.includedFolders]));
  // A Component is built only by the kustomizations that list it (kustomize refuses one on its own): one found
  // below a named folder that nothing here lists is not a unit, and its files are read with their roles. One named
  // on the command line is rendered, as `kubectl apply -k` would try, and fails in kustomize's words.
  const named = new Set(paths.map((path) => resolve(cwd, path)));
  const units = trees.filter(
    ({ folder }) => !included.has(folder) && (named.has(folder) || !isComponentFolder(folder)),
  );
  const texts: RenderedText[] = [];
  const covered = new Set<string>();
  const notes: KustomizationNote[] = [];
  const warnings: string[] = [];
  const command = units.length === 0 ? undefined : findKustomize(options.binary, options.pathVariable);
  for (const { folder, tree } of units) {
    const file = kustomizationFileIn(folder) ?? join(folder, 'kustomization.yaml');
    const note = (code: Finding['code'], message: string): void => {
      notes.push({ file, finding: { code, severity: severityOf(code), message } });
    };
    if (tree.remotes.length > 0 && !options.allowRemote) {
      note(
        'kustomize-remote-refused',
        `${display(folder) || '.'} names remote bases (${tree.remotes.join(', ')}): rendering would fetch them, so it was not rendered and its files were read as plain manifests. Pass --kustomize-allow-remote to render it.`,
      );
      continue;
    }
    if (command === undefined) {
      if (!notes.some((entry) => entry.finding.code === 'kustomize-not-found')) {
        note(
          'kustomize-not-found',
          `${display(folder) || '.'} is a kustomization, but neither kubectl nor kustomize is on PATH: its files were read as plain manifests, not rendered. Install kubectl (https://kubernetes.io/docs/tasks/tools/) or kustomize (https://kubectl.docs.kubernetes.io/installation/kustomize/), or name one with --kustomize PATH.`,
        );
      }
      continue;
    }
    tree.files.forEach((entry) => covered.add(entry));
    const result = renderKustomization(command, folder);
    if (!result.ok) {
      note(
        'kustomize-render-failed',
        `kustomize could not render ${display(folder) || '.'}: ${result.message}`,
      );
      continue;
    }
    if (result.warnings !== '') {
      warnings.push(`${display(folder) || '.'}: ${result.warnings}`);
    }
    // A finding on a field a patch set is reported on the patch, as the editor shows it; the patch is named as
    // the command line names files.
    const patches = patchFieldsOf(tree.files, readTextOrUndefined).map((patch) => ({
      ...patch,
      file: display(patch.file),
    }));
    texts.push(...service.renderedTexts(result.objects, file, readTextOrUndefined, patches));
  }
  return { texts, covered, notes, warnings };
}

/** The folders holding a kustomization: named ones, and with `recursive` those below them. */
function kustomizationFolders(paths: readonly string[], cwd: string, recursive: boolean): string[] {
  const found: string[] = [];
  const walk = (folder: string, depth: number): void => {
    if (found.includes(folder)) {
      return;
    }
    if (kustomizationFileIn(folder) !== undefined) {
      found.push(folder);
    }
    if (!recursive || depth > 64) {
      return;
    }
    let names: string[];
    try {
      names = readdirSync(folder).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const full = join(folder, name);
      if (
        name !== 'node_modules' &&
        !name.startsWith('.') &&
        statSync(full, { throwIfNoEntry: false })?.isDirectory()
      ) {
        walk(full, depth + 1);
      }
    }
  };
  for (const path of paths) {
    const full = resolve(cwd, path);
    if (path !== STDIN_PATH && statSync(full, { throwIfNoEntry: false })?.isDirectory() === true) {
      walk(full, 0);
    }
  }
  return found;
}

function readTextOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
