/**
 * The input of `foresight validate` and `foresight simulate`, read one way for both, as apply units (docs/cli.md,
 * "Apply units"): what one command applies. A folder holding a kustomization is a unit of its own, rendered by the
 * real kustomize (files/kustomize/kustomization-units.ts) as `kubectl apply -k` reads it: its rendered objects
 * only, under the names of the files they came from, with those files' lines; its folder is never read file by
 * file. Every other folder is a plain unit, read as `kubectl apply -f` reads it (files/manifest-files.ts: files by
 * extension, each sub-folder with `-R` a unit of its own, Helm chart folders skipped as a unit); a file named on
 * the command line is a unit, and so is `-` (standard input). Each text is analysed as the language server
 * analyses it, again with the kinds their CustomResourceDefinitions define, then read into objects by the one
 * manifest reader (language/manifests/read-manifests.ts), which tells duplicates only within a unit.
 */
import { basename, dirname, join, relative, resolve } from 'node:path';
import { chartFolderOf, collectManifestFiles, STDIN_PATH } from '../files/manifest-files';
import type { CliIo } from './io';
import type { InputFile, InputText, LanguageService, SkippedChart } from '../language/service';
import { STDIN_NAME } from '../language/service';
import { KustomizeRoles } from '../files/kustomize-roles';
import type { KustomizeOptions } from '../files/kustomize/kustomization-units';
import { kustomizeOptionsOf, renderKustomizations } from '../files/kustomize/kustomization-units';
import { prerenderKustomizations } from '../files/kustomize/prerender-kustomizations';
import type { CommonOptions } from './command-line';
import type { GitopsUnitSummary } from '../files/gitops/gitops-texts';
import { readGitopsUnits } from '../files/gitops/gitops-texts';
import { TextReads } from '../files/text-reads';

/** One apply unit of a command line: what one `kubectl apply` (or one GitOps controller's sync) applies. */
export interface ApplyUnit {
  /** The folder or file as displayed (`<stdin>` for standard input): the texts' `applyUnit`. */
  readonly name: string;
  /** The command that applies it, or the GitOps controller's definition. */
  readonly command: 'kubectl apply -k' | 'kubectl apply -f' | 'Argo CD Application' | 'Flux Kustomization';
  /** The Argo CD Applications or Flux Kustomizations that define it (files/gitops/), in the order found. */
  readonly gitops?: readonly GitopsUnitSummary[];
}

/** What was read: the units, and how many files on disk (or standard input) were read for them. */
interface ReadUnits {
  readonly units: readonly ApplyUnit[];
  readonly filesRead: number;
}

/** What was read, or why nothing could be. */
type CliInput =
  | ({
      readonly ok: true;
      readonly files: readonly InputFile[];
      readonly charts: readonly SkippedChart[];
    } & ReadUnits)
  | { readonly ok: false; readonly usage: boolean; readonly message: string };

/** The texts read, or why nothing could be. */
export type CliTexts =
  | ({
      readonly ok: true;
      readonly texts: readonly InputText[];
      readonly charts: readonly SkippedChart[];
    } & ReadUnits)
  | { readonly ok: false; readonly usage: boolean; readonly message: string };

/** How to read. */
interface ReadInputOptions {
  readonly recursive: boolean;
  readonly kubernetesVersion: string;
  readonly maxFileLength: number;
  /** Render kustomization folders with kustomize; absent: read their files raw. */
  readonly kustomize?: KustomizeOptions;
}

/**
 * The kustomize options of a command line (`--kustomize`, `--kustomize-allow-remote`), with its kustomizations
 * rendered ahead, several at a time (prerender-kustomizations.ts): validate, simulate and plan read with these.
 */
export function kustomizeRendersAhead(
  options: Pick<CommonOptions, 'paths' | 'recursive' | 'kustomize' | 'allowRemote'>,
  io: CliIo,
): Promise<KustomizeOptions> {
  return prerenderKustomizations(
    options.paths,
    io.cwd,
    options.recursive,
    kustomizeOptionsOf(options.kustomize, options.allowRemote, io),
  );
}

/** Reads the paths of a command line, and has the service analyse them. */
export function readCliInput(
  paths: readonly string[],
  io: CliIo,
  options: ReadInputOptions,
  service: LanguageService,
): CliInput {
  const read = readCliTexts(paths, io, options, service);
  return read.ok
    ? {
        ok: true,
        files: service.analyzeInputs(read.texts, options),
        charts: read.charts,
        units: read.units,
        filesRead: read.filesRead,
      }
    : read;
}

