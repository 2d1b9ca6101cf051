/**
 * `foresight simulate --output json`: the engine's report (schemas/report.schema.json) with its findings the run's
 * one placed list (the same as every other output's), each written as the report's finding entry: severity, code,
 * the file it is shown on, the document and path of its object and field, its 1-based line when placed, the
 * message.
 */
import type { Finding, SimulationReport } from '../../language/service';
import { helmTemplateOf } from './finding-places';

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
