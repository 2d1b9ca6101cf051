/**
 * Finds, in an existing analysis, the document and the Kubernetes object under an offset, without parsing
 * anything again: hover and completion run on every mouse move and keystroke, on files of a thousand objects.
 */
import type { Node } from 'yaml';
import type { Range } from 'vscode-languageserver-protocol';
import type { AnalyzedDocument, FileAnalysis } from '../analyzer';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { LineIndex } from '../text/line-index';
import type { InstancePath } from '../yaml/node-at-path';

/** The analysed document that contains an offset: the last one that starts at or before it. */
export function documentAt(analysis: FileAnalysis, offset: number): AnalyzedDocument | undefined {
  const documents = analysis.documents;
  let low = 0;
  let high = documents.length - 1;
  let found: AnalyzedDocument | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const document = documents[middle];
    if (document === undefined) {
      break;
    }
    if (document.offset + document.yaml.start <= offset) {
      found = document;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found ?? documents[0];
}

/** The root node of a document, if it was parsed. */
export function rootNode(document: AnalyzedDocument): Node | undefined {
  return document.yaml.document?.contents ?? undefined;
}

/** An object and a path relative to it. */
interface ObjectAtPath {
  readonly object: ManifestObject;
  /** The path inside the object. */
  readonly path: InstancePath;
}

/** The innermost object of a document whose path is a prefix of a path (a List item before the List). */
export function objectAtPath(document: AnalyzedDocument, path: InstancePath): ObjectAtPath | undefined {
  let best: ManifestObject | undefined;
  for (const object of document.objects) {
    if (isPrefix(object.path, path) && (best === undefined || object.path.length > best.path.length)) {
      best = object;
    }
  }
  return best === undefined ? undefined : { object: best, path: path.slice(best.path.length) };
}

function isPrefix(prefix: InstancePath, path: InstancePath): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => segment === path[index]);
}

/** An LSP range from file offsets. */
export function toRange(lines: LineIndex, start: number, end: number): Range {
  return { start: lines.positionAt(start), end: lines.positionAt(end) };
}

/** The line index of a text, or the one given. */
export function lineIndexOf(textOrLines: string | LineIndex): LineIndex {
  return typeof textOrLines === 'string' ? new LineIndex(textOrLines) : textOrLines;
}
