/**
 * Findings that need several objects at once (a Service's targetPort and the containers it selects), computed
 * over every analysed file and handed back per file, in that file's offsets.
 */
import type { FileAnalysis } from './analyzer';
import type { AnalysisOutline } from './manifests/analysis-outline';
import type { TextFinding } from './findings';
import { shiftFinding, sortAndMergeFindings } from './findings';
import type { ManifestObject } from './kubernetes/manifest-object';
import { checkServiceTargetPorts } from './rules';
import { appendAll } from '../../../protocol/collections';

/** One analysed file, named by an id (a URI or a path). */
interface AnalyzedFile {
  readonly id: string;
  readonly analysis: FileAnalysis;
}

/** Cross-object findings by file id (files with none are absent). */
export function crossObjectFindings(files: readonly AnalyzedFile[]): Map<string, TextFinding[]> {
  const owners = new Map<ManifestObject, { id: string; offset: number }>();
  const objects: ManifestObject[] = [];
  for (const file of files) {
    for (const document of file.analysis.documents) {
      for (const object of document.objects) {
        owners.set(object, { id: file.id, offset: document.offset });
        objects.push(object);
      }
    }
  }
  const byFile = new Map<string, TextFinding[]>();
  for (const [object, findings] of checkServiceTargetPorts(objects)) {
    const owner = owners.get(object);
    if (owner === undefined) {
      continue;
    }
    const list = byFile.get(owner.id) ?? [];
    appendAll(
      list,
      findings.map((finding) => shiftFinding(finding, owner.offset)),
    );
    byFile.set(owner.id, list);
  }
  return byFile;
}

/** A file's own findings merged with its cross-object findings, sorted. */
export function allFindingsOf(
  analysis: AnalysisOutline,
  cross: readonly TextFinding[] | undefined,
): TextFinding[] {
  return cross === undefined || cross.length === 0
    ? [...analysis.findings]
    : sortAndMergeFindings([...analysis.findings, ...cross]);
}
