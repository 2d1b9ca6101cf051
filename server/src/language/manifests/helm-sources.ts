/**
 * The chart template each document of `helm template` output came from. Helm writes every rendered document as
 * `---`, then `# Source: CHART/templates/FILE`, then the manifest (pkg/action/action.go, renderResources: the
 * manifest's Name is the template's path inside the chart; subcharts read `CHART/charts/SUB/templates/FILE`).
 * A finding placed on a line of such a document is named after that template (`place.origin.helmTemplate`), so
 * the user learns which template to fix, not only the line of a generated file; the same holds for a render
 * committed to the repository with its comments.
 */
import type { Finding } from '../../../../protocol/finding';
import type { TextFinding } from '../findings';
import type { LineIndex } from '../text/line-index';

/**
 * Where each document of a text starts (0-based line), the template its `# Source:` comment names, and that
 * comment's line.
 */
interface DocumentSource {
  readonly fromLine: number;
  readonly template: string | undefined;
  readonly commentLine?: number;
}

/** A `# Source:` comment of helm's output; the path is the rest of the line. */
const SOURCE_COMMENT = /^# Source: (\S.*?)\s*$/;

/** A document separator line (`---`, maybe followed by a comment). */
const SEPARATOR = /^---(?:\s|$)/;

/** The documents of a text with the template each came from; empty when it holds no `# Source:` comment. */
export function helmSourcesOf(text: string): readonly DocumentSource[] {
  if (!text.includes('# Source: ')) {
    return [];
  }
  const documents: { fromLine: number; template: string | undefined; commentLine?: number }[] = [
    { fromLine: 0, template: undefined },
  ];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (SEPARATOR.test(line)) {
      documents.push({ fromLine: index, template: undefined });
      return;
    }
    const current = documents[documents.length - 1];
    const match = SOURCE_COMMENT.exec(line);
    if (match !== null && current !== undefined && current.template === undefined) {
      current.template = match[1];
      current.commentLine = index;
    }
  });
  return documents;
}

/** The template of the document holding a 0-based line, or undefined. */
export function helmTemplateAt(sources: readonly DocumentSource[], line: number): string | undefined {
  return sourceAt(sources, line)?.template;
}

/** The document holding a 0-based line. */
function sourceAt(sources: readonly DocumentSource[], line: number): DocumentSource | undefined {
  let found: DocumentSource | undefined;
  for (const source of sources) {
    if (source.fromLine > line) {
      break;
    }
    found = source;
  }
  return found;
}

/**
 * The editor's findings of a helm-rendered text (an open file of `helm template` output), each in a document with
 * a `# Source:` comment related to that comment, "rendered by helm template from CHART/templates/FILE": the
 * diagnostic names the template to fix, as the command line's outputs do.
 */
export function relateHelmSourceComments(
  findings: readonly TextFinding[],
  text: string,
  lines: LineIndex,
): TextFinding[] {
  const sources = helmSourcesOf(text);
  if (sources.length === 0) {
    return [...findings];
  }
  return findings.map((finding) => {
    const source = sourceAt(sources, lines.positionAt(finding.start).line);
    if (source?.template === undefined || source.commentLine === undefined) {
      return finding;
    }
    const start = lines.offsetAt({ line: source.commentLine, character: 0 });
    const end = start + `# Source: ${source.template}`.length;
    const related = { start, end, message: `rendered by helm template from ${source.template}` };
    return { ...finding, related: [...(finding.related ?? []), related] };
  });
}

/**
 * The findings with `place.origin.helmTemplate` set where their place is a line of a helm-rendered document of
 * one of the files (by id, as placed findings name them).
 */
export function nameHelmTemplates(
  findings: readonly Finding[],
  files: readonly { readonly id: string; readonly text: string }[],
): Finding[] {
  const sourcesByFile = new Map<string, readonly DocumentSource[]>();
  for (const file of files) {
    const sources = helmSourcesOf(file.text);
    if (sources.length > 0) {
      sourcesByFile.set(file.id, sources);
    }
  }
  if (sourcesByFile.size === 0) {
    return [...findings];
  }
  return findings.map((finding) => {
    const place = finding.place;
    const sources = place === undefined ? undefined : sourcesByFile.get(place.file);
    const template =
      place?.start === undefined || sources === undefined
        ? undefined
        : helmTemplateAt(sources, place.start.line);
    return place === undefined || template === undefined
      ? finding
      : { ...finding, place: { ...place, origin: { ...place.origin, helmTemplate: template } } };
  });
}
