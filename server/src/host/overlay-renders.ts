/**
 * The editor's kustomize overlays (docs/predictions.md, "Kustomize overlays"): for an edited file that a
 * kustomization includes, the overlays that include it (files/kustomize/overlay-units.ts, kept to the
 * `kubeForesight.kustomize.overlays` setting) are rendered by the real kustomize and their findings placed on the
 * files the objects came from (overlay-findings.ts). Rendering runs a program on the user's files, so it is done
 * only in a trusted workspace (the language server asks only then), with no plugins, exec or remote bases (unless
 * `kubeForesight.kustomize.allowRemote`), a time limit, and kustomize's message kept. It never holds up a
 * keystroke: requests are debounced per file, renders run as awaited child processes one at a time, and the
 * result arrives in a later publish. A unit is rendered again only when a hash of its inputs changes: the
 * contents of its files (an open editor's unsaved text in place of the file's), the binary, the settings and the
 * cluster file. Unsaved text is rendered from a temporary copy of the unit's files (files/kustomize/unsaved-copy.ts)
 * so the overlay's findings match the lines in the editor; a unit with no unsaved file is rendered in place.
 */
import { createHash } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Settings } from '../../../protocol/settings';
import type {
  DiagnosticCode,
  LanguageService,
  OverlayDiagnostic,
  OverlayLens,
  PlacedOverlayDiagnostic,
} from '../language/service';
import { overlayUnitsIncluding } from '../files/kustomize/overlay-units';
import type { OverlayUnit } from '../files/kustomize/overlay-units';
import { findKustomize } from '../files/kustomize/render-kustomization';
import type { KustomizeCommand } from '../files/kustomize/render-kustomization';
import { chooseCluster, findClusterFile } from './cluster-file';
import type { GitopsScopes } from './gitops-scopes';
import { readAsUnit } from './gitops-scopes';
import type { GitopsUnit } from '../files/gitops/gitops-units';
import { clusterSetting, inputsKey, readTextOrUndefined } from './overlay-inputs';
import type { OverlayRequest } from './overlay-inputs';
import { UnitRenders } from './unit-renders';
import type { UnitRender } from './unit-renders';

/** How long the edited file must be quiet before its overlays are rendered. */
const RENDER_DELAY_MS = 300;
/** How long kustomize may run for the editor before it is stopped. */
export const EDITOR_RENDER_TIME_LIMIT_MS = 10_000;

/** How renders are run; the defaults are the real ones, tests shorten them. */
export interface OverlayRenderOptions {
  readonly delayMs?: number;
  readonly timeLimitMs?: number;
  /** The PATH kubectl and kustomize are looked for on. */
  readonly pathVariable?: string | undefined;
}

/** Why a unit was not rendered for a panel, and how to have it rendered. */
export interface NotRendered {
  readonly ok: false;
  readonly why: string;
  readonly how: string;
}

/** The last result of a unit, and the hash of the inputs it was made from. */
interface UnitResult {
  readonly key: string;
  readonly diagnostics: ReadonlyMap<string, OverlayDiagnostic[]>;
  /** Its workloads' lenses by source file (absolute path). */
  readonly lenses: ReadonlyMap<string, OverlayLens[]>;
  /** The unit's label when kustomize rendered it (not when it failed or was not run). */
  readonly renderedAs?: string;
}

/** Renders, caches and places the overlays of edited files. */
export class OverlayRenders {
  private readonly results = new Map<string, UnitResult>();
  /** Per edited file: the units found including it when it was last asked about, and its note, if any. */
  private readonly unitsOf = new Map<string, readonly string[]>();
  private readonly notes = new Map<string, OverlayDiagnostic>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private chain: Promise<unknown> = Promise.resolve();
  private generation = 0;
  /** The renders, shared with the panels that replay a kustomization (renderForPanel). */
  private readonly renders: UnitRenders;

