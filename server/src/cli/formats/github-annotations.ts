/**
 * GitHub Actions workflow commands, one per finding: `::error file=k8s/web.yaml,line=6,col=13,endLine=6,
 * endColumn=16,title=schema-type::message` (warning → ::warning, information → ::notice), which the runner turns
 * into annotations on the pull request; a finding on a document of helm template output ends with ` (from
 * CHART/templates/FILE)`, the template its `# Source:` comment names. Escaping as the runner's toolkit does it (actions/toolkit,
 * packages/core/src/command.ts: escapeData and escapeProperty): %, CR and LF in the message, and also : and , in
 * properties.
 * https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands
 */
import type { Finding } from '../../language/service';
import { fromTemplate, pathOf, regionOf } from './finding-places';

/** The workflow command of each severity. */
const COMMANDS = { error: 'error', warning: 'warning', information: 'notice' } as const;

/** The findings as workflow commands, one line each. */
export function formatGithubAnnotations(findings: readonly Finding[]): string {
  return findings.map((finding) => `${annotation(finding)}\n`).join('');
}

function annotation(finding: Finding): string {
  const properties: [string, string | number][] = [];
  const path = pathOf(finding);
  if (path !== undefined) {
    properties.push(['file', path.replace(/\\/g, '/')]);
    const region = regionOf(finding);
    if (region !== undefined) {
      const { startLine, startColumn, endLine, endColumn } = region;
      properties.push(
        ['line', startLine],
        ['col', startColumn],
        ['endLine', endLine],
        ['endColumn', endColumn],
      );
    }
  }
  properties.push(['title', finding.code]);
  const list = properties.map(([name, value]) => `${name}=${escapeProperty(String(value))}`).join(',');
  // On a line of helm template output, the message names the chart template to fix, as the text output does.
  return `::${COMMANDS[finding.severity]} ${list}::${escapeData(`${finding.message}${fromTemplate(finding)}`)}`;
}

/** Escapes a command's message. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a command property's value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
