/**
 * A folder that holds a kustomization, as the panels that replay a folder (the timeline, Preview Apply) read it:
 * `kubectl apply -k DIR` applies its render, never its files as written, so a kustomization no other includes
 * (a unit, files/kustomize/overlay-units.ts) is read as its render, as `foresight simulate DIR` reads it
 * (files/kustomize/kustomization-units.ts): the rendered objects, each under the file it came from with that
 * file's lines (the render's mapped line index). It is rendered by the editor's one render path
 * (overlay-renders.ts renderForPanel: the editor's last render while the files are unchanged). A kustomization
 * that others include (a base) is read as written, and the overlays that include it are named, for the panel
 * to point at their timelines. A unit that cannot be rendered (no kustomize, a remote base, kustomize's error,
 * an untrusted workspace) is a message: never its files read raw, never an empty timeline.
 */
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Settings } from '../../../protocol/settings';
import type { PanelOverlay } from '../../../protocol/webview-messages';
import type { InputFile, LanguageService, LineIndex } from '../language/service';
import { overlayUnitsIncluding } from '../files/kustomize/overlay-units';
import type { OverlayUnit } from '../files/kustomize/overlay-units';
import { kustomizationFileIn } from '../files/kustomize/kustomization-tree';
import type { UnitRender } from './unit-renders';
import type { NotRendered } from './overlay-renders';
import type { readAsUnit } from './gitops-scopes';

/** The editor's renders, as the panels use them (overlay-renders.ts); absent in an untrusted workspace. */
export interface PanelRenders {
  renderForPanel(
    unit: OverlayUnit,
    settings: Settings,
    openTexts: ReadonlyMap<string, string>,
  ): Promise<UnitRender | NotRendered>;
}

/** What a folder is to kustomize, and what the panels read of it. */
export type KustomizationRead =
  /** No kustomization in the folder, or one no unit includes (a Component alone): read as written. */
  | { readonly kind: 'plain' }
  /** A base: read as written; the overlays that include it are named. */
  | { readonly kind: 'base'; readonly overlays: readonly PanelOverlay[] }
  /** A unit, rendered: its files (ids are the source files' URIs), with the render's lines. */
  | {
      readonly kind: 'rendered';
      readonly label: string;
      readonly files: readonly InputFile[];
      readonly lines: ReadonlyMap<string, LineIndex>;
    }
  /** A unit that was not rendered, and why. */
  | { readonly kind: 'failed'; readonly message: string };

/** What reading a kustomization folder needs. */
export interface KustomizationReadContext {
  readonly service: LanguageService;
  readonly settings: Settings;
  /** The open documents' texts by absolute path. */
  readonly openTexts: ReadonlyMap<string, string>;
  readonly roots: readonly string[];
  /** The editor's renders; undefined in an untrusted workspace (kustomize is not run there). */
  readonly renders: PanelRenders | undefined;
  /** How a GitOps unit that renders the kustomization applies it (its namespace, its controller). */
  readonly readAs: ReturnType<typeof readAsUnit> | Record<string, never>;
}

/** Reads a folder as kustomize makes it: plain, a base, or a unit's render (or why it was not rendered). */
export async function readKustomizationFolder(
  folder: string,
  context: KustomizationReadContext,
): Promise<KustomizationRead> {
  const kustomization = kustomizationFileIn(folder);
  if (kustomization === undefined) {
    return { kind: 'plain' };
  }
  const units = await overlayUnitsIncluding(kustomization, context.roots, 'all', context.openTexts);
  const own = units.find((unit) => unit.folder === folder);
  if (own === undefined) {
    return units.length === 0
      ? { kind: 'plain' }
      : {
          kind: 'base',
          overlays: units.map((unit) => ({ uri: pathToFileURL(unit.folder).href, label: unit.label })),
        };
  }
  const name = basename(folder);
  const notChecked = (why: string, how: string): KustomizationRead => ({
    kind: 'failed',
    message: `${name} is a kustomization: kubectl apply -k applies its render, not its files as written, and ${why}, so it is not replayed. ${how}`,
  });
  if (context.renders === undefined) {
    return notChecked(
      'kustomize is run only in a trusted workspace',
      'Trust the workspace to replay its render.',
    );
  }
  const render = await context.renders.renderForPanel(own, context.settings, context.openTexts);
  if (!render.ok) {
    return 'why' in render
      ? notChecked(render.why, render.how)
      : notChecked(
          `kustomize could not render it: ${render.message}`,
          `Fix what kustomize says (kubectl kustomize ${name} shows it) to replay it.`,
        );
  }
  const { service, settings } = context;
  const files = service.analyzeInputs(
    render.texts.map((rendered) => ({
      id: pathToFileURL(rendered.file).href,
      text: rendered.text,
      lines: rendered.lines,
      applyUnit: own.label,
      applyOrder: rendered.applyOrder,
      ...context.readAs,
    })),
    { kubernetesVersion: settings.kubernetesVersion, maxFileLength: settings.maxFileSizeKB * 1024 },
  );
  return {
    kind: 'rendered',
    label: own.label,
    files,
    lines: new Map(files.map((file) => [file.id, file.lines])),
  };
}