  constructor(
    /** Called when a render changed what is shown: the open documents are published again. */
    private readonly onUpdated: () => void,
    /** Reports an unexpected error (logged, shown once) and kustomize's warnings. */
    private readonly log: { error(activity: string, error: unknown): void; warn(message: string): void },
    private readonly service: LanguageService,
    private readonly options: OverlayRenderOptions = {},
    /** The workspace's GitOps units: an overlay one renders is read in its namespace, on its cluster. */
    private readonly gitops?: GitopsScopes,
  ) {
    this.renders = new UnitRenders(service);
  }

  /** Asks for the overlays of an edited file, once it has been quiet for a moment. */
  request(request: OverlayRequest): void {
    const file = resolve(request.file);
    const pending = this.timers.get(file);
    if (pending !== undefined) {
      clearTimeout(pending);
    }
    const generation = this.generation;
    const timer = setTimeout(() => {
      this.timers.delete(file);
      this.enqueue(() =>
        generation === this.generation ? this.update({ ...request, file }) : Promise.resolve(),
      ).catch((error: unknown) => this.log.error(`rendering the kustomize overlays of ${file}`, error));
    }, this.options.delayMs ?? RENDER_DELAY_MS);
    this.timers.set(file, timer);
  }

  /**
   * The overlays' diagnostics on a file: the same finding of several overlays once, naming the overlays only when
   * not every rendered one gives it (mergeUnitDiagnostics).
   */
  diagnosticsFor(path: string): PlacedOverlayDiagnostic[] {
    const file = resolve(path);
    const note = this.notes.get(file);
    const entries = [...this.results.values()].flatMap((result) => result.diagnostics.get(file) ?? []);
    return [
      ...(note === undefined ? [] : [note]),
      ...this.service.mergeUnitDiagnostics(entries, this.renderedUnitsOf(file)),
    ];
  }

  /**
   * The lenses the renders including a file give its workloads, or undefined when no rendered kustomization
   * includes it (its folder's prediction gives its lenses then).
   */
  lensesFor(path: string): OverlayLens[] | undefined {
    const file = resolve(path);
    const rendered = (this.unitsOf.get(file) ?? []).filter(
      (folder) => this.results.get(folder)?.renderedAs !== undefined,
    );
    return rendered.length === 0
      ? undefined
      : rendered.flatMap((folder) => this.results.get(folder)?.lenses.get(file) ?? []);
  }

  /**
   * A unit's render for a panel that replays it (the timeline, Preview Apply): the editor's render when the
   * unit's files are unchanged since, else rendered after the renders already queued (one kustomize at a time).
   * Not rendered, with why, when no kustomize can be run or the unit names remote bases (unless allowed).
   */
  async renderForPanel(
    unit: OverlayUnit,
    settings: Settings,
    openTexts: ReadonlyMap<string, string>,
  ): Promise<UnitRender | NotRendered> {
    const chosen = settings.kustomize.path;
    const command = findKustomize(chosen, this.options.pathVariable ?? process.env['PATH']);
    if (chosen !== '' && !isExecutable(chosen)) {
      return {
        ok: false,
        why: `kubeForesight.kustomize.path names ${chosen}, which cannot be run`,
        how: 'Name kubectl or kustomize there, or leave the setting empty to use the one on PATH.',
      };
    }
    if (command === undefined) {
      return {
        ok: false,
        why: 'neither kubectl nor kustomize is on PATH to render it',
        how: 'Install kubectl (https://kubernetes.io/docs/tasks/tools/) or kustomize (https://kubectl.docs.kubernetes.io/installation/kustomize/), or name one in kubeForesight.kustomize.path.',
      };
    }
    if (unit.tree.remotes.length > 0 && !settings.kustomize.allowRemote) {
      return {
        ok: false,
        why: `it names remote bases (${unit.tree.remotes.join(', ')}) that rendering would fetch`,
        how: 'Set kubeForesight.kustomize.allowRemote to render it.',
      };
    }
    return this.enqueue(() =>
      this.renders.renderOf(
        unit,
        command,
        openTexts,
        this.options.timeLimitMs ?? EDITOR_RENDER_TIME_LIMIT_MS,
      ),
    );
  }

