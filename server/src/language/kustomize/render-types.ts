/**
 * The shapes a kustomize render is described by, shared by the code that runs kustomize (files/kustomize/) and
 * the pure code that maps a render's text back to its sources (mapped-line-index.ts, rendered-texts.ts).
 */

/** One step of a field's path: a key, a list position, or a list item by its name. */
export type PatchPathStep = string | number | { readonly name: string };

/** A zero-based line and character (UTF-16 code units). */
export interface Position {
  readonly line: number;
  readonly character: number;
}

/** A field a patch sets and where it is written. */
export interface PatchField {
  /** The kind and name of the objects it patches (name undefined: every object of the kind). */
  readonly kind: string | undefined;
  readonly name: string | undefined;
  readonly path: readonly PatchPathStep[];
  /** Whether the patch sets a value here (a scalar), not only a map or list it goes into. */
  readonly isLeaf: boolean;
  /** The patch file (or the kustomization holding an inline patch), absolute, and the field's range there. */
  readonly file: string;
  readonly start: Position;
  readonly end: Position;
}

/** One rendered object: its text (origin annotation removed) and the file it came from (absolute). */
export interface RenderedObject {
  readonly text: string;
  /** The source file, or the kustomization.yaml whose generator made the object. */
  readonly source: string;
  /** Whether the source is the file that defines the object (`path:`), not a generator's kustomization. */
  readonly isDefinedInSource: boolean;
}
