/**
 * A render's objects as texts read in place of the unit's files: grouped by the file each came from, in order of
 * first appearance, each group joined with "---" and given a line index whose positions are the source file's
 * (mapped-line-index.ts), and each object's place in the render: the order it is applied in. Shared by the CLI's
 * kustomizations (files/kustomize/kustomization-units.ts) and the editor's renders (host/unit-renders.ts).
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
  /**
   * Each document's place in kustomize's output, which is the order `kubectl apply -k` applies the objects in
   * (read-manifests.ts ManifestFile.applyOrder): the texts group that output by source file.
   */
  readonly applyOrder: readonly number[];
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
  const groups = new Map<string, { object: RenderedObject; index: number }[]>();
  objects.forEach((object, index) => {
    const source = object.source === '' ? kustomization : object.source;
    const group = groups.get(source);
    if (group === undefined) {
      groups.set(source, [{ object, index }]);
    } else {
      group.push({ object, index });
    }
  });
  return [...groups].map(([file, group]) => {
    const sourceText = readSource(file);
    const segments: RenderedSegment[] = group.map(({ object }) => ({
      text: object.text,
      sourceText: object.isDefinedInSource ? sourceText : undefined,
      generatorText: object.isDefinedInSource ? undefined : sourceText,
    }));
    const text = segments.map((segment) => segment.text).join('---\n');
    return {
      file,
      text,
      lines: new MappedLineIndex(text, segments, patches),
      unit: kustomization,
      applyOrder: group.map(({ index }) => index),
    };
  });
}
