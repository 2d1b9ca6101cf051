/**
 * Which patch set a rendered field: the rendered field's path (with list items' names) matched against the
 * fields the unit's patches set (patch-fields.ts), weighed against how much of the path the base itself has.
 * Kustomize applies patches after the resources are read, so a patch that writes a field has the last word.
 */
import type { PatchField, PatchPathStep } from './render-types';

/** One step of a rendered field's path: a key, or a list position with the item's name when it has one. */
export type RenderedPathStep = string | { readonly index: number; readonly name: string | undefined };

/**
 * The patch field that set a rendered field, if a patch did: among the patches of the object (kind, name with a
 * prefix or suffix allowed), the one whose field is the deepest on the field's path, the later on a tie (applied
 * later). It wins over the base when it goes deeper than the base's document does (`baseDepth` steps of the
 * path exist there), or as deep when it sets a value there (a scalar), since the patch is applied after.
 */
export function patchFieldFor(
  fields: readonly PatchField[],
  kind: string | undefined,
  name: string,
  path: readonly RenderedPathStep[],
  baseDepth: number,
): PatchField | undefined {
  let best: PatchField | undefined;
  for (const field of fields) {
    if (field.kind !== undefined && field.kind !== kind) {
      continue;
    }
    if (
      field.name !== undefined &&
      field.name !== name &&
      !(field.name !== '' && name.includes(field.name))
    ) {
      continue;
    }
    if (
      field.path.length > path.length ||
      !field.path.every((step, index) => stepMatches(step, path[index]))
    ) {
      continue;
    }
    if (best === undefined || field.path.length >= best.path.length) {
      best = field;
    }
  }
  if (best === undefined) {
    return undefined;
  }
  return best.path.length > baseDepth || (best.path.length === baseDepth && best.isLeaf) ? best : undefined;
}

function stepMatches(step: PatchPathStep, rendered: RenderedPathStep | undefined): boolean {
  if (rendered === undefined) {
    return false;
  }
  if (typeof step === 'string') {
    return rendered === step;
  }
  if (typeof rendered === 'string') {
    return false;
  }
  return typeof step === 'number' ? rendered.index === step : rendered.name === step.name;
}
