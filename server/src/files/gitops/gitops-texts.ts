/**
 * The hook of GitOps units into the command line's reading (cli/read-input.ts): the definitions among the files
 * below the command line's paths give units (gitops-units.ts); each is read here, its plain files as they are and
 * its kustomizations rendered, every text marked with the unit and its namespace. What a GitOps unit applies is
 * claimed from the other units: a folder that is a unit's path is applied once, as that unit (with its namespace),
 * never also as the plain folder or kustomization `-R` would otherwise find there.
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { InputText, LanguageService, SkippedChart } from '../../language/service';
import { STDIN_NAME } from '../../language/service';
import { collectManifestFiles, STDIN_PATH } from '../manifest-files';
import type { KustomizeOptions } from '../kustomize/kustomization-units';
import { renderKustomizations } from '../kustomize/kustomization-units';
import type { KustomizeRoles } from '../kustomize-roles';
import type { GitopsUnit } from './gitops-units';
import { findGitopsUnits } from './gitops-units';
import { TextReads } from '../text-reads';
import { appendAll } from '../../../../protocol/collections';

/** A GitOps unit as the outputs list it. */
export interface GitopsUnitSummary {
  readonly kind: 'Application' | 'Kustomization';
  /** "namespace/name" of the definition. */
  readonly name: string;
  /** The definition's file and line (1-based), as displayed. */
  readonly definition: string;
  /** The folder it applies, as displayed. */
  readonly path: string;
  /** The namespace its controller gives objects, and whether it overrides theirs (Flux) or fills (Argo CD). */
  readonly namespace?: string;
  readonly namespaceMode?: 'override' | 'fill';
  /** How it is built: a kustomization, or files read as they are. */
  readonly build: 'kustomize' | 'files';
  /** The namespace its sync creates first (Argo CD's CreateNamespace=true). */
  readonly createsNamespace?: string;
}

/** What the GitOps units gave. */
export interface GitopsTexts {
  readonly units: readonly { readonly name: string; readonly summary: GitopsUnitSummary }[];
  readonly texts: readonly InputText[];
  readonly notes: readonly SkippedChart[];
  /** Files (absolute) that no other unit reads: the units' own, and the plain files of their folders. */
  readonly claimedFiles: ReadonlySet<string>;
  /** Kustomization folders (absolute) rendered by a unit here: no other unit renders them on their own. */
  readonly claimedKustomizations: ReadonlySet<string>;
  /** Files (absolute) read for the units. */
  readonly read: ReadonlySet<string>;
  readonly warnings: readonly string[];
}

