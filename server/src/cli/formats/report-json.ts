/**
 * `foresight simulate --output json`: the engine's report (schemas/report.schema.json) with its findings the run's
 * one placed list (the same as every other output's), each written as the report's finding entry: severity, code,
 * the file it is shown on, the document and path of its object and field, its 1-based line when placed, the
 * message.
 */
import { relative } from 'node:path';
import type { Finding, SimulationReport } from '../../language/service';
import { helmTemplateOf } from './finding-places';
import { writeJsonInPieces } from './json-pieces';
import type { GroupRun } from '../simulate-group';

/** A finding as the JSON report writes it (schemas/report.schema.json, `findings[]`). */
export interface ReportEntry {
  readonly severity: Finding['severity'];
  readonly code: string;
  readonly file: string;
  readonly documentIndex: number;
  readonly line?: number;
  readonly path: readonly (string | number)[];
  readonly message: string;
  /** The Helm chart template the document was rendered from (`# Source:` of helm template output). */
  readonly source?: string;
  /** Other places that explain it: the chart template's file, when the chart is in the workspace. */
  readonly related?: readonly { readonly file: string; readonly message: string }[];
}

/** The JSON report: the engine's report with its findings written as entries. */
export type JsonReport = Omit<SimulationReport, 'findings'> & { readonly findings: readonly ReportEntry[] };

/** The report as JSON text, with the placed findings. */
export function formatReportJson(report: SimulationReport, findings: readonly Finding[]): string {
  const json: JsonReport = { ...report, findings: findings.map(reportEntry) };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/**
 * Writes the JSON output of a run (formatSimulationsJson's text) to `write` in pieces, never as one string: the
 * report of the largest cluster is 176 MB of text (json-pieces.ts).
 */
export function writeSimulationsJson(
  runs: readonly GroupRun[],
  cwd: string,
  write: (piece: string) => void,
): void {
  writeJsonInPieces(simulationsJson(runs, cwd), write);
  write('\n');
}

/**
 * The JSON output of a run: one simulation is its report (schemas/report.schema.json), as before units had
 * clusters of their own; several are a list (schemas/simulations.schema.json): each with the cluster it ran on,
 * the units it simulated and its report, then every finding of them all, so that `.findings[]` reads both shapes.
 */
export function formatSimulationsJson(runs: readonly GroupRun[], cwd: string): string {
  return `${JSON.stringify(simulationsJson(runs, cwd), null, 2)}\n`;
}

/** The value formatSimulationsJson writes: one run's report, or the runs and all their findings. */
function simulationsJson(runs: readonly GroupRun[], cwd: string): unknown {
  if (runs.length === 1 && runs[0] !== undefined) {
    const [run] = runs;
    const json: JsonReport = { ...run.report, findings: run.findings.map(reportEntry) };
    return json;
  }
  return {
    apiVersion: 'foresight/v1',
    simulations: runs.map((run) => ({
      cluster: run.clusterName,
      clusterFile:
        run.group.clusterPath === undefined
          ? null
          : relative(cwd, run.group.clusterPath) || run.group.clusterPath,
      units: run.group.units,
      report: { ...run.report, findings: run.findings.map(reportEntry) },
    })),
    findings: runs.flatMap((run) => run.findings.map(reportEntry)),
  };
}

function reportEntry(finding: Finding): ReportEntry {
  const line = finding.place?.start === undefined ? undefined : finding.place.start.line + 1;
  return {
    severity: finding.severity,
    code: finding.code,
    file: finding.place?.file ?? finding.object?.file ?? '',
    documentIndex: finding.object?.documentIndex ?? 0,
    ...(line === undefined ? {} : { line }),
    path: [...(finding.object?.path ?? []), ...(finding.path ?? [])],
    message: finding.message,
    ...(helmTemplateOf(finding) === undefined ? {} : { source: helmTemplateOf(finding) }),
    ...(finding.related === undefined || finding.related.length === 0
      ? {}
      : {
          related: finding.related.flatMap((entry) =>
            entry.place === undefined ? [] : [{ file: entry.place.file, message: entry.message }],
          ),
        }),
  };
}
