/**
 * The predictions side of the language server: runs the prediction service for a validated document, remembers
 * which prediction each open document belongs to, and turns predictions into diagnostics, hovers and code lenses.
 */
import type { CodeLens } from 'vscode-languageserver';
import type { Node } from 'yaml';
import type { Settings } from '../../../protocol/settings';
import type { AnalysisContext, FileAnalysis } from '../language/analyzer';
import type { Finding, FixData } from '../language/findings';
import { guaranteedFix } from '../language/predictions/template-fixes';
import { valueAt } from '../language/rules/rule-support';
import { toRange } from '../language/assist/locate';
import { summaryLensTitle } from '../language/predictions/code-lenses';
import { nodeRange, pathAtOffset } from '../language/yaml/node-at-path';
import type { DocumentState } from './document-analyses';
import type { OpenDocumentSource } from './prediction-service';
import type { ScopeSimulator } from './prediction-types';
import type { Prediction } from './prediction-types';
import { PredictionService } from './prediction-service';
import { objectPathLength, predictionHover, startsWith, workloadsOf } from './prediction-hover';

/** The command the Replay lens runs (the timeline panel). */
const REPLAY_COMMAND = 'kubeForesight.showTimeline';

/** Predictions for the open documents. */
export class PredictionsHost {
  private readonly service: PredictionService;
  /** The prediction each open document was last part of. */
  private readonly byDocument = new Map<string, Prediction>();
  private readonly shownNotices = new Set<string>();

  constructor(open: OpenDocumentSource) {
    this.service = new PredictionService(open);
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
  provisionalFindingsFor(uri: string, analyses: ReadonlyMap<string, FileAnalysis>): readonly Finding[] {
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
  findingsFor(uri: string): readonly Finding[] {
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

  /** The prediction of the workload at an offset, as hover Markdown, when the offset is on its kind, name or template. */
  hover(state: DocumentState, offset: number): string | undefined {
    const prediction = this.byDocument.get(state.uri);
    return prediction === undefined ? undefined : predictionHover(prediction, state, offset);
  }

  /** Code lenses above each workload of a document. */
  codeLenses(state: DocumentState): CodeLens[] {
    const prediction = this.byDocument.get(state.uri);
    if (prediction === undefined) {
      return [];
    }
    const lenses: CodeLens[] = [];
    for (const document of state.analysis.documents) {
      for (const workload of workloadsOf(prediction, state.uri, document.index)) {
        const object = document.objects.find(
          (o) =>
            startsWith(workload.source.path, o.path) &&
            o.path.length === objectPathLength(workload.source.path),
        );
        const range = nodeRange(object?.node);
        if (range === undefined) {
          continue;
        }
        const lensRange = toRange(state.lines, range[0] + document.offset, range[0] + document.offset);
        const rollout = prediction.simulation?.report.rollouts?.find(
          (r) => r.kind === workload.kind && r.namespace === workload.namespace && r.name === workload.name,
        );
        // A controller's pods the API server refused (rejected[] names the template's document).
        const refusal = prediction.simulation?.report.rejected.find(
          (entry) =>
            entry.owner !== undefined &&
            entry.file === workload.source.file &&
            entry.documentIndex === workload.source.documentIndex,
        );
        const refusedBy = refusal === undefined ? undefined : refusal.plugin || refusal.stage;
        lenses.push({
          range: lensRange,
          command: {
            title: summaryLensTitle(workload, rollout, refusedBy, prediction.simulation?.report.autoscaler),
            command: '',
          },
        });
        lenses.push({
          range: lensRange,
          command: {
            title: 'Replay',
            command: REPLAY_COMMAND,
            arguments: [
              state.uri,
              { kind: workload.kind, namespace: workload.namespace, name: workload.name },
            ],
          },
        });
      }
    }
    return lenses;
  }

  /**
   * The fixes offered at an offset without a diagnostic: inside the pod template of a Burstable workload whose
   * containers all have cpu and memory limits, "Set requests equal to limits" (Guaranteed).
   */
  templateFixes(state: DocumentState, offset: number): FixData[] {
    const prediction = this.byDocument.get(state.uri);
    const document = state.analysis.documents.find(
      (d) => offset >= d.offset && offset <= d.offset + d.yaml.end,
    );
    if (prediction === undefined || document === undefined) {
      return [];
    }
    const root = (document.yaml.document?.contents ?? undefined) as Node | undefined;
    const { path } = pathAtOffset(root, offset - document.offset);
    const fixes: FixData[] = [];
    for (const workload of workloadsOf(prediction, state.uri, document.index)) {
      if (workload.qosClass !== 'Burstable' || !startsWith(path, [...workload.source.path, 'spec'])) {
        continue;
      }
      const fix = guaranteedFix({
        root,
        path: workload.source.path,
        value: valueAt(document.yaml.value, workload.source.path),
        text: state.text,
        offset: document.offset,
      });
      if (fix !== undefined) {
        fixes.push(fix);
      }
    }
    return fixes;
  }
}
