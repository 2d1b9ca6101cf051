/**
 * How the output formats read a placed finding (language/service run-findings.ts): the file it is shown on when
 * that is a path, its region in 1-based lines and columns, the object it is about, and how it counts for
 * `--fail-on`. One reading for text, JSON, SARIF, JUnit and the annotations, so they cannot disagree.
 */
import type { Finding } from '../../language/service';
import { describeFindingObject, STDIN_NAME } from '../../language/service';

/** A range of a file in 1-based lines and columns (UTF-16 code units); the end column is just past the end. */
export interface Region {
  readonly startLine: number;
  readonly startColumn: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** How a finding counts for `--fail-on` (the service's, so that the editor's plan counts it alike). */
export type { FailureClass } from '../../language/service';
export { failureClassOf } from '../../language/service';

/** The file a finding is shown on, as displayed; undefined for the cluster as a whole. */
export function fileOf(finding: Finding): string | undefined {
  const file = finding.place?.file;
  return file === undefined || file === '' ? undefined : file;
}

/** The file a finding is shown on when it is a path (standard input has none). */
export function pathOf(finding: Finding): string | undefined {
  const file = fileOf(finding);
  return file === STDIN_NAME ? undefined : file;
}

/** Where in its file a finding is, when its text was read. */
export function regionOf(finding: Finding): Region | undefined {
  const { place } = finding;
  if (place?.start === undefined) {
    return undefined;
  }
  const end = place.end ?? place.start;
  return {
    startLine: place.start.line + 1,
    startColumn: place.start.character + 1,
    endLine: end.line + 1,
    endColumn: end.character + 1,
  };
}

/** The Helm chart template the finding's document was rendered from (`# Source:` of helm template output). */
export function helmTemplateOf(finding: Finding): string | undefined {
  return finding.place?.origin?.helmTemplate;
}

/** What the text outputs add to a finding rendered from a chart template: " (from CHART/templates/FILE)". */
export function fromTemplate(finding: Finding): string {
  const template = helmTemplateOf(finding);
  return template === undefined ? '' : ` (from ${template})`;
}

/** The object it is about ("Deployment shop/web"), or its document ("document 2"); none off the files. */
export function subjectOf(finding: Finding): string | undefined {
  return finding.place === undefined ? undefined : describeFindingObject(finding.object);
}
