/**
 * `foresight simulate`'s text output over its simulations (cli/unit-clusters.ts: one per cluster file the units
 * use): one simulation is its report as format-text.ts writes it; several are each under a header naming the
 * cluster and the units it simulates, then one line that sums them. In each, the errors and warnings are grouped
 * by apply unit when it simulates more than one, as `foresight validate` groups them, and the summary line counts
 * the files read, the units and the objects applied.
 */
import type { Finding } from '../../language/service';
import type { GroupRun } from '../simulate-group';
import { formatPodSummary, formatReportText } from './format-text';

/** What the run read, for the summary line. */
interface ReadCounts {
  readonly filesRead: number;
  readonly units: number;
  readonly objects: number;
}

/** The text output of a run of one or more simulations. */
export function formatSimulationsText(runs: readonly GroupRun[], counts: ReadCounts): string {
  const read = `${counts.filesRead} file(s) read, ${unitCount(counts.units)}, ${counts.objects} object(s)`;
  if (runs.length === 1 && runs[0] !== undefined) {
    return formatRunText(runs[0], `${read}; `);
  }
  const sections = runs.map(
    (run) =>
      `=== ${run.clusterName}: ${unitCount(run.group.units.length)} (${unitNames(run.group.units)})\n` +
      formatRunText(run, `${unitCount(run.group.units.length)}, ${run.objects} object(s); `),
  );
  const total = formatPodSummary(
    runs.flatMap((run) => run.report.pods),
    runs.flatMap((run) => run.report.rejected),
    runs.flatMap((run) => run.findings),
  );
  return `${sections.join('\n')}\n${runs.length} simulations, one per cluster: ${read}; ${total}\n`;
}

/** One simulation's report, its findings under their units when it simulates more than one. */
function formatRunText(run: GroupRun, summaryPrefix: string): string {
  const { units } = run.group;
  if (units.length < 2) {
    return formatReportText(run.report, run.findings, { summaryPrefix });
  }
  const unitOfFile = new Map<string, string>();
  for (const file of run.files) {
    if (file.applyUnit !== undefined && !unitOfFile.has(file.id)) {
      unitOfFile.set(file.id, file.applyUnit);
    }
  }
  // A kustomization not rendered has no text: its error is on its kustomization file.
  for (const chart of run.group.charts) {
    if (chart.unit !== undefined && !unitOfFile.has(chart.file)) {
      unitOfFile.set(chart.file, chart.unit);
    }
  }
  const headers = new Map(units.map((unit) => [unit.name, `${unit.name} (${unit.command})`]));
  const theCluster = `the cluster (${run.clusterName})`;
  const headerOf = (finding: Finding): string => {
    const file = finding.place?.file ?? finding.object?.file ?? '';
    return headers.get(unitOfFile.get(file) ?? '') ?? theCluster;
  };
  return formatReportText(run.report, run.findings, {
    summaryPrefix,
    headerOf,
    headers: [...headers.values(), theCluster],
  });
}

/** Most unit names a cluster's header lists before "and N more" (a monorepo has hundreds). */
const UNITS_NAMED = 5;

/** The names of a cluster's units, the first few. */
function unitNames(units: readonly { readonly name: string }[]): string {
  const named = units.slice(0, UNITS_NAMED).map((unit) => unit.name);
  const more = units.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

/** "1 apply unit", "9 apply units". */
function unitCount(units: number): string {
  return `${units} apply unit${units === 1 ? '' : 's'}`;
}
