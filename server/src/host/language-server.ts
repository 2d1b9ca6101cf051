/**
 * The language server's behaviour behind each LSP handler: validate on change (debounced), publish diagnostics,
 * answer code actions. Unexpected errors are caught here, at the boundary, logged with their stack, shown to
 * the user once, and leave no stale diagnostics.
 */
import type {
  CodeAction,
  CodeActionParams,
  CompletionItem,
  CompletionParams,
  Connection,
  Diagnostic,
  DocumentSymbol,
  DocumentSymbolParams,
  CodeLens,
  CodeLensParams,
  Hover,
  TextDocumentPositionParams,
  TextDocuments,
} from 'vscode-languageserver';
import { CodeLensRefreshRequest } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { StatusParams } from '../../../protocol/messages';
import { STATUS_NOTIFICATION } from '../../../protocol/messages';
import type {
  AnalysisContext,
  CrdKindValidator,
  DocumentState,
  FileAnalysis,
  KustomizeRole,
  LanguageService,
  OverlayLens,
  TextFinding,
} from '../language/service';
import type { Settings } from '../../../protocol/settings';
import { DocumentAnalyses } from './document-analyses';
import { SettingsCache } from './settings-cache';
import { withClusterVersion } from './cluster-version';
import { ValidationQueue } from './validation-queue';
import { PredictionsHost } from './predictions-host';
import { GitopsScopes } from './gitops-scopes';
import { SimulationWorker } from './simulation-worker';
import { CodeLensRefresh } from './code-lens-refresh';
import { releaseAfterClose } from './memory-release';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KustomizeRoles } from '../files/kustomize-roles';
import { createDiskLanguageService } from '../files/schema-files';
import { chartFolderOf } from '../files/manifest-files';
import { OverlayRenders } from './overlay-renders';
import type { PanelRenders } from './kustomization-input';
import { appendAll } from '../../../protocol/collections';

/** Debounce between the last keystroke of a burst and validation (validation-queue.ts: none after a pause). */
const VALIDATION_DELAY_MS = 50;

/**
 * The quiet before an edit after which it is validated at once (validation-queue.ts). Longer than the gap between
 * two keystrokes of a person typing at 80 words a minute (about 150 ms), so that typing starts no more runs than
 * the debounce alone did (a run abandoned by the next keystroke is work thrown away); one edit after a pause, the
 * fix of a value, gets its diagnostics and predictions without the debounce.
 */
const TYPING_PAUSE_MS = 200;

/**
 * From this many objects to simulate, a document's validation diagnostics are published before its
 * predictions (the engine takes about 100 ms from here, hundreds at 1,000 objects); below, both go out together,
 * which spares the editor a second update and keeps a 100-resource folder's predictions within about 50 ms of
 * the debounce.
 */
export const VALIDATION_FIRST_MIN_OBJECTS = 300;

/** An analysed document version with the settings and context it was analysed with. */
interface AnalyzedVersion {
  readonly state: DocumentState;
  readonly settings: Settings;
  readonly context: AnalysisContext;
}

/**
 * The pause before the first large prediction of a document just opened. An open is often followed at once by
 * an edit (a formatter or an extension on open, a restored session, a script driving the editor): the pause lets
 * that edit's validation supersede the open's simulation before it starts, instead of the worker running it
 * until its first check for nothing. After an edit there is no pause: an edit in a burst already waited for the
 * typing to pause, and the run of one after a pause is abandoned between two tasks if another edit comes.
 */
