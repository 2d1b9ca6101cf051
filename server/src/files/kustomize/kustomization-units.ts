/**
 * The kustomizations among a command line's folders, rendered as apply units (docs/cli.md, "Apply units"): a
 * folder named on the command line that holds a kustomization.yaml, and with `-R` every such folder below, except
 * those another one includes as a base or component (they are rendered as part of it). A unit is what
 * `kubectl apply -k` applies: its render only. Its files, and every other manifest file in its folders (a patch
 * fragment it does not list, a file of a commented-out component), are never read as plain manifests: the files it
 * does not list get one note per folder. A unit that cannot be rendered (a remote base unless allowed, no
 * kustomize, a failed render) is one error saying what was not checked and how to check it: it is never read raw.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Finding, LanguageService, RenderedText } from '../../language/service';
import { isManifestFileName, STDIN_PATH } from '../manifest-files';
import { isComponentFolder, kustomizationFileIn, readKustomizationTree } from './kustomization-tree';
import type { KustomizationTree } from './kustomization-tree';
import { findKustomize, renderKustomization } from './render-kustomization';
import type { RenderResult } from './render-kustomization';
import { patchFieldsOf } from './patch-fields';
import { severityOf } from '../../language/service';
import { appendAll } from '../../../../protocol/collections';

/** How to find and run kustomize. */
export interface KustomizeOptions {
  /** The kustomize or kubectl binary (`--kustomize`, FORESIGHT_KUSTOMIZE); found on PATH when absent. */
  readonly binary?: string;
  /** Render kustomizations that name remote bases (`--kustomize-allow-remote`). */
  readonly allowRemote: boolean;
  /** The PATH to search for kubectl and kustomize. */
  readonly pathVariable?: string;
  /** Renders made ahead, by unit folder (prerender-kustomizations.ts): used in place of running kustomize again. */
  readonly renders?: ReadonlyMap<string, RenderResult>;
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
  /** The folder of the unit it is about, absolute. */
  readonly unit: string;
  readonly finding: Finding;
}

/** What the kustomizations gave. */
export interface RenderedKustomizations {
  readonly texts: readonly RenderedText[];
  /** Files (absolute) in the folders of a unit (rendered or not): never read raw. */
  readonly covered: ReadonlySet<string>;
  /** The folders (absolute) of the units, rendered or not. */
  readonly units: readonly string[];
  /** The files (absolute) the renders read: the units' kustomization files, resources, patches, inputs. */
  readonly read: ReadonlySet<string>;
  readonly notes: readonly KustomizationNote[];
  /** kustomize's warnings (stderr of renders that succeeded). */
  readonly warnings: readonly string[];
}

/**
 * Renders the kustomizations of the command line's folders. `display` names a file for messages; `claimed` are
 * folders another unit renders (a GitOps unit's), left out here.
 */
export function renderKustomizations(
  paths: readonly string[],
  cwd: string,
  recursive: boolean,
  options: KustomizeOptions,
  display: (file: string) => string,
  service: Pick<LanguageService, 'renderedTexts'>,
  claimed: ReadonlySet<string> = new Set(),
): RenderedKustomizations {
  const units = kustomizationUnitsOf(paths, cwd, recursive, claimed);
  const texts: RenderedText[] = [];
  const covered = new Set<string>();
  const read = new Set<string>();
  const notes: KustomizationNote[] = [];
  const warnings: string[] = [];
  const noted = new Set<string>();
  const command = units.length === 0 ? undefined : findKustomize(options.binary, options.pathVariable);
  for (const { folder, tree } of units) {
    const file = kustomizationFileIn(folder) ?? join(folder, 'kustomization.yaml');
    const name = display(folder) || '.';
    const notRendered = (why: string, how: string): void => {
      notes.push({
        file,
        unit: folder,
        finding: {
          code: 'unit-not-rendered',
          severity: severityOf('unit-not-rendered'),
          message: `${name} was not checked: it is a kustomization (kubectl apply -k), and ${why}. Its files are not read as plain manifests, since kubectl apply -k never applies them as they are. ${how}`,
        },
      });
    };
    // A folder without a kustomization that holds a file the unit reads (`../extensions/patch.yaml`) is consumed
    // by it: its other files are applied by nothing either.
    const consumed = [...new Set([...tree.files].map((entry) => dirname(entry)))].filter(
      (entry) => kustomizationFileIn(entry) === undefined,
    );
    for (const folderOfUnit of [folder, ...tree.includedFolders, ...consumed]) {
      const isConsumed = kustomizationFileIn(folderOfUnit) === undefined;
      const unlisted = (isConsumed ? filesInFolder(folderOfUnit) : filesInUnitFolder(folderOfUnit)).filter(
        (entry) => !tree.files.has(entry) && !noted.has(entry),
      );
      unlisted.forEach((entry) => {
        covered.add(entry);
        noted.add(entry);
      });
      // Only files that hold a Kubernetes object are named: a dashboard's JSON or a tool's settings beside the
      // kustomization is not a manifest that an apply leaves out.
      const named = unlisted.filter((entry) => holdsKubernetesObject(readTextOrUndefined(entry)));
      if (named.length > 0) {
        notes.push({
          file: kustomizationFileIn(folderOfUnit) ?? file,
          unit: folder,
          finding: {
            code: 'unit-file-unlisted',
            severity: severityOf('unit-file-unlisted'),
            message: `${display(folderOfUnit) || '.'}: ${named.map((entry) => relative(folderOfUnit, entry)).join(', ')} ${named.length === 1 ? 'is' : 'are'} beside a kustomization that does not list ${named.length === 1 ? 'it' : 'them'}: not applied by kubectl apply -k ${name}, so not checked as manifests.`,
          },
        });
      }
    }
    tree.files.forEach((entry) => covered.add(entry));
    if (tree.remotes.length > 0 && !options.allowRemote) {
      notRendered(
        `it names remote bases (${tree.remotes.join(', ')}) that rendering would fetch`,
        'Pass --kustomize-allow-remote to render and check it.',
      );
      continue;
    }
    if (command === undefined) {
      notRendered(
        'neither kubectl nor kustomize is on PATH to render it',
        'Install kubectl (https://kubernetes.io/docs/tasks/tools/) or kustomize (https://kubectl.docs.kubernetes.io/installation/kustomize/), or name one with --kustomize PATH, to check it.',
      );
      continue;
    }
    const result = options.renders?.get(folder) ?? renderKustomization(command, folder);
    if (!result.ok) {
      notRendered(
        `kustomize could not render it: ${result.message}`,
        `Fix what kustomize says (kubectl kustomize ${name} shows it) to check it.`,
      );
      continue;
    }
    tree.files.forEach((entry) => read.add(entry));
    if (result.warnings !== '') {
      warnings.push(`${name}: ${result.warnings}`);
    }
    // A finding on a field a patch set is reported on the patch, as the editor shows it; the patch is named as
    // the command line names files.
    const patches = patchFieldsOf(tree.files, readTextOrUndefined).map((patch) => ({
      ...patch,
      file: display(patch.file),
    }));
    appendAll(texts, service.renderedTexts(result.objects, file, readTextOrUndefined, patches));
  }
  return { texts, covered, units: units.map((unit) => unit.folder), read, notes, warnings };
}

