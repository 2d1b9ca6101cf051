/**
 * The input of `foresight validate` and `foresight simulate`, read one way for both: the files `kubectl apply -f`
 * would read (files/manifest-files.ts: folders by extension, sub-folders with `-R`, Helm chart folders skipped as a
 * unit, `-` for standard input), each analysed as the language server analyses it, again with the kinds their
 * CustomResourceDefinitions define, then read into objects by the one manifest reader
 * (language/manifests/read-manifests.ts).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { customKindsOf, getAnalysisContext } from '../host/analysis-context';
import type { AnalysisContext } from '../language/analyzer';
import { analyzeText } from '../language/analyzer';
import type { Finding } from '../language/findings';
import type { ManifestFile } from '../language/manifests/read-manifests';
import { LineIndex } from '../language/text/line-index';
import { collectManifestFiles, STDIN_PATH } from '../files/manifest-files';
import type { CliIo } from './io';

/** The name standard input is shown by (a display name, not a path: no output format turns it into a location). */
export const STDIN_NAME = '<stdin>';

/** One file read: its display name, text, analysis and line index. */
export interface InputFile extends ManifestFile {
  readonly text: string;
  readonly lines: LineIndex;
}

/** A Helm chart folder left out, with the note a command prints for it. */
export interface SkippedChart {
  /** The chart's Chart.yaml, as displayed. */
  readonly file: string;
  readonly finding: Finding;
}

/** What was read, or why nothing could be. */
type CliInput =
  | { readonly ok: true; readonly files: readonly InputFile[]; readonly charts: readonly SkippedChart[] }
  | { readonly ok: false; readonly usage: boolean; readonly message: string };

/** How to read. */
interface ReadInputOptions {
  readonly recursive: boolean;
  readonly kubernetesVersion: string;
  readonly maxFileLength: number;
}

/** Reads and analyses the paths of a command line. */
export function readCliInput(paths: readonly string[], io: CliIo, options: ReadInputOptions): CliInput {
  const collected = collectManifestFiles(paths, io.cwd, { recursive: options.recursive });
  if (collected.missing.length > 0) {
    return {
      ok: false,
      usage: true,
      message: `no such file or directory: ${collected.missing.join(', ')}`,
    };
  }
  const display = (file: string): string => relative(io.cwd, file) || file;
  const texts: { id: string; text: string }[] = [];
  for (const path of paths.filter((entry) => entry === STDIN_PATH).slice(0, 1)) {
    if (io.readStdin === undefined) {
      return { ok: false, usage: true, message: `${path}: standard input cannot be read here` };
    }
    texts.push({ id: STDIN_NAME, text: io.readStdin() });
  }
  for (const file of collected.files) {
    try {
      texts.push({ id: display(file), text: readFileSync(file, 'utf8') });
    } catch (error: unknown) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, usage: false, message: `cannot read ${display(file)}: ${reason}` };
    }
  }
  const analyse = (context: AnalysisContext): InputFile[] =>
    texts.map(({ id, text }) => ({
      id,
      text,
      analysis: analyzeText(text, context),
      lines: new LineIndex(text),
    }));
  let files = analyse(getAnalysisContext(options.kubernetesVersion, options.maxFileLength));
  // CustomResourceDefinitions among the files define kinds that the other files may use: analyse again with them.
  const customKinds = customKindsOf(files.map((file) => file.analysis));
  if (customKinds !== undefined) {
    files = analyse(getAnalysisContext(options.kubernetesVersion, options.maxFileLength, customKinds));
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
  return { ok: true, files, charts };
}
