/**
 * The one place the language server runs kustomize on a unit (a kustomization no other includes): the editor's
 * overlay findings (overlay-renders.ts) and the panels that replay a kustomization folder (kustomization-input.ts)
 * ask it, so a folder the editor has rendered is not rendered again for the timeline or Preview Apply while its
 * files are unchanged. A render is kept with a hash of what it depends on: the kustomize command, the unit's files
 * (an open editor's unsaved text in place of the file's). Unsaved text is rendered from a temporary copy of the
 * unit's files (files/kustomize/unsaved-copy.ts) so the objects' lines are those in the editor.
 */
import { createHash } from 'node:crypto';
import type { LanguageService, RenderedText } from '../language/service';
import type { OverlayUnit } from '../files/kustomize/overlay-units';
import { renderKustomizationAsync } from '../files/kustomize/render-kustomization';
import type { KustomizeCommand, RenderResult } from '../files/kustomize/render-kustomization';
import { patchFieldsOf } from '../files/kustomize/patch-fields';
import { renderFromCopy } from '../files/kustomize/unsaved-copy';
import { readTextOrUndefined } from './overlay-inputs';

/** A unit's render: its objects as texts placed on their source files, or kustomize's message. */
export type UnitRender =
  | { readonly ok: true; readonly texts: readonly RenderedText[]; readonly warnings: string }
  | { readonly ok: false; readonly message: string };

/** The last render of each unit, by folder, with the hash of its inputs. */
export class UnitRenders {
  private readonly renders = new Map<string, { readonly key: string; readonly render: UnitRender }>();

  constructor(private readonly service: Pick<LanguageService, 'renderedTexts'>) {}

  /**
   * The unit's render: the last one when its inputs are unchanged, else kustomize is run (in place, or from a
   * copy when one of its files has unsaved text in `openTexts`, by absolute path).
   */
  async renderOf(
    unit: OverlayUnit,
    command: KustomizeCommand,
    openTexts: ReadonlyMap<string, string>,
    timeLimitMs: number,
  ): Promise<UnitRender> {
    const key = renderKey(unit, command, openTexts);
    const last = this.renders.get(unit.folder);
    if (last?.key === key) {
      return last.render;
    }
    const run = (folder: string): Promise<RenderResult> =>
      renderKustomizationAsync(command, folder, timeLimitMs);
    const unsaved = [...unit.tree.files].some((file) => {
      const text = openTexts.get(file);
      return text !== undefined && text !== readTextOrUndefined(file);
    });
    const result = unsaved
      ? await renderFromCopy(unit.tree.files, unit.folder, openTexts, run)
      : await run(unit.folder);
    const readSource = (file: string): string | undefined => openTexts.get(file) ?? readTextOrUndefined(file);
    const render: UnitRender = result.ok
      ? {
          ok: true,
          texts: this.service.renderedTexts(
            result.objects,
            unit.kustomizationFile,
            readSource,
            patchFieldsOf(unit.tree.files, readSource),
          ),
          warnings: result.warnings,
        }
      : result;
    this.renders.set(unit.folder, { key, render });
    return render;
  }

  /** Forgets every render (settings or trust changed). */
  clear(): void {
    this.renders.clear();
  }
}

/** The hash of what a unit's render depends on: the command, and the text of each of its files. */
function renderKey(
  unit: OverlayUnit,
  command: KustomizeCommand,
  openTexts: ReadonlyMap<string, string>,
): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify([command, unit.folder]));
  for (const file of [...unit.tree.files].sort()) {
    hash.update(`\0${file}\0`);
    hash.update(openTexts.get(file) ?? readTextOrUndefined(file) ?? '\0missing');
  }
  return hash.digest('hex');
}
