/**
 * A render's objects as texts read in place of the unit's files: grouped by the file each came from, in order of
 * first appearance, each group joined with "---" and given a line index whose positions are the source file's
 * (mapped-line-index.ts). Shared by `foresight validate -k`-style reads (cli/kustomize/read-kustomizations.ts) and
 * the editor's overlay predictions (host/overlay-renders.ts).
 */
import { MappedLineIndex } from './mapped-line-index';
import type { RenderedSegment } from './mapped-line-index';
import type { RenderedObject, PatchField } from './render-types';

/** A text read in place of a unit's files: the rendered objects of one source file. */
export interface RenderedText {
  /** The source file, absolute. */
  readonly file: string;
  readonly text: string;
  readonly lines: MappedLineIndex;
  /** The kustomization file of the unit whose render this is: each unit is an apply of its own. */
  readonly unit: string;
}

/**
 * The rendered objects grouped by source file, each with its mapped lines. An object without an origin is put on
 * the unit's kustomization file; `readSource` gives a source file's text (an editor's unsaved text counts);
 * `patches`, the fields the unit's patches set, let a finding on such a field be shown on its patch.
 */
export function renderedTextsOf(
  objects: readonly RenderedObject[],
  kustomization: string,
  readSource: (file: string) => string | undefined,
  patches: readonly PatchField[] = [],
): RenderedText[] {
  const groups = new Map<string, RenderedObject[]>();
  for (const object of objects) {
    const source = object.source === '' ? kustomization : object.source;
    groups.set(source, [...(groups.get(source) ?? []), object]);
  }
  return [...groups].map(([file, group]) => {
    const sourceText = readSource(file);
    const segments: RenderedSegment[] = group.map((object) => ({
      text: object.text,
      sourceText: object.isDefinedInSource ? sourceText : undefined,
      generatorText: object.isDefinedInSource ? undefined : sourceText,
    }));
    const text = segments.map((segment) => segment.text).join('---\n');
    return { file, text, lines: new MappedLineIndex(text, segments, patches), unit: kustomization };
  });
}
