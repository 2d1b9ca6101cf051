/**
 * `foresight validate`'s text output: `file:line:col: severity code message`, one line per finding, grouped under
 * the apply unit each belongs to (docs/cli.md, "Apply units") when the command line read more than one, then the
 * summary: files read, units, objects and the findings counted.
 */
import type { FindingSeverity } from '../../language/service';
import { isUncheckedCode } from '../../language/service';
import type { GitopsUnitSummary } from '../../files/gitops/gitops-texts';
import { gitopsUnitLines } from '../../files/gitops/gitops-texts';

/** One finding as the text and JSON outputs report it (1-based line and column). */
export interface ReportedEntry {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: FindingSeverity;
  code: string;
  message: string;
  /** The Helm chart template the document was rendered from (`# Source:`). */
  source?: string;
  /** Other places that explain it: the chart template's file, when the chart is in the workspace. */
  related?: { file: string; message: string }[];
}

/** A unit as the header of its findings names it. */
interface UnitHeader {
  readonly name: string;
  readonly command: string;
  /** The GitOps definitions that make it a unit: listed before the summary. */
  readonly gitops?: readonly GitopsUnitSummary[];
}

/** What the summary counts. */
interface ValidateCounts {
  readonly filesRead: number;
  readonly units: readonly UnitHeader[];
  readonly objects: number;
  readonly kubernetesVersion: string;
}

/** The text output: findings (by unit when there are several), then the summary line. */
export function formatValidateText(
  reported: readonly ReportedEntry[],
  unitOf: (entry: ReportedEntry) => string | undefined,
  counts: ValidateCounts,
): string {
  const line = (entry: ReportedEntry): string =>
    `${entry.file}:${entry.line}:${entry.column}: ${entry.severity} ${entry.code} ${entry.message}${entry.source === undefined ? '' : ` (from ${entry.source})`}\n`;
  let text = '';
  if (counts.units.length > 1) {
    // In the order the units were read; findings of no unit (a Helm chart left out) come last.
    const headers = new Map(counts.units.map((unit) => [unit.name, unit]));
    const groups = new Map<string, ReportedEntry[]>();
    for (const entry of reported) {
      const name = unitOf(entry);
      const key = name !== undefined && headers.has(name) ? name : '';
      groups.set(key, [...(groups.get(key) ?? []), entry]);
    }
    for (const unit of [...counts.units, { name: '', command: '' }]) {
      const entries = groups.get(unit.name) ?? [];
      if (entries.length > 0) {
        text += unit.name === '' ? '== not in an apply unit\n' : `== ${unit.name} (${unit.command})\n`;
        text += entries.map(line).join('');
      }
    }
  } else {
    text += reported.map(line).join('');
  }
  text += gitopsUnitLines(counts.units.flatMap((unit) => unit.gitops ?? []));
  const errors = reported.filter((entry) => entry.severity === 'error').length;
  // Input left out at a limit is not "checked": said beside the errors, it is what fails such a run.
  const unchecked = reported.filter((entry) => isUncheckedCode(entry.code)).length;
  const notChecked = unchecked === 0 ? '' : `${unchecked} input(s) not checked, `;
  const units = counts.units.length;
  text += `${counts.filesRead} file(s) read, ${units} apply unit${units === 1 ? '' : 's'}, ${counts.objects} object(s), checked against Kubernetes ${counts.kubernetesVersion}: ${errors} error(s), ${notChecked}${reported.length - errors - unchecked} other finding(s).\n`;
  return text;
}
