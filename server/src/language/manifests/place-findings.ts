/**
 * Places the reader's findings (an object's source and a field path) on the text of their files, as offsets, for
 * the places that print findings by line and column (`foresight validate`) rather than through predictions.
 */
import type { Node } from 'yaml';
import type { TextFinding } from '../findings';
import { shiftFinding, textFinding } from '../findings';
import { rangeForValue } from '../yaml/node-at-path';
import type { FileAnalysis } from '../analyzer';
import type { Finding } from '../../../../protocol/finding';

/** Where a reader finding's document is: its offset in the file, its start, and the range at a path in it. */
export interface DocumentLocator {
  readonly offset: number;
  /** The document's start (document-relative), where a finding goes when its path is not in the document. */
  readonly start: number;
  readonly rangeAt: (path: readonly (string | number)[]) => readonly [number, number] | undefined;
}

/**
 * The findings by file id, in offsets of each file's text, each document found by `locate` (undefined: the
 * finding's file or document is not among those placed, and it is left out). One placement for the analyses at
 * hand and for `foresight validate`'s threads, which keep only the ranges (cli/parallel/placements.ts).
 */
export function placeReaderFindingsWith(
  findings: readonly Finding[],
  locate: (file: string, documentIndex: number) => DocumentLocator | undefined,
): Map<string, TextFinding[]> {
  const byFile = new Map<string, TextFinding[]>();
  for (const finding of findings) {
    const { object } = finding;
    const document = object === undefined ? undefined : locate(object.file, object.documentIndex);
    if (object === undefined || document === undefined) {
      continue;
    }
    const range = document.rangeAt([...object.path, ...(finding.path ?? [])]) ?? [
      document.start,
      document.start + 1,
    ];
    const placed = shiftFinding(
      textFinding(finding.code, finding.message, range[0], range[1]),
      document.offset,
    );
    const list = byFile.get(object.file) ?? [];
    list.push(placed);
    byFile.set(object.file, list);
  }
  return byFile;
}

/** The findings by file id, in offsets of each file's text. */
export function placeReaderFindings(
  findings: readonly Finding[],
  files: readonly { readonly id: string; readonly analysis: FileAnalysis }[],
): Map<string, TextFinding[]> {
  const analyses = new Map(files.map((file) => [file.id, file.analysis]));
  return placeReaderFindingsWith(findings, (file, documentIndex) => {
    const document = analyses.get(file)?.documents[documentIndex];
    if (document === undefined) {
      return undefined;
    }
    const root = (document.yaml.document?.contents ?? undefined) as Node | undefined;
    return {
      offset: document.offset,
      start: document.yaml.start,
      rangeAt: (path) => rangeForValue(root, path),
    };
  });
}