/** Finds and reads the GitOps units below the command line's paths (and in standard input's text, if read). */
export function readGitopsUnits(
  paths: readonly string[],
  cwd: string,
  recursive: boolean,
  kustomize: KustomizeOptions | undefined,
  display: (file: string) => string,
  roles: KustomizeRoles,
  service: Pick<LanguageService, 'renderedTexts'>,
  stdin?: string,
  reads: TextReads = new TextReads(),
): GitopsTexts {
  const named = paths
    .filter((path) => path !== STDIN_PATH)
    .map((path) => resolve(cwd, path))
    .filter((path) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true);
  // Standard input (`helm template apps/ | foresight validate -R - .`: an app of apps rendered) is read as a file
  // in the working directory, so its paths are tried under the work tree and folders around it.
  const found = findGitopsUnits(
    collectManifestFiles(paths, cwd, { recursive }).files,
    stdin === undefined ? named : [...named, cwd],
    display,
    stdin === undefined ? [] : [{ file: join(cwd, STDIN_NAME), text: stdin }],
    reads,
  );
  const texts: InputText[] = [];
  const notes: SkippedChart[] = found.notes.map((note) => ({
    file: display(note.at.file),
    finding: {
      ...note.finding,
      place: { file: display(note.at.file), start: note.at.start, end: note.at.end },
    },
  }));
  const claimedFiles = new Set<string>();
  const claimedKustomizations = new Set<string>();
  const read = new Set<string>();
  const warnings: string[] = [];
  const units: { name: string; summary: GitopsUnitSummary }[] = [];
  for (const folder of found.notRendered) {
    claimedKustomizations.add(folder);
    collectManifestFiles([folder], cwd, { recursive: true }).files.forEach((file) => claimedFiles.add(file));
  }
  const applied = new Map<string, string>();
  for (const unit of found.units) {
    // Two definitions that apply one folder the same way (a cluster folder each) apply the same objects: one
    // unit, both listed.
    const key = JSON.stringify([unit.folder, unit.namespace ?? null]);
    const same = applied.get(key);
    if (same !== undefined) {
      units.push({ name: same, summary: summaryOf(unit, display) });
      continue;
    }
    const base = display(unit.folder) || '.';
    const name = units.some((entry) => entry.name === base) ? `${base} (${unit.kind} ${unit.name})` : base;
    applied.set(key, name);
    units.push({ name, summary: summaryOf(unit, display) });
    const marks = {
      applyUnit: name,
      appliedBy: unit.kind === 'Application' ? ('Argo CD' as const) : ('Flux' as const),
      ...(unit.namespace === undefined ? {} : { unitNamespace: unit.namespace }),
    };
    for (const file of unit.files) {
      claimedFiles.add(file);
      read.add(file);
      try {
        texts.push({
          id: display(file),
          text: reads.read(file),
          role: roles.roleOf(file),
          ...marks,
        });
      } catch {
        // An unreadable file is left to the plain walk, which reports it.
        claimedFiles.delete(file);
      }
    }
    for (const file of collectManifestFiles([unit.folder], cwd, { recursive: unit.recursive }).files) {
      claimedFiles.add(file);
    }
    if (unit.kustomizations.length === 0 || kustomize === undefined) {
      continue;
    }
    unit.kustomizations.forEach((folder) => claimedKustomizations.add(folder));
    const rendered = renderKustomizations(unit.kustomizations, cwd, false, kustomize, display, service);
    rendered.covered.forEach((file) => claimedFiles.add(file));
    rendered.read.forEach((file) => read.add(file));
    appendAll(warnings, rendered.warnings);
    for (const text of rendered.texts) {
      texts.push({ id: display(text.file), text: text.text, lines: text.lines, ...marks });
    }
    for (const note of rendered.notes) {
      notes.push({ ...note, file: display(note.file), unit: name });
    }
  }
  return { units, texts, notes, claimedFiles, claimedKustomizations, read, warnings };
}

function summaryOf(unit: GitopsUnit, display: (file: string) => string): GitopsUnitSummary {
  return {
    kind: unit.kind,
    name: unit.name,
    definition: `${display(unit.definition.file)}:${unit.definition.start.line + 1}`,
    path: display(unit.folder) || '.',
    ...(unit.namespace === undefined
      ? {}
      : { namespace: unit.namespace.name, namespaceMode: unit.namespace.overrides ? 'override' : 'fill' }),
    build: unit.kustomizations.length > 0 && unit.files.length === 0 ? 'kustomize' : 'files',
    ...(unit.namespace?.creates === undefined ? {} : { createsNamespace: unit.namespace.creates.name }),
  };
}

/** One line per GitOps unit, for the text outputs: what applies which folder, in which namespace. */
export function gitopsUnitLines(units: readonly GitopsUnitSummary[]): string {
  return units
    .map(
      (unit) =>
        `GitOps unit: ${unit.kind === 'Application' ? 'Argo CD Application' : 'Flux Kustomization'} ${unit.name} (${unit.definition}) applies ${unit.path}${unit.namespace === undefined ? '' : ` in namespace ${unit.namespace}${unit.namespaceMode === 'fill' ? ' (objects naming none)' : ''}`}${unit.createsNamespace === undefined ? '' : `, creating namespace ${unit.createsNamespace} (CreateNamespace=true)`}\n`,
    )
    .join('');
}

/** A JSON report (text) with its GitOps units as a `gitopsUnits` field, when there are any. */
export function withGitopsUnits(json: string, units: readonly GitopsUnitSummary[]): string {
  if (units.length === 0) {
    return json;
  }
  const report = JSON.parse(json) as Record<string, unknown>;
  return `${JSON.stringify({ ...report, gitopsUnits: units }, null, 2)}\n`;
}
