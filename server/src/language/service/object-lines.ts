/**
 * The line an object of the input starts on, from the analysis of its file: the document's offset in the file
 * plus the object's node (an item of a List has its own), as the editor places an object.
 */
import type { ObjectSource } from '../../engine/model/source';
import type { InputFile } from './input-files';

/** The 1-based line where the object `source` points at starts, or null when its file is not among `files`. */
export function objectLine(files: readonly InputFile[], source: ObjectSource): number | null {
  const file = files.find((candidate) => candidate.id === source.file);
  const document = file?.analysis.documents.find((candidate) => candidate.index === source.documentIndex);
  if (file === undefined || document === undefined) {
    return null;
  }
  const object =
    document.objects.find((candidate) => samePath(candidate.path, source.path)) ?? document.objects[0];
  const start = object?.node?.range?.[0] ?? object?.range?.[0] ?? 0;
  return file.lines.positionAt(document.offset + start).line + 1;
}

function samePath(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && a.every((part, index) => part === b[index]);
}
