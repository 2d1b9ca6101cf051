/**
 * How a finding names the place of an object in another file ("web/deploy.yaml:12"): the file as its reader
 * displays it, and the 1-based line where the object starts when the file's text is at hand (else its document).
 */
import type { ManifestObject } from '../kubernetes/manifest-object';
import { objectRangeOf } from '../kubernetes/manifest-object';
import type { AnalysisOutline } from './analysis-outline';

/** A file as far as naming a place in it needs. */
interface PlacedFile {
  readonly id: string;
  readonly analysis: AnalysisOutline;
  /** The file's text, when known (its line numbers come from it). */
  readonly text?: string;
}

/** A namer of places for the reader's `describePlace`; `display` turns a file id into the name shown. */
export function describePlaceIn(
  files: readonly PlacedFile[],
  display: (fileId: string) => string = (fileId) => fileId,
): (fileId: string, documentIndex: number, object: ManifestObject) => string {
  const byId = new Map(files.map((file) => [file.id, file]));
  // Each file's line breaks, found once: a folder of copied files names a place for each of thousands of objects.
  const breaks = new Map<string, number[]>();
  return (fileId, documentIndex, object) => {
    const file = byId.get(fileId);
    const document = file?.analysis.documents[documentIndex];
    if (file?.text === undefined || document === undefined) {
      return `${display(fileId)} (document ${documentIndex + 1})`;
    }
    const offset = document.offset + (objectRangeOf(object)?.[0] ?? document.yaml.start);
    let lineBreaks = breaks.get(fileId);
    if (lineBreaks === undefined) {
      lineBreaks = lineBreaksOf(file.text);
      breaks.set(fileId, lineBreaks);
    }
    return `${display(fileId)}:${lineAt(lineBreaks, offset)}`;
  };
}

/** The offsets of a text's "\n" characters, in order. */
function lineBreaksOf(text: string): number[] {
  const offsets: number[] = [];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    offsets.push(index);
  }
  return offsets;
}

/** The 1-based line of an offset: one more than the line breaks before it. */
function lineAt(lineBreaks: readonly number[], offset: number): number {
  let low = 0;
  let high = lineBreaks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((lineBreaks[middle] ?? 0) < offset) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low + 1;
}