  /** Runs work after the renders asked for before it, one at a time. */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Whether rendered kustomizations include the file: it is then judged through their renders. */
  isJudgedThroughRenders(path: string): boolean {
    return this.renderedUnitsOf(resolve(path)).length > 0;
  }

  /** The labels of the units including the file that kustomize rendered. */
  private renderedUnitsOf(file: string): string[] {
    return (this.unitsOf.get(file) ?? []).flatMap((folder) => {
      const label = this.results.get(folder)?.renderedAs;
      return label === undefined ? [] : [label];
    });
  }

  /** Forgets every result and pending request (settings or trust changed). */
  clear(): void {
    this.generation++;
    this.dispose();
    this.results.clear();
    this.renders.clear();
    this.unitsOf.clear();
    this.notes.clear();
  }

  /** Cancels pending requests. */
  dispose(): void {
    for (const timer of this.timers.values()) {
      clearTimeout(timer);
    }
    this.timers.clear();
  }

  /** Finds the file's overlays and renders those whose inputs changed. */
  private async update(request: OverlayRequest): Promise<void> {
    const { file, settings } = request;
    const units = await overlayUnitsIncluding(
      file,
      request.roots,
      settings.kustomize.overlays,
      request.openTexts,
    );
    let changed = this.forgetUnitsNoLongerIncluding(file, units);
    this.unitsOf.set(
      file,
      units.map((unit) => unit.folder),
    );
    const command = this.commandFor(settings);
    const note =
      units.length === 0 || typeof command !== 'string'
        ? undefined
        : noteAt(this.service, 'kustomize-not-found', command);
    if (JSON.stringify(note) !== JSON.stringify(this.notes.get(file))) {
      changed = true;
    }
    if (note === undefined) {
      this.notes.delete(file);
    } else {
      this.notes.set(file, note);
    }
    if (typeof command === 'string') {
      units.forEach((unit) => this.results.delete(unit.folder));
      if (changed) {
        this.onUpdated();
      }
      return;
    }
    const open = [...request.openTexts].map(([path, text]) => ({ path, text }));
    for (const unit of units) {
      const generation = this.generation;
      const gitops = this.gitops?.unitRendering(unit.folder, open);
      const key = `${inputsKey(unit, command, request)}${gitopsKey(gitops, request)}`;
      if (this.results.get(unit.folder)?.key === key) {
        continue;
      }
      const { diagnostics, lenses, rendered } = await this.renderUnit(unit, command, request, gitops);
      if (generation !== this.generation) {
        return;
      }
      this.results.set(unit.folder, {
        key,
        diagnostics,
        lenses,
        ...(rendered ? { renderedAs: unit.label } : {}),
      });
      changed = true;
    }
    if (changed) {
      this.onUpdated();
    }
  }

  /** Drops the results of units that included the file before and do not now (a base removed from one). */
  private forgetUnitsNoLongerIncluding(file: string, units: readonly OverlayUnit[]): boolean {
    const now = new Set(units.map((unit) => unit.folder));
    const gone = (this.unitsOf.get(file) ?? []).filter((folder) => !now.has(folder));
    gone.forEach((folder) => this.results.delete(folder));
    return gone.length > 0;
  }

  /** The kustomize to run, or the note saying there is none (the message). */
  private commandFor(settings: Settings): KustomizeCommand | string {
    const chosen = settings.kustomize.path;
    if (chosen !== '' && !isExecutable(chosen)) {
      return `kubeForesight.kustomize.path names ${chosen}, which cannot be run, so the kustomize overlays that include this file are not rendered and it is checked as it is. Name kubectl (≥ 1.14 has \`kubectl kustomize\`) or kustomize, or leave the setting empty to use the one on PATH.`;
    }
    const command = findKustomize(chosen, this.options.pathVariable ?? process.env['PATH']);
    return (
      command ??
      'Kustomize overlays include this file, but neither kubectl nor kustomize is on PATH, so they are not rendered and this file is checked as it is. Install kubectl (≥ 1.14 has `kubectl kustomize`: https://kubernetes.io/docs/tasks/tools/) or kustomize (https://kubectl.docs.kubernetes.io/installation/kustomize/), or name one in kubeForesight.kustomize.path.'
    );
  }

