/**
 * The input of `foresight validate` and `foresight simulate`, read one way for both: the files `kubectl apply -f`
 * would read (files/manifest-files.ts: folders by extension, sub-folders with `-R`, Helm chart folders skipped as a
 * unit, `-` for standard input), each analysed as the language server analyses it, again with the kinds their
 * CustomResourceDefinitions define, then read into objects by the one manifest reader
 * (language/manifests/read-manifests.ts). A folder holding a kustomization.yaml is rendered by the real kustomize
 * instead (kustomize/read-kustomizations.ts), as `kubectl apply -k` reads it: its rendered objects are read in
 * place of its files, under the names of the files they came from, with those files' lines.
 */
import { readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { customKindsOf, getAnalysisContext, usesCustomKinds } from '../host/analysis-context';
import type { AnalysisContext, FileAnalysis } from '../language/analyzer';
import { analyzeText } from '../language/analyzer';
import type { Finding } from '../language/findings';
import type { ManifestFile } from '../language/manifests/read-manifests';
import { LineIndex } from '../language/text/line-index';
import { chartFolderOf, collectManifestFiles, STDIN_PATH } from '../files/manifest-files';
import { withHelmChart } from '../language/helm-chart-context';
import type { CliIo } from './io';
import type { KustomizeRole } from '../language/kustomize/kustomization';
import { withKustomizeRole } from '../language/kustomize/role-context';
import { KustomizeRoles } from '../files/kustomize-roles';
import type { KustomizeOptions } from './kustomize/read-kustomizations';
import { renderKustomizations } from './kustomize/read-kustomizations';

/** The name standard input is shown by (a display name, not a path: no output format turns it into a location). */
export const STDIN_NAME = '<stdin>';

/** One file read: its display name, text, analysis (an outline, when analysed in another thread) and line index. */
export interface OutlinedInputFile extends ManifestFile {
  readonly text: string;
  readonly lines: LineIndex;
}

/** One file read and analysed in this thread: its YAML nodes are at hand. */
export interface InputFile extends OutlinedInputFile {
  readonly analysis: FileAnalysis;
}

/**
 * A folder not read as manifests, with the note (or error) a command prints for it: a Helm chart folder left out,
 * a kustomization not rendered or whose render failed.
 */
export interface SkippedChart {
  /** The chart's Chart.yaml, or the kustomization file, as displayed. */
  readonly file: string;
  readonly finding: Finding;
}

/** What was read, or why nothing could be. */
type CliInput =
  | { readonly ok: true; readonly files: readonly InputFile[]; readonly charts: readonly SkippedChart[] }
  | { readonly ok: false; readonly usage: boolean; readonly message: string };

/** One file's text as read, before analysis: what it is checked as (a kustomize role, a chart's file). */
export interface InputText {
  readonly id: string;
  readonly text: string;
  /** The line index of a kustomize render (its lines are those of the files it came from). */
  readonly lines?: LineIndex | undefined;
  readonly role?: KustomizeRole | undefined;
  readonly chart?: string | undefined;
  /** The kustomization whose render this is (read-manifests.ts ManifestFile.applyUnit). */
  readonly applyUnit?: string | undefined;
}

/** The texts read, or why nothing could be. */
type CliTexts =
  | { readonly ok: true; readonly texts: readonly InputText[]; readonly charts: readonly SkippedChart[] }
  | { readonly ok: false; readonly usage: boolean; readonly message: string };

/** How to read. */
interface ReadInputOptions {
  readonly recursive: boolean;
  readonly kubernetesVersion: string;
  readonly maxFileLength: number;
  /** Render kustomization folders with kustomize; absent: read their files raw. */
  readonly kustomize?: KustomizeOptions;
}

/** Reads and analyses the paths of a command line. */
export function readCliInput(paths: readonly string[], io: CliIo, options: ReadInputOptions): CliInput {
  const read = readCliTexts(paths, io, options);
  return read.ok ? { ok: true, files: analyzeCliTexts(read.texts, options), charts: read.charts } : read;
}

/** Reads the paths of a command line: the texts to analyse, and the folders set aside with a note. */
export function readCliTexts(paths: readonly string[], io: CliIo, options: ReadInputOptions): CliTexts {
  const collected = collectManifestFiles(paths, io.cwd, { recursive: options.recursive });
  if (collected.missing.length > 0) {
    return {
      ok: false,
      usage: true,
      message: `no such file or directory: ${collected.missing.join(', ')}`,
    };
  }
  const display = (file: string): string => relative(io.cwd, file) || file;
  const kustomized =
    options.kustomize === undefined
      ? undefined
      : renderKustomizations(paths, io.cwd, options.recursive, options.kustomize, display);
  for (const warning of kustomized?.warnings ?? []) {
    io.stderr(`foresight: kustomize: ${warning}\n`);
  }
  const texts: InputText[] = [];
  // A file a kustomization names as a patch or a transformer's configuration is checked as that.
  const kustomizeRoles = new KustomizeRoles();
  for (const path of paths.filter((entry) => entry === STDIN_PATH).slice(0, 1)) {
    if (io.readStdin === undefined) {
      return { ok: false, usage: true, message: `${path}: standard input cannot be read here` };
    }
    texts.push({ id: STDIN_NAME, text: io.readStdin() });
  }
  for (const rendered of kustomized?.texts ?? []) {
    texts.push({
      id: display(rendered.file),
      text: rendered.text,
      lines: rendered.lines,
      applyUnit: display(rendered.unit),
    });
  }
  for (const file of collected.files.filter((entry) => kustomized?.covered.has(entry) !== true)) {
    try {
      // A file named inside a chart folder (its walk skips the chart whole) is skipped as the editor skips it.
      const chart = chartFolderOf(file);
      texts.push({
        id: display(file),
        text: readFileSync(file, 'utf8'),
        role: kustomizeRoles.roleOf(file),
        chart: chart === undefined ? undefined : basename(chart),
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
      message: `${display(folder) || '.'} is a Helm chart (Chart.yaml beside templates/): its templates are not plain manifests and were not read. Render it (helm template) and pass the output (-) to check what it applies.`,
      start: 0,
      end: 0,
    },
  }));
  const kustomizations = (kustomized?.notes ?? []).map((note) => ({ ...note, file: display(note.file) }));
  return { ok: true, texts, charts: [...charts, ...kustomizations] };
}

/** How the texts are analysed. */
export interface AnalyzeOptions {
  readonly kubernetesVersion: string;
  readonly maxFileLength: number;
}

/** Analyses the texts read, in this thread. */
export function analyzeCliTexts(texts: readonly InputText[], options: AnalyzeOptions): InputFile[] {
  const firstContext = getAnalysisContext(options.kubernetesVersion, options.maxFileLength);
  let files: InputFile[] = texts.map((input) => ({
    id: input.id,
    ...(input.applyUnit === undefined ? {} : { applyUnit: input.applyUnit }),
    text: input.text,
    analysis: analyzeText(input.text, contextForText(firstContext, input)),
    lines: input.lines ?? new LineIndex(input.text),
  }));
  // CustomResourceDefinitions among the files define kinds that the other files may use: analyse again, with
  // them, the files that hold objects of those kinds (a folder of CRDs alone is read once).
  const customKinds = customKindsOf(files.map((file) => file.analysis));
  if (customKinds !== undefined) {
    const context = getAnalysisContext(options.kubernetesVersion, options.maxFileLength, customKinds);
    files = files.map((file, index) => {
      const input = texts[index];
      return usesCustomKinds(file.analysis, customKinds) && input !== undefined
        ? { ...file, analysis: analyzeText(file.text, contextForText(context, input)) }
        : file;
    });
  }
  return files;
}

/** The context a text is analysed in: the command's, as the kustomize role and the chart of the file make it. */
export function contextForText(
  context: AnalysisContext,
  input: Pick<InputText, 'role' | 'chart'>,
): AnalysisContext {
  return withHelmChart(withKustomizeRole(context, input.role), input.chart);
}
