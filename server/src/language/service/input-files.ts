/**
 * The shapes of a command's input as the service reads it: each file's text as read (what it is checked as: a
 * kustomize role, a chart's file, the kustomization whose render it is), then analysed. The CLI reads the disk
 * (cli/read-input.ts); everything from here on is the service's.
 */
import type { AnalysisContext, FileAnalysis } from '../analyzer';
import { analyzeText } from '../analyzer';
import type { CrdKindValidator } from '../crd';
import { withHelmChart } from '../helm-chart-context';
import { withKustomizeRole } from '../kustomize/role-context';
import { LineIndex } from '../text/line-index';
import { customKindsOf, usesCustomKinds } from './analysis-context';
import { allFindingsOf, crossObjectFindings } from '../workspace-findings';
import { placeReaderFindings } from '../manifests/place-findings';
import { readManifests } from '../manifests/read-manifests';
import { describePlaceIn } from '../manifests/describe-place';
import type { TextFinding } from '../findings';
import type { KustomizeRole } from '../kustomize/kustomization';
import type { ManifestFile } from '../manifests/read-manifests';
import type { UnitNamespace } from '../manifests/apply-namespace';
import type { Finding } from '../../../../protocol/finding';

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
  /** The apply unit the note is about (a kustomization's folder), as displayed; none for a chart. */
  readonly unit?: string | undefined;
  /** On the file as a whole (no place yet: the command names the file as it displays it). */
  readonly finding: Finding;
}

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
  /** Each document's place in its unit's apply (read-manifests.ts ManifestFile.applyOrder). */
  readonly applyOrder?: readonly number[] | undefined;
  /** The namespace of its GitOps unit (read-manifests.ts ManifestFile.unitNamespace). */
  readonly unitNamespace?: UnitNamespace | undefined;
  /** The GitOps controller that applies it (read-manifests.ts ManifestFile.appliedBy). */
  readonly appliedBy?: 'Argo CD' | 'Flux' | undefined;
}

/** How the texts are analysed. */
export interface AnalyzeOptions {
  readonly kubernetesVersion: string;
  readonly maxFileLength: number;
}

/** The analysis contexts of a service, by version, file-size limit and CRD kinds. */
export type ContextOf = (
  kubernetesVersion: string,
  maxFileLength: number,
  customKinds?: CrdKindValidator,
) => AnalysisContext;

/** Analyses the texts read, in this thread. */
export function analyzeInputTexts(
  texts: readonly InputText[],
  options: AnalyzeOptions,
  getAnalysisContext: ContextOf,
): InputFile[] {
  const firstContext = getAnalysisContext(options.kubernetesVersion, options.maxFileLength);
  let files: InputFile[] = texts.map((input) => ({
    id: input.id,
    ...(input.applyUnit === undefined ? {} : { applyUnit: input.applyUnit }),
    ...(input.applyOrder === undefined ? {} : { applyOrder: input.applyOrder }),
    ...(input.unitNamespace === undefined ? {} : { unitNamespace: input.unitNamespace }),
    ...(input.appliedBy === undefined ? {} : { appliedBy: input.appliedBy }),
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

/** A file with every finding validate prints for it (its own, the reader's, the cross-object ones), sorted. */
export interface ValidatedFile {
  readonly file: OutlinedInputFile;
  readonly findings: readonly TextFinding[];
}

/** How validateFiles reads. */
export interface ValidateFilesOptions {
  /** The namespace given on the command line (`kubectl apply -n`): an object naming another one is refused. */
  readonly namespace?: string;
}

/** Every file's findings, found in this thread: its own, the cross-object ones and the reader's, sorted. */
export function validateFiles(
  files: readonly InputFile[],
  options: ValidateFilesOptions = {},
): ValidatedFile[] {
  const cross = crossObjectFindings(files);
  // The reader's findings: the same object defined twice, generateName refused by kubectl apply, a namespace
  // other than -n's.
  const read = placeReaderFindings(
    readManifests(files, {
      describePlace: describePlaceIn(files),
      ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    }).findings,
    files,
  );
  return files.map((file) => ({
    file,
    findings: allFindingsOf(file.analysis, [...(cross.get(file.id) ?? []), ...(read.get(file.id) ?? [])]),
  }));
}