  /** Renders one unit and places its findings (or its failure, or why it was not rendered). */
  private async renderUnit(
    unit: OverlayUnit,
    command: KustomizeCommand,
    request: OverlayRequest,
    gitops: GitopsUnit | undefined,
  ): Promise<{
    diagnostics: Map<string, OverlayDiagnostic[]>;
    lenses: Map<string, OverlayLens[]>;
    rendered: boolean;
  }> {
    const { settings, openTexts } = request;
    if (unit.tree.remotes.length > 0 && !settings.kustomize.allowRemote) {
      const message = `names remote bases (${unit.tree.remotes.join(', ')}): rendering would fetch them, so it is not rendered and its files are checked as they are. Set kubeForesight.kustomize.allowRemote to render it.`;
      return {
        diagnostics: new Map([
          [unit.kustomizationFile, [labelled(this.service, unit, 'kustomize-remote-refused', message)]],
        ]),
        lenses: new Map(),
        rendered: false,
      };
    }
    const result: UnitRender = await this.renders.renderOf(
      unit,
      command,
      openTexts,
      this.options.timeLimitMs ?? EDITOR_RENDER_TIME_LIMIT_MS,
    );
    if (!result.ok) {
      const message = `kustomize could not render it: ${result.message}`;
      return {
        diagnostics: new Map([
          [unit.kustomizationFile, [labelled(this.service, unit, 'kustomize-render-failed', message)]],
        ]),
        lenses: new Map(),
        rendered: false,
      };
    }
    if (result.warnings !== '') {
      this.log.warn(`Kube Foresight: kustomize, rendering ${unit.label}: ${result.warnings}`);
    }
    const { texts } = result;
    // A GitOps unit's cluster is the one nearest its definition, as for its predictions.
    const choice = chooseCluster(
      gitops === undefined ? unit.folder : dirname(gitops.definition.file),
      clusterSetting(settings.cluster, request.roots, unit),
    );
    const clusterPath = choice.reason === 'setting' || choice.reason === 'nearest' ? choice.path : undefined;
    const cluster = {
      path: clusterPath,
      choice,
      text:
        clusterPath === undefined
          ? ''
          : (openTexts.get(clusterPath) ?? readTextOrUndefined(clusterPath) ?? ''),
    };
    const { diagnostics, lenses } = this.service.overlayDiagnostics(
      unit.label,
      unit.folder,
      texts,
      settings,
      request.context,
      cluster,
      (path) => pathToFileURL(path).href,
      gitops === undefined ? undefined : readAsUnit(gitops),
    );
    return { diagnostics, lenses, rendered: true };
  }
}

/** What of a GitOps unit an overlay's findings depend on: its definition, namespace and cluster file. */
function gitopsKey(gitops: GitopsUnit | undefined, request: OverlayRequest): string {
  if (gitops === undefined) {
    return '';
  }
  const cluster = findClusterFile(dirname(gitops.definition.file), request.settings.cluster);
  const clusterText =
    cluster === undefined ? '' : (request.openTexts.get(cluster) ?? readTextOrUndefined(cluster) ?? '');
  const clusterHash = createHash('sha256').update(clusterText).digest('hex');
  return `|${JSON.stringify([gitops.kind, gitops.name, gitops.definition.file, gitops.namespace ?? null, cluster ?? null, clusterHash])}`;
}

/** A diagnostic of a unit at the start of its kustomization file. */
function labelled(
  service: LanguageService,
  unit: OverlayUnit,
  code: DiagnosticCode,
  message: string,
): OverlayDiagnostic {
  return {
    diagnostic: service.fileStartDiagnostic(code, service.overlayMessage([unit.label], message)),
    plainMessage: message,
    label: unit.label,
  };
}

/** A note at the start of the edited file. */
function noteAt(service: LanguageService, code: DiagnosticCode, message: string): OverlayDiagnostic {
  return {
    diagnostic: service.fileStartDiagnostic(code, message),
    plainMessage: message,
    label: '',
  };
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
