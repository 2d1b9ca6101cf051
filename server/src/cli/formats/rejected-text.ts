/**
 * The report's refusals as text: the "Refused by admission" section (each object the API server refuses, what
 * refused it and why) and how many the summary line counts.
 */
import type { SimulationReport } from '../../language/service';

/** The "Refused by admission" section: each object the API server refuses, with what refused it and why. */
export function formatRejected(report: SimulationReport, displayFile: (file: string) => string): string[] {
  if (report.rejected.length === 0) {
    return [];
  }
  const lines = ['', 'Refused by admission'];
  for (const entry of report.rejected) {
    const name = `${entry.kind} ${entry.namespace === undefined ? '' : `${entry.namespace}/`}${entry.name}`;
    const owner = entry.owner === undefined ? '' : ` (created by ${entry.owner.kind}/${entry.owner.name})`;
    const by = entry.plugin === '' ? entry.stage : entry.plugin;
    lines.push(`  ${name}${owner}, ${displayFile(entry.file)}: ${by}`);
    if (entry.replicas !== undefined) {
      const { workload, desired, created } = entry.replicas;
      lines.push(
        `    ${workload.kind} ${workload.name}: ${desired} desired · ${created} created · ${desired - created} refused by ${by}`,
      );
    }
    for (const line of entry.message.split('\n')) {
      lines.push(`    ${line}`);
    }
  }
  return lines;
}

/**
 * What the API server refused, counted as a user counts it: each object of the apply, and each replica a workload
 * never got (its last refusal carries the count; its earlier ones, and pods without a count, are one each).
 */
export function refusedCount(rejected: SimulationReport['rejected']): number {
  const counted = new Set(
    rejected.flatMap((entry) =>
      entry.replicas === undefined
        ? []
        : [`${entry.namespace ?? ''}/${entry.owner?.kind ?? ''}/${entry.owner?.name ?? ''}`],
    ),
  );
  return rejected.reduce((sum, entry) => {
    if (entry.replicas !== undefined) {
      return sum + entry.replicas.desired - entry.replicas.created;
    }
    const owner = `${entry.namespace ?? ''}/${entry.owner?.kind ?? ''}/${entry.owner?.name ?? ''}`;
    return sum + (entry.owner !== undefined && counted.has(owner) ? 0 : 1);
  }, 0);
}
