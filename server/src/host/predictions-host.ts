/**
 * The predictions side of the language server: runs the prediction service for a validated document and remembers
 * which prediction each open document belongs to (the service turns them into diagnostics, hovers and lenses).
 */
import type { ClusterChoice } from '../../../protocol/messages';
import type { Settings } from '../../../protocol/settings';
import type {
  AnalysisContext,
  FileAnalysis,
  LanguageService,
  Prediction,
  ScopeFile,
  ScopeSimulator,
  TextFinding,
} from '../language/service';
import type { OpenDocumentSource } from './prediction-service';
import { PredictionService } from './prediction-service';
import type { GitopsScopes } from './gitops-scopes';

/** Predictions for the open documents. */
export class PredictionsHost {
  private readonly service: PredictionService;
  /** The prediction each open document was last part of. */
  private readonly byDocument = new Map<string, Prediction>();
  private readonly shownNotices = new Set<string>();

  constructor(open: OpenDocumentSource, language: LanguageService, gitops: GitopsScopes) {
    this.service = new PredictionService(open, language, gitops);
  }

  /** The workspace folders (paths), for the 'workspace' scope. */
  setWorkspaceRoots(roots: readonly string[]): void {
    this.service.setWorkspaceRoots(roots);
  }

  /**
   * Runs (or reuses) the prediction for a document's scope; every open document of that scope now belongs to
   * it. Returns it, and whether its cluster notice is new (to be shown to the user once).
   */
  update(
    uri: string,
    settings: Settings,
    context: AnalysisContext,
    trusted: boolean,
    openUris: readonly string[],
  ): { prediction: Prediction | undefined; newNotice: string | undefined } {
    if (!settings.predictions.enable) {
      this.byDocument.delete(uri);
      return { prediction: undefined, newNotice: undefined };
    }
    if (this.isClusterFile(uri)) {
      // A cluster file is not a manifest: it keeps the findings of the predictions that run on it.
      return { prediction: this.byDocument.get(uri), newNotice: undefined };
    }
    return this.adopt(uri, this.service.predict(uri, settings, context, trusted), openUris);
  }

  /**
   * The same as update, with the engine run by a simulator (the prediction worker); undefined when the run was
   * dropped for a newer one, or the document changed meanwhile (`isCurrent` says no): nothing is adopted then.
   */
  async updateWith(
    uri: string,
    settings: Settings,
    context: AnalysisContext,
    trusted: boolean,
    openUris: readonly string[],
    simulator: ScopeSimulator,
    isCurrent: () => boolean,
  ): Promise<{ prediction: Prediction | undefined; newNotice: string | undefined } | undefined> {
    if (!settings.predictions.enable || this.isClusterFile(uri)) {
      return this.update(uri, settings, context, trusted, openUris);
    }
    const prediction = await this.service.predictWith(uri, settings, context, trusted, simulator, isCurrent);
    if (prediction === undefined || !isCurrent()) {
      return undefined;
    }
    return this.adopt(uri, prediction, openUris);
  }

  /**
   * Prepares the prediction of a document's scope ahead of its run (PredictionPlan.prepare): called while the
   * server waits after an open, so that a keystroke right after it runs sooner. `analysed` is the document as
   * the open analysed it (the keystroke made it an older version: without it, its file on disk would be read).
   */
  prepareWith(
    analysed: ScopeFile,
    settings: Settings,
    context: AnalysisContext,
    trusted: boolean,
    simulator: ScopeSimulator,
  ): void {
    if (settings.predictions.enable && !this.isClusterFile(analysed.uri)) {
      this.service.plan(analysed.uri, settings, context, trusted, analysed).prepare(simulator);
    }
  }

  /** Makes a prediction the one of its document and of the open documents it has findings or workloads in. */
  private adopt(
    uri: string,
    prediction: Prediction | undefined,
    openUris: readonly string[],
  ): { prediction: Prediction | undefined; newNotice: string | undefined } {
    if (prediction === undefined) {
      return { prediction, newNotice: undefined };
    }
    this.byDocument.set(uri, prediction);
    for (const other of openUris) {
      if (
        other !== uri &&
        (prediction.findings.has(other) || prediction.predictions.some((p) => p.source.file === other))
      ) {
        this.byDocument.set(other, prediction);
      }
    }
    let newNotice: string | undefined;
    if (prediction.clusterNotice !== undefined && !this.shownNotices.has(prediction.clusterNotice)) {
      this.shownNotices.add(prediction.clusterNotice);
      newNotice = prediction.clusterNotice;
    }
    return { prediction, newNotice };
  }

  /** The cluster the predictions of a document use, and why. */
  clusterChoiceOf(uri: string, settings: Settings, trusted: boolean): ClusterChoice {
    return this.service.clusterChoiceOf(uri, settings, trusted);
  }

  /**
   * How many objects predicting a document would simulate now: 0 when nothing would run (predictions off, a
   * cluster file, or the prediction of the same inputs is cached).
   */
  pendingObjectCount(uri: string, settings: Settings, context: AnalysisContext, trusted: boolean): number {
    if (!settings.predictions.enable || this.isClusterFile(uri)) {
      return 0;
    }
    const plan = this.service.plan(uri, settings, context, trusted);
    return plan.cached === undefined ? plan.objectCount : 0;
  }

  /**
   * The findings of a document's last prediction placed on newer analyses of the edited documents (see
   * Prediction.findingsOn), to show until its new prediction is ready.
   */
  provisionalFindingsFor(uri: string, analyses: ReadonlyMap<string, FileAnalysis>): readonly TextFinding[] {
    return this.byDocument.get(uri)?.findingsOn(analyses).get(uri) ?? [];
  }

  /** Whether a document is a cluster file: under a .foresight folder, or the cluster of a prediction made. */
  isClusterFile(uri: string): boolean {
    if (uri.includes('/.foresight/')) {
      return true;
    }
    for (const prediction of this.byDocument.values()) {
      if (prediction.clusterUri === uri) {
        return true;
      }
    }
    return false;
  }

  /** The prediction findings of a document. */
  findingsFor(uri: string): readonly TextFinding[] {
    return this.byDocument.get(uri)?.findings.get(uri) ?? [];
  }

  /** Forgets a closed document. */
  remove(uri: string): void {
    this.byDocument.delete(uri);
    this.service.forgetDocument(uri);
  }

  /** Forgets everything (settings changed). */
  clear(): void {
    this.byDocument.clear();
    this.service.clear();
  }

  /** The prediction a document was last part of, if any. */
  predictionFor(uri: string): Prediction | undefined {
    return this.byDocument.get(uri);
  }
}