/** Reads the paths of a command line: the texts to analyse, and the folders set aside with a note. */
export function readCliTexts(
  paths: readonly string[],
  io: CliIo,
  options: ReadInputOptions,
  service: LanguageService,
): CliTexts {
  const collected = collectManifestFiles(paths, io.cwd, {
    recursive: options.recursive,
    skipKustomizations: options.kustomize !== undefined,
  });
  if (collected.missing.length > 0) {
    return {
      ok: false,
      usage: true,
      message: `no such file or directory: ${collected.missing.join(', ')}`,
    };
  }
  const display = (file: string): string => relative(io.cwd, file) || file;
  // A file a kustomization names as a patch or a transformer's configuration is checked as that.
  const kustomizeRoles = new KustomizeRoles(service, true);
  const stdin = paths.includes(STDIN_PATH) ? io.readStdin?.() : undefined;
  // GitOps definitions among the files define units of their own, read first: what they apply is theirs only.
  // The files they look at are read once for both (a cluster capture is as large as 130 MB).
  const reads = new TextReads();
  const gitops = readGitopsUnits(
    paths,
    io.cwd,
    options.recursive,
    options.kustomize,
    display,
    kustomizeRoles,
    service,
    stdin,
    reads,
  );
  const kustomized =
    options.kustomize === undefined
      ? undefined
      : renderKustomizations(
          paths,
          io.cwd,
          options.recursive,
          options.kustomize,
          display,
          service,
          gitops.claimedKustomizations,
        );
  for (const warning of [...gitops.warnings, ...(kustomized?.warnings ?? [])]) {
    io.stderr(`foresight: kustomize: ${warning}\n`);
  }
  const texts: InputText[] = [...gitops.texts];
  const units = new Map<string, ApplyUnit>();
  const addUnit = (name: string, command: ApplyUnit['command']): string => {
    units.set(name, units.get(name) ?? { name, command });
    return name;
  };
  for (const { name, summary } of gitops.units) {
    const command = summary.kind === 'Application' ? 'Argo CD Application' : 'Flux Kustomization';
    units.set(name, { name, command, gitops: [...(units.get(name)?.gitops ?? []), summary] });
  }
  for (const folder of kustomized?.units ?? []) {
    addUnit(display(folder) || '.', 'kubectl apply -k');
  }
  for (const path of paths.filter((entry) => entry === STDIN_PATH).slice(0, 1)) {
    if (io.readStdin === undefined) {
      return { ok: false, usage: true, message: `${path}: standard input cannot be read here` };
    }
    texts.push({ id: STDIN_NAME, text: stdin ?? '', applyUnit: addUnit(STDIN_NAME, 'kubectl apply -f') });
  }
  for (const rendered of kustomized?.texts ?? []) {
    texts.push({
      id: display(rendered.file),
      text: rendered.text,
      lines: rendered.lines,
      applyUnit: display(dirname(rendered.unit)) || '.',
      applyOrder: rendered.applyOrder,
    });
  }
  // A file named on the command line is a unit of its own; a file found in a folder belongs to that folder's.
  const named = new Set(paths.map((path) => resolve(io.cwd, path)));
  const plainFiles = collected.files.filter(
    (entry) =>
      kustomized?.covered.has(entry) !== true && (named.has(entry) || !gitops.claimedFiles.has(entry)),
  );
  for (const file of plainFiles) {
    try {
      // A file named inside a chart folder (its walk skips the chart whole) is skipped as the editor skips it.
      const chart = chartFolderOf(file);
      texts.push({
        id: display(file),
        text: reads.read(file),
        role: kustomizeRoles.roleOf(file),
        chart: chart === undefined ? undefined : basename(chart),
        applyUnit: addUnit(
          named.has(file) ? display(file) : display(dirname(file)) || '.',
          'kubectl apply -f',
        ),
      });
    } catch (error: unknown) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, usage: false, message: `cannot read ${display(file)}: ${reason}` };
    }
  }
  const charts = collected.charts.map((folder) => ({
    file: display(join(folder, 'Chart.yaml')),
    finding: {
      code: 'helm-chart-skipped' as const,
      severity: 'information' as const,
      message: `${display(folder) || '.'} is a Helm chart (Chart.yaml beside templates/): its templates are not plain manifests and were not read. Render it (helm template) and pass the output (-) to check what it applies.`,
    },
  }));
  const kustomizations = (kustomized?.notes ?? []).map((note) => ({
    ...note,
    file: display(note.file),
    unit: display(note.unit) || '.',
  }));
  const filesRead =
    new Set([...gitops.read, ...(kustomized?.read ?? []), ...plainFiles]).size +
    (texts.some((text) => text.id === STDIN_NAME) ? 1 : 0);
  return {
    ok: true,
    texts,
    charts: [...charts, ...gitops.notes, ...kustomizations],
    units: [...units.values()],
    filesRead,
  };
}
