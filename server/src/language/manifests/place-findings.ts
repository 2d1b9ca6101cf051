/**
 * Places the reader's findings (an object's source and a field path) on the text of their files, as offsets, for
 * the places that print findings by line and column (`foresight validate`) rather than through predictions.
 */
import type { Node } from 'yaml';
import type { Finding } from '../findings';
import { shiftFinding } from '../findings';
import { rangeForValue } from '../yaml/node-at-path';
import type { FileAnalysis } from '../analyzer';
import type { ReaderFinding } from './read-manifests';

/** The findings by file id, in offsets of each file's text. */
export function placeReaderFindings(
  findings: readonly ReaderFinding[],
  files: readonly { readonly id: string; readonly analysis: FileAnalysis }[],
): Map<string, Finding[]> {
  const analyses = new Map(files.map((file) => [file.id, file.analysis]));
  const byFile = new Map<string, Finding[]>();
  for (const finding of findings) {
    const document = analyses.get(finding.source.file)?.documents[finding.source.documentIndex];
    if (document === undefined) {
      continue;
    }
    const root = (document.yaml.document?.contents ?? undefined) as Node | undefined;
    const range = rangeForValue(root, [...finding.source.path, ...finding.path]) ?? [
      document.yaml.start,
      document.yaml.start + 1,
    ];
    const placed = shiftFinding(
      { code: finding.code, message: finding.message, start: range[0], end: range[1] },
      document.offset,
    );
    const list = byFile.get(finding.source.file) ?? [];
    list.push(placed);
    byFile.set(finding.source.file, list);
  }
  return byFile;
}