const OPEN_PREDICTION_DELAY_MS = 100;

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** Validation and its state for one connection. */
export class LanguageServer {
  readonly settings: SettingsCache;
  readonly analyses: DocumentAnalyses;
  private readonly queue: ValidationQueue;
  private hasShownError = false;
  /** Documents just opened whose first large prediction has not started (it waits OPEN_PREDICTION_DELAY_MS). */
  private readonly justOpened = new Set<string>();
  /**
   * Documents just opened whose prediction has not run nor been prepared (PredictionPlan.prepare), with the
   * analysed version it would be prepared from: an edit in the pause after the open prepares it in the edit's
   * debounce, so the edit's run does that work for the edited document only.
   */
  private readonly unprepared = new Map<string, AnalyzedVersion>();
  /** Kinds defined by the CustomResourceDefinitions of the open documents. */
  private customKinds: CrdKindValidator | undefined;
  /**
   * The diagnostics last published per document, to skip identical republishing; serialised only when compared
   * (the validated document's are always sent, and a large file's run to hundreds of diagnostics).
   */
  private readonly published = new Map<string, { diagnostics: Diagnostic[]; key?: string }>();
  private lastStatus = '';
  /**
   * The cross-object findings of the last publish and the analyses they were computed from: a large document's
   * change publishes twice (validation, then predictions) on the same analyses.
   */
  private lastCross:
    { readonly analyses: readonly FileAnalysis[]; readonly findings: Map<string, TextFinding[]> } | undefined;
  private readonly predictions: PredictionsHost;
  /** The GitOps units of the workspace: the predictions and the timeline panel apply a file as its unit does. */
  readonly gitops = new GitopsScopes();
  /** Whether the workspace is trusted: untrusted, no file outside the open documents is read. */
  private isTrusted = true;
  private readonly lensRefresh = new CodeLensRefresh();
  /** The roles kustomizations give files (a patch is checked as a patch), read from disk and cached. */
  private readonly kustomizeRoles: KustomizeRoles;
  /** The kustomize overlays that include edited files, rendered in the background (trusted workspaces only). */
  private readonly overlays: OverlayRenders;
  private workspaceRoots: readonly string[] = [];
  /**
   * Runs the large scopes' simulations off the main thread (dist/prediction-worker.js beside this bundle), so
   * keystrokes and requests are answered while the engine runs.
   */
  private readonly worker: SimulationWorker;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    /** The language service: everything the server knows of manifests and predictions goes through it. */
    readonly service: LanguageService = createDiskLanguageService(),
  ) {
    this.analyses = new DocumentAnalyses(service);
    this.kustomizeRoles = new KustomizeRoles(service);
    this.settings = new SettingsCache(connection);
    this.queue = new ValidationQueue(
      VALIDATION_DELAY_MS,
      TYPING_PAUSE_MS,
      (uri) => this.validate(uri),
      (uri, error) => this.reportError(`validating ${uri}`, error, uri),
    );
    this.predictions = new PredictionsHost(
      {
        openAnalyses: () =>
          this.documents
            .all()
            .map((document) => this.analyses.get(document.uri))
            .filter((state): state is DocumentState => state !== undefined && this.isCurrent(state))
            .map((state) => ({ uri: state.uri, analysis: state.analysis, text: state.text })),
      },
      service,
      this.gitops,
    );
    this.worker = new SimulationWorker({
      script: join(__dirname, 'prediction-worker.js'),
      log: (message) => this.connection.console.warn(message),
      service,
    });
    this.overlays = new OverlayRenders(
      () => {
        this.publishAll('').catch((error: unknown) => this.reportError('publishing overlay findings', error));
      },
      {
        error: (activity, error) => this.reportError(activity, error),
        warn: (message) => this.connection.console.warn(message),
      },
      service,
      {},
      this.gitops,
    );
  }

  /** Records the workspace folders (paths), for the 'workspace' scope. */
  setWorkspaceRoots(roots: readonly string[]): void {
    this.workspaceRoots = roots;
    this.predictions.setWorkspaceRoots(roots);
  }

  /** The kustomize renders the panels may use: none in an untrusted workspace, where kustomize is not run. */
  get panelRenders(): PanelRenders | undefined {
    return this.isTrusted ? this.overlays : undefined;
  }

  /** Records whether the workspace is trusted (from the client's initialization options). */
  setWorkspaceTrusted(isTrusted: boolean): void {
    this.isTrusted = isTrusted;
    if (!isTrusted) {
      this.overlays.clear();
    }
  }

  /** Records whether the client supports workspace/codeLens/refresh. */
  setSupportsCodeLensRefresh(supported: boolean): void {
    this.lensRefresh.isSupported = supported;
  }

  /**
   * A document was opened or changed: validate a new one at once, an edited one at once after a pause in the
   * typing and once the typing pauses within a burst (validation-queue.ts).
   */
  changed(uri: string): void {
    // A simulation of the older version still running in the prediction worker is abandoned at once.
    this.worker.abandonUnwanted();
    const isNew = this.analyses.get(uri) === undefined;
    if (isNew) {
      this.justOpened.add(uri);
      this.queue.schedule(uri, 0);
    } else {
      this.queue.scheduleEdit(uri);
    }
    const unprepared = this.unprepared.get(uri);
    if (!isNew && unprepared !== undefined) {
      this.unprepared.delete(uri);
      // Before the edit's validation (an immediate runs before a timer set in the same turn of an I/O callback,
      // and the debounce's pause is longer): the edit's validation starts no later for it.
      setImmediate(() => this.prepare(unprepared));
    }
  }

  /** A document was closed: forget it and clear its diagnostics. */
  closed(uri: string): void {
    const length = this.analyses.get(uri)?.text.length ?? 0;
    this.queue.forget(uri);
    this.worker.abandonUnwanted();
    this.justOpened.delete(uri);
    this.unprepared.delete(uri);
    this.analyses.remove(uri);
    this.settings.delete(uri);
    this.published.delete(uri);
    this.lastCross = undefined;
    this.lensRefresh.forget(uri);
    this.predictions.remove(uri);
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
    // The kinds its CustomResourceDefinitions defined are gone: the documents that used them are checked again.
    this.refreshCustomKinds(uri);
    releaseAfterClose(length);
  }

  /**
   * The settings of a document with the Kubernetes version it is analysed with: the setting's, or, when the user
   * did not set it, the version its cluster file's capture records (cluster-version.ts), as the CLI chooses it.
   */
  async effectiveSettings(uri: string): Promise<Settings> {
    const settings = await this.settings.get(uri);
    if (settings.isKubernetesVersionSet !== false) {
      return settings;
    }
    const choice = this.predictions.clusterChoiceOf(uri, settings, this.isTrusted);
    return withClusterVersion(
      settings,
      choice.reason === 'setting' || choice.reason === 'nearest' ? choice.path : undefined,
    );
  }

  /** Settings changed: drop caches and validate every open document again. */
  configurationChanged(): void {
    this.settings.clear();
    this.analyses.clear();
    this.predictions.clear();
    this.overlays.clear();
    for (const document of this.documents.all()) {
      this.queue.schedule(document.uri, 0);
    }
  }

  /** The latest analysis of an open document, brought up to date first if it is stale. */
  async currentState(uri: string): Promise<DocumentState | undefined> {
    const document = this.documents.get(uri);
    if (document === undefined) {
      return undefined;
    }
    const state = this.analyses.get(uri);
    if (state !== undefined && state.version === document.version) {
      return state;
    }
    return this.analyze(document);
  }

  /** The hover at a position, from the schema of the object under it. */
  async hover(params: TextDocumentPositionParams): Promise<Hover | null> {
    return this.guarded('computing a hover', null, async () => {
      const state = await this.currentState(params.textDocument.uri);
      if (state === undefined) {
        return null;
      }
      return this.service.hover(
        state,
        state.lines.offsetAt(params.position),
        this.predictions.predictionFor(state.uri),
        this.renderLensesOf(state),
      );
    });
  }

  /** Code lenses above each workload: replicas scheduled, QoS class, Replay. */
  async codeLenses(params: CodeLensParams): Promise<CodeLens[]> {
    return this.guarded('computing code lenses', [], async () => {
      const state = await this.currentState(params.textDocument.uri);
      const lenses = state === undefined ? [] : this.lensesOf(state);
      if (state !== undefined) {
        this.lensRefresh.record(state, lenses);
      }
      return lenses;
    });
  }

  /** Completion items at a position: keys, allowed values, kinds and apiVersions. */
  async completion(params: CompletionParams): Promise<CompletionItem[]> {
    return this.guarded('computing completions', [], async () => {
      const state = await this.currentState(params.textDocument.uri);
      if (state === undefined) {
        return [];
      }
      return this.service.completion(state, state.lines.offsetAt(params.position));
    });
  }

  /** The outline: one symbol per Kubernetes object. */
  async documentSymbols(params: DocumentSymbolParams): Promise<DocumentSymbol[]> {
    return this.guarded('computing the outline', [], async () => {
      const state = await this.currentState(params.textDocument.uri);
      return state === undefined ? [] : this.service.symbols(state);
    });
  }

  /**
   * Quick fixes for the diagnostics of a code action request, and those the predictions offer where the cursor
   * is (requests equal to limits inside a Burstable workload's pod template).
   */
  codeActions(params: CodeActionParams): CodeAction[] {
    try {
      const { uri } = params.textDocument;
      const actions = this.service.quickFixes(uri, params.context.diagnostics);
      const state = this.analyses.get(uri);
      if (state !== undefined && this.isCurrent(state)) {
        appendAll(
          actions,
          this.service.codeActions(
            state,
            state.lines.offsetAt(params.range.start),
            this.predictions.predictionFor(uri),
          ),
        );
      }
      return actions;
    } catch (error: unknown) {
      this.reportError('computing code actions', error);
      return [];
    }
  }

  /** Runs a request handler, turning an unexpected error into a logged report and an empty answer. */
  private async guarded<T>(activity: string, fallback: T, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error: unknown) {
      this.reportError(activity, error);
      return fallback;
    }
  }

  /** Stops pending work. */
  dispose(): void {
    this.queue.dispose();
    this.overlays.dispose();
    this.worker.dispose();
  }

  /** Logs an unexpected error with its stack, tells the user once, and clears the document's diagnostics. */
  reportError(activity: string, error: unknown, uri?: string): void {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.connection.console.error(`Kube Foresight: unexpected error while ${activity}: ${detail}`);
    if (!this.hasShownError) {
      this.hasShownError = true;
      void this.connection.window.showErrorMessage(
        `Kube Foresight hit an unexpected error while ${activity}; see the "Kube Foresight" output for details.`,
      );
    }
    if (uri !== undefined) {
      void this.connection.sendDiagnostics({ uri, diagnostics: [] });
    }
  }

  /**
   * Analyses a document version and predicts for it (the requests that need an up-to-date state). A large
   * scope's prediction is left to the validation that follows every change, which runs it in the prediction
   * worker: a request arriving before that validation is not held up by a simulation in this thread.
   */
  private async analyze(document: TextDocument): Promise<DocumentState | undefined> {
    const analyzed = await this.analyzeOnly(document);
    if (analyzed === undefined) {
      return undefined;
    }
    const { settings, context } = analyzed;
    if (
      this.predictions.pendingObjectCount(document.uri, settings, context, this.isTrusted) <
      VALIDATION_FIRST_MIN_OBJECTS
    ) {
      this.predict(analyzed);
    }
    return analyzed.state;
  }

  /** Analyses a document version (no prediction); undefined when it became stale or validation is off. */
  private async analyzeOnly(document: TextDocument): Promise<AnalyzedVersion | undefined> {
    const settings = await this.effectiveSettings(document.uri);
    const current = this.documents.get(document.uri);
    if (current === undefined || current.version !== document.version) {
      return undefined;
    }
    if (!settings.validation.enable) {
      this.announceStatus({ kubernetesVersion: settings.kubernetesVersion, cluster: 'embedded default' });
      return undefined;
    }
    const context = this.service.analysisContext(
      settings.kubernetesVersion,
      settings.maxFileSizeKB * 1024,
      this.customKinds,
    );
    // The document object is updated in place by later changes: the version analysed is the one read here.
    const version = document.version;
    const state = await this.analyses.update(
      document.uri,
      version,
      document.getText(),
      this.service.contextForFile(context, {
        kustomizeRole: this.kustomizeRoleOf(document.uri),
        helmChart: this.helmChartOf(document.uri),
      }),
      () => this.isStale(document.uri, version),
    );
    if (state === undefined) {
      return undefined;
    }
    this.refreshCustomKinds(document.uri);
    if (this.predictions.isClusterFile(document.uri)) {
      // The cluster changed: the open manifests predicted on it are predicted again (which also gives this file
      // its own findings, such as its scenario's drains).
      for (const open of this.documents.all()) {
        if (open.uri !== document.uri && !this.predictions.isClusterFile(open.uri)) {
          this.queue.schedule(open.uri);
        }
      }
    }
    return { state, settings, context };
  }

  /**
   * The Helm chart a saved file belongs to (its folder's name), skipped as a unit as the CLI skips it; looked up on
   * disk only in a trusted workspace.
   */
  private helmChartOf(uri: string): string | undefined {
    if (!this.isTrusted || !uri.startsWith('file:')) {
      return undefined;
    }
    const folder = chartFolderOf(fileURLToPath(uri));
    return folder === undefined ? undefined : basename(folder);
  }

  /** The role kustomize gives a saved file; read from its folders only in a trusted workspace. */
  private kustomizeRoleOf(uri: string): KustomizeRole | undefined {
    return this.isTrusted && uri.startsWith('file:')
      ? this.kustomizeRoles.roleOf(fileURLToPath(uri))
      : undefined;
  }

  /** Runs (or reuses) the prediction of an analysed document's scope, and tells the status and any notice. */
  private predict({ state, settings, context }: AnalyzedVersion): void {
    const openUris = this.documents.all().map((open) => open.uri);
    let predicted: ReturnType<PredictionsHost['update']> = { prediction: undefined, newNotice: undefined };
    try {
      predicted = this.predictions.update(state.uri, settings, context, this.isTrusted, openUris);
    } catch (error: unknown) {
      // A failing prediction must not take the document's validation down with it: its diagnostics are
      // published, without predictions (none left from an earlier version).
      this.predictions.remove(state.uri);
      this.reportError(`predicting placements for ${state.uri}`, error);
    }
    this.announcePrediction(predicted, settings);
  }

  /**
   * The same as predict, with the engine run in the prediction worker; false when the document changed while it
   * ran (or a newer run superseded it): nothing is adopted or announced then.
   */
  private async predictInWorker({ state, settings, context }: AnalyzedVersion): Promise<boolean> {
    const isCurrent = (): boolean => !this.isStale(state.uri, state.version);
    const openUris = this.documents.all().map((open) => open.uri);
    let predicted: ReturnType<PredictionsHost['update']> | undefined = {
      prediction: undefined,
      newNotice: undefined,
    };
    try {
      predicted = await this.predictions.updateWith(
        state.uri,
        settings,
        context,
        this.isTrusted,
        openUris,
        this.worker,
        isCurrent,
      );
    } catch (error: unknown) {
      if (!isCurrent()) {
        return false;
      }
      this.predictions.remove(state.uri);
      this.reportError(`predicting placements for ${state.uri}`, error);
    }
    if (predicted === undefined || !isCurrent()) {
      return false;
    }
    this.announcePrediction(predicted, settings);
    return true;
  }

  /** Tells the status bar the cluster a prediction used, and shows its cluster notice once. */
  private announcePrediction(
    { prediction, newNotice }: ReturnType<PredictionsHost['update']>,
    settings: Settings,
  ): void {
    this.announceStatus({
      kubernetesVersion: settings.kubernetesVersion,
      cluster: prediction?.clusterName ?? 'embedded default',
      ...(prediction?.clusterChoice === undefined ? {} : { choice: prediction.clusterChoice }),
    });
    if (newNotice !== undefined) {
      void this.connection.window.showWarningMessage(`Kube Foresight: ${newNotice}`);
    }
  }

  /**
   * Recomputes the kinds defined by CustomResourceDefinitions in the open documents; when they changed, the
   * other open documents are validated again with them.
   */
  private refreshCustomKinds(changedUri: string): void {
    const analyses = this.documents
      .all()
      .map((document) => this.analyses.get(document.uri)?.analysis)
      .filter((analysis) => analysis !== undefined);
    const next = this.service.customKindsOf(analyses);
    if ((next?.key ?? '') === (this.customKinds?.key ?? '')) {
      return;
    }
    this.customKinds = next;
    for (const document of this.documents.all()) {
      if (document.uri !== changedUri) {
        this.queue.schedule(document.uri);
      }
    }
    this.queue.schedule(changedUri);
  }

  /**
   * Validates a document and publishes its diagnostics. When the prediction must run the engine on many objects,
   * the validation diagnostics go out first (with the last prediction's findings placed on the new text), and
   * the prediction runs at once in the prediction worker while the server keeps answering; its result is dropped
   * if the document changed meanwhile (the newer version's validation follows).
   */
  private async validate(uri: string): Promise<void> {
    const document = this.documents.get(uri);
    if (document === undefined) {
      return;
    }
    // TextDocuments updates the document object in place: staleness is judged by the version validated.
    const version = document.version;
    const isFirstAfterOpen = this.justOpened.delete(uri);
    const analyzed = await this.analyzeOnly(document);
    if (this.isStale(uri, version)) {
      return;
    }
    if (analyzed === undefined) {
      this.published.delete(uri);
      await this.connection.sendDiagnostics({ uri, version: document.version, diagnostics: [] });
      return;
    }
    const { settings, context } = analyzed;
    if (
      this.predictions.pendingObjectCount(uri, settings, context, this.isTrusted) >=
      VALIDATION_FIRST_MIN_OBJECTS
    ) {
      // After an edit the simulation is sent to the worker before the validation's publish, so that the worker
      // runs it while this thread places the last prediction's findings on the new text and publishes them.
      const predicted = isFirstAfterOpen ? undefined : this.predictInWorker(analyzed);
      await this.publishAll(uri, analyzed.state);
      if (isFirstAfterOpen) {
        this.unprepared.set(uri, analyzed);
        await delay(OPEN_PREDICTION_DELAY_MS);
        this.unprepared.delete(uri);
      }
      if (this.isStale(uri, version) || !(await (predicted ?? this.predictInWorker(analyzed)))) {
        return;
      }
    } else {
      this.predict(analyzed);
    }
    this.requestOverlays(document, analyzed);
    await this.publishAll(uri);
  }

  /**
   * Does the part of a just-opened document's prediction that an edit keeps for its unchanged documents (their
   * objects' texts, their numbers for the worker), from the open's analysis. A failure is the run's to report: it
   * does the same work again.
   */
  private prepare({ state, settings, context }: AnalyzedVersion): void {
    if (this.analyses.get(state.uri) === undefined) {
      return; // closed meanwhile
    }
    try {
      const analysed = { uri: state.uri, analysis: state.analysis, text: state.text };
      this.predictions.prepareWith(analysed, settings, context, this.isTrusted, this.worker);
    } catch {
      // The run that follows prepares again and reports what fails.
    }
  }

  /**
   * Asks for the kustomize overlays that include a saved document to be rendered, in a trusted workspace only
   * (rendering runs kustomize on the workspace's files); their findings arrive in a later publish.
   */
  private requestOverlays(document: TextDocument, { settings, context }: AnalyzedVersion): void {
    const file = this.isTrusted ? pathOfUri(document.uri) : undefined;
    if (file === undefined) {
      return;
    }
    const openTexts = new Map<string, string>();
    for (const open of this.documents.all()) {
      const path = pathOfUri(open.uri);
      if (path !== undefined) {
        openTexts.set(path, open.getText());
      }
    }
    this.overlays.request({ file, settings, context, openTexts, roots: this.workspaceRoots });
  }

  /**
   * Publishes the diagnostics of the validated document, and of any other open document whose cross-object
   * findings (a Service's targetPort against containers elsewhere) changed with it. With `provisional` (the
   * validated document's new state, its prediction not run yet) its prediction findings are the last
   * prediction's, placed on the new analysis.
   */
  private async publishAll(validatedUri: string, provisional?: DocumentState): Promise<void> {
    const states = this.documents
      .all()
      .map((document) => this.analyses.get(document.uri))
      .filter((state): state is DocumentState => state !== undefined && this.isCurrent(state));
    const cross = this.crossObjectFindingsOf(states);
    const edited = provisional === undefined ? undefined : new Map([[provisional.uri, provisional.analysis]]);
    for (const state of states) {
      const predicted =
        edited !== undefined && state.uri === validatedUri
          ? this.predictions.provisionalFindingsFor(state.uri, edited)
          : this.predictions.findingsFor(state.uri);
      const path = this.isTrusted ? pathOfUri(state.uri) : undefined;
      const gitopsNotes = path === undefined ? [] : this.gitopsNotesOf(state, path, states);
      const diagnostics: Diagnostic[] = this.service.documentDiagnostics(
        state,
        [...(cross.get(state.uri) ?? []), ...gitopsNotes],
        predicted,
        path === undefined ? [] : this.overlays.diagnosticsFor(path),
        path !== undefined && this.overlays.isJudgedThroughRenders(path),
      );
      const last = this.published.get(state.uri);
      if (state.uri !== validatedUri && last !== undefined) {
        const key = JSON.stringify(diagnostics);
        if ((last.key ??= JSON.stringify(last.diagnostics)) === key) {
          continue;
        }
        this.published.set(state.uri, { diagnostics, key });
      } else {
        this.published.set(state.uri, { diagnostics });
      }
      await this.connection.sendDiagnostics({ uri: state.uri, version: state.version, diagnostics });
    }
    if (provisional === undefined) {
      await this.refreshStaleCodeLenses(states);
    }
  }

  /** The cross-object findings of the open documents, computed again only when one of their analyses changed. */
  private crossObjectFindingsOf(states: readonly DocumentState[]): Map<string, TextFinding[]> {
    const analyses = states.map((state) => state.analysis);
    const last = this.lastCross;
    if (
      last !== undefined &&
      last.analyses.length === analyses.length &&
      last.analyses.every((analysis, index) => analysis === analyses[index])
    ) {
      return last.findings;
    }
    const findings = this.service.crossObjectFindings(
      states.map((state) => ({ id: state.uri, analysis: state.analysis })),
    );
    this.lastCross = { analyses, findings };
    return findings;
  }

  /**
   * The GitOps notes on the definitions of a document (gitops-scopes.ts), as `foresight validate` gives them: a
   * path not in the repository, options not applied, sources not checked.
   */
  private gitopsNotesOf(state: DocumentState, path: string, open: readonly DocumentState[]): TextFinding[] {
    const texts = open.flatMap((other) => {
      const otherPath = pathOfUri(other.uri);
      return otherPath === undefined ? [] : [{ path: otherPath, text: other.text, version: other.analysis }];
    });
    return this.gitops.notesFor(path, texts).map((note) => ({
      ...note.finding,
      start: state.lines.offsetAt(note.at.start),
      end: state.lines.offsetAt(note.at.end),
    }));
  }

  /** Asks the client to fetch code lenses again when those it shows no longer match the predictions. */
  private async refreshStaleCodeLenses(states: readonly DocumentState[]): Promise<void> {
    if (this.lensRefresh.isDue(states, (state) => this.lensesOf(state))) {
      await this.connection.sendRequest(CodeLensRefreshRequest.type);
    }
  }

  /**
   * A document's code lenses: those of the kustomize renders that include it when rendered ones do (it is judged
   * through them, as its diagnostics are), else its folder's prediction's.
   */
  private lensesOf(state: DocumentState): CodeLens[] {
    return this.service.codeLenses(
      state,
      this.predictions.predictionFor(state.uri),
      this.renderLensesOf(state),
    );
  }

  /** The lenses the kustomize renders including a document give it, or undefined when none rendered includes it. */
  private renderLensesOf(state: DocumentState): OverlayLens[] | undefined {
    const path = this.isTrusted ? pathOfUri(state.uri) : undefined;
    return path === undefined ? undefined : this.overlays.lensesFor(path);
  }

  /**
   * Whether a newer version of a document has arrived (or it was closed) since `version`. Judged by a version
   * read earlier, never by a TextDocument: TextDocuments updates the same object in place on every change.
   */
  private isStale(uri: string, version: number): boolean {
    return this.documents.get(uri)?.version !== version;
  }

  private isCurrent(state: DocumentState): boolean {
    return this.documents.get(state.uri)?.version === state.version;
  }

  private announceStatus(status: StatusParams): void {
    const key = JSON.stringify(status);
    if (key !== this.lastStatus) {
      this.lastStatus = key;
      void this.connection.sendNotification(STATUS_NOTIFICATION, status);
    }
  }
}

/** The path of a file: URI, or undefined for any other scheme. */
function pathOfUri(uri: string): string | undefined {
  if (!uri.startsWith('file:')) {
    return undefined;
  }
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
