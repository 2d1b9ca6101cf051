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
  return (fileId, documentIndex, object) => {
    const file = byId.get(fileId);
    const document = file?.analysis.documents[documentIndex];
    if (file?.text === undefined || document === undefined) {
      return `${display(fileId)} (document ${documentIndex + 1})`;
    }
    const offset = document.offset + (objectRangeOf(object)?.[0] ?? document.yaml.start);
    return `${display(fileId)}:${lineAt(file.text, offset)}`;
  };
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (
    let index = text.indexOf('\n');
    index !== -1 && index < offset;
    index = text.indexOf('\n', index + 1)
  ) {
    line++;
  }
  return line;
}