/**
 * The units among the command line's folders: each folder holding a kustomization (with `recursive`, those below
 * too) that no other includes and no GitOps unit renders (`claimed`), with its tree.
 */
export function kustomizationUnitsOf(
  paths: readonly string[],
  cwd: string,
  recursive: boolean,
  claimed: ReadonlySet<string> = new Set(),
): { readonly folder: string; readonly tree: KustomizationTree }[] {
  const folders = kustomizationFolders(paths, cwd, recursive);
  const trees = folders.map((folder) => ({ folder, tree: readKustomizationTree(folder) }));
  const included = new Set(trees.flatMap(({ tree }) => [...tree.includedFolders]));
  // A Component is applied by the kustomizations that list it: one found below a named folder that nothing here
  // lists is not a unit, and its files are read with their roles. One named on the command line is rendered, as
  // `kubectl apply -k` renders it (kustomize builds a Component named as the root).
  const named = new Set(paths.map((path) => resolve(cwd, path)));
  // A folder a GitOps unit renders (files/gitops/) is applied by that unit only; what it includes stays included.
  return trees.filter(
    ({ folder }) =>
      !included.has(folder) && !claimed.has(folder) && (named.has(folder) || !isComponentFolder(folder)),
  );
}

/**
 * The manifest files of a unit's folder: its own, and those of its sub-folders that hold no kustomization of their
 * own (a kubebuilder `crd/patches/`): no command applies them apart from the kustomization.
 */
function filesInUnitFolder(folder: string, depth = 0): string[] {
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const name of names) {
    if (name === 'node_modules' || name.startsWith('.')) {
      continue;
    }
    const full = join(folder, name);
    const stats = statSync(full, { throwIfNoEntry: false });
    if (stats?.isFile() === true && isManifestFileName(name) && !isKustomizationFile(full)) {
      files.push(full);
    } else if (stats?.isDirectory() === true && depth < 8 && kustomizationFileIn(full) === undefined) {
      appendAll(files, filesInUnitFolder(full, depth + 1));
    }
  }
  return files;
}

/** The manifest files directly in a folder. */
function filesInFolder(folder: string): string[] {
  try {
    return readdirSync(folder)
      .sort()
      .filter((name) => isManifestFileName(name) && !name.startsWith('.'))
      .map((name) => join(folder, name))
      .filter((file) => statSync(file, { throwIfNoEntry: false })?.isFile() === true);
  } catch {
    return [];
  }
}

function isKustomizationFile(file: string): boolean {
  return kustomizationFileIn(dirname(file)) === file;
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

/** An apiVersion and a kind key: at a line's start or after "- " in YAML, after "{", "," or a space in JSON. */
const API_VERSION_KEY = /(?:^|[\s{,])"?apiVersion"?\s*:/m;
const KIND_KEY = /(?:^|[\s{,])"?kind"?\s*:/m;

/** Whether a file's text has the keys every Kubernetes object has; an unreadable file counts as one (named). */
function holdsKubernetesObject(text: string | undefined): boolean {
  return text === undefined || (API_VERSION_KEY.test(text) && KIND_KEY.test(text));
}

function readTextOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
