/**
 * The one front door of the language layer, in the manner of yaml-language-server's getLanguageService: every
 * host (the language server, `foresight`, their worker threads, the benchmarks) builds one service with its
 * dependencies and asks it everything it needs of manifests and predictions — analyse a document, its findings
 * and diagnostics, hover, completion, code lenses and actions, read the objects a command applies, predict a
 * scope on a cluster, place the findings, the timeline panel's report. host/ and cli/ import nothing else of
 * language/ or engine/ (eslint.layers.mjs), so what they do is transport: LSP handlers, queues, caches, threads,
 * arguments and output formats.
 */
import type {
  CodeAction,
  CodeLens,
  CompletionItem,
  Diagnostic,
  DocumentSymbol,
  Hover,
} from 'vscode-languageserver';
import type { ApiServing } from '../../engine/admission/api-discovery';
import { parseStepFlag } from '../../engine/scenario/scenario-spec';
import type { ScenarioStep } from '../../engine/scenario/scenario-spec';
import { SimulationAbandoned } from '../../engine/sim/run-loop';
import { simulate } from '../../engine/simulate/simulate';
import type { SimulationResult } from '../../engine/simulate/simulate';
import type { SourcedObject } from '../../engine/model/load/cluster-load';
import { DEFAULT_KUBERNETES_VERSION } from '../../engine/version';
import type { ClusterChoice } from '../../../../protocol/messages';
import type { Settings } from '../../../../protocol/settings';
import type { AnalysisContext, FileAnalysis } from '../analyzer';
import { analyzeText, FileAnalyzer } from '../analyzer';
import { completeAt } from '../assist/completion';
import { documentSymbols } from '../assist/symbols';
import { buildCustomKindValidator } from '../crd';
import type { CrdKindValidator } from '../crd';
import type { DiagnosticCode, TextFinding } from '../findings';
import { shiftFinding, severityOf } from '../findings';
import { withHelmChart } from '../helm-chart-context';
import type { ManifestObject } from '../kubernetes/manifest-object';
import type { KustomizeRole } from '../kustomize/kustomization';
import { withKustomizeRole, withoutSuppliedFieldFindings } from '../kustomize/role-context';
import { quickFixesFor, toDiagnostic } from '../lsp/diagnostics';
import type { AnalysisOutline } from '../manifests/analysis-outline';
import { outlineOf } from '../manifests/analysis-outline';
import { isTooLargeForAnalysis, readCaptureText } from '../manifests/capture-reader';
import { describePlaceIn } from '../manifests/describe-place';
import { leftOutDocuments } from './panel-left-out';
import { readManifests } from '../manifests/read-manifests';
import { serviceTargetPortProblems } from '../rules';
import { allFindingsOf, crossObjectFindings } from '../workspace-findings';
import { AnalysisContexts, crdObjectsOf, customKindsOf, usesCustomKinds } from './analysis-context';
import type { ServiceDependencies } from './dependencies';
import { codeLensesOf, hoverAnswer, templateCodeActions } from './document-answers';
import type { DocumentState } from './document-state';
import { overlayDiagnostics, overlayMessage } from './overlay-findings';
import { mergeUnitDiagnostics, throughRenders, withOverlayDiagnostics } from './overlay-publish';
import { buildPanelReport } from './panel-report';
import { placePrediction, relocated, runPrediction, skippedPrediction } from './prediction-run';
import type { Prediction } from './prediction-types';
import { prepareScope, simulateScope } from './scope-simulation';
import { simulationInputsKey } from './simulation-inputs';
import { placeSimulationFindings } from './simulation-findings';
import { inputFileOf, placeFindingAt } from './run-findings';
import { nameHelmTemplates, relateHelmSourceComments } from '../manifests/helm-sources';
import { placeReaderFindingsIn, placesOf, placeTargetPortsIn } from './validate-placements';
import { placeReaderFindings } from '../manifests/place-findings';
import { renderedTextsOf } from '../kustomize/rendered-texts';
import { KUSTOMIZATION_FILE_NAMES, readKustomization } from '../kustomize/kustomization';
import { LineIndex } from '../text/line-index';
import type { ManifestFile } from '../manifests/read-manifests';
import type { CaptureRead } from '../manifests/capture-reader';
import type { RenderedText } from '../kustomize/rendered-texts';
import type { OverlayAnswers, OverlayCluster } from './overlay-findings';
import type { OverlayLens } from './workload-lenses';
import type {
  ClusterFileRef,
  PreparedScope,
  ScopeSimulation,
  ScopeSimulationInput,
} from './scope-simulation';
import type { ScopeFile } from './prediction-types';
import type {
  AnalyzeOptions,
  InputFile,
  InputText,
  OutlinedInputFile,
  ValidatedFile,
  ValidateFilesOptions,
} from './input-files';
import { analyzeInputTexts, contextForText, validateFiles } from './input-files';
import type { TargetPortRequest } from './validate-placements';
import { targetPortRequests } from './validate-placements';
import type { Finding } from '../../../../protocol/finding';
import { buildPlan } from '../../engine/plan/build-plan';
import type { PlanApplyInput, PlanApplyResult } from './plan-apply';
import { planApply } from './plan-apply';

/** What the reader gives: the objects to apply, in order, and its findings. */
export type ReadResult = ReturnType<typeof readManifests>;

/** What a file is checked as, besides its text: the kustomize role a kustomization gives it, its Helm chart. */
export interface FileRoles {
  readonly kustomizeRole?: KustomizeRole | undefined;
  /** The Helm chart folder's name, for a file inside one: skipped as a unit. */
  readonly helmChart?: string | undefined;
}

/** The language service (see the file's comment). Built by createLanguageService. */
export interface LanguageService {
  // --- analysing and validating documents
  /** The analysis context of a version, a file-size limit (characters) and the workspace's CRD kinds. */
  analysisContext(
    kubernetesVersion: string,
    maxFileLength: number,
    customKinds?: CrdKindValidator,
  ): AnalysisContext;
  /** The context a file is analysed in, as its kustomize role and Helm chart make it. */
  contextForFile(context: AnalysisContext, roles: FileRoles): AnalysisContext;
  /** An analyzer that keeps a file's documents between versions (one per open document). */
  newAnalyzer(): FileAnalyzer;
  /** Analyses a text all at once. */
  analyzeText(text: string, context: AnalysisContext): FileAnalysis;
  /** The kinds the CRDs among the analyses define, or undefined when there are none. */
  customKindsOf(analyses: readonly AnalysisOutline[]): CrdKindValidator | undefined;
  /** The validator of the kinds these CRD objects define. */
  customKindValidator(crds: readonly ManifestObject[]): CrdKindValidator;
  /** The CRD objects among the analyses, in order. */
  crdObjectsOf(analyses: readonly AnalysisOutline[]): ManifestObject[];
  /** Whether an analysis holds an object of a kind the CRDs define (it reads differently with them). */
  usesCustomKinds(analysis: AnalysisOutline, customKinds: CrdKindValidator): boolean;
  /** What the simulated API server of a version serves. */
  apiServing(kubernetesVersion: string): ApiServing;

  // --- the editor's answers on an open document
  /** The findings that look across open documents (a Service's targetPort and the pods it selects), by id. */
  crossObjectFindings(
    files: readonly { readonly id: string; readonly analysis: FileAnalysis }[],
  ): Map<string, TextFinding[]>;
  /**
   * A document's diagnostics: its own findings, the cross-object ones and its prediction's (those a kustomize
   * render supplies left out), then the overlays' that say something new. A file `judgedThroughRenders` (rendered
   * kustomizations include it) keeps only the predictions every render confirms (overlay-publish.ts).
   */
  documentDiagnostics(
    state: DocumentState,
    cross: readonly TextFinding[],
    predicted: readonly TextFinding[],
    overlays: readonly OverlayDiagnosticInput[],
    judgedThroughRenders?: boolean,
  ): Diagnostic[];
  /** A diagnostic at the start of a file (a note or error about the file as a whole). */
  fileStartDiagnostic(code: DiagnosticCode, message: string): Diagnostic;
  /** The quick fixes our diagnostics carry. */
  quickFixes(uri: string, diagnostics: readonly Diagnostic[]): CodeAction[];
  /** The hover at an offset; `throughRenders`: the kustomize renders' lenses of a file judged through them. */
  hover(
    state: DocumentState,
    offset: number,
    prediction: Prediction | undefined,
    throughRenders?: readonly OverlayLens[],
  ): Hover | null;
  completion(state: DocumentState, offset: number): CompletionItem[];
  symbols(state: DocumentState): DocumentSymbol[];
  /** The lenses above each workload; `throughRenders`: the kustomize renders' of a file judged through them. */
  codeLenses(
    state: DocumentState,
    prediction: Prediction | undefined,
    throughRenders?: readonly OverlayLens[],
  ): CodeLens[];
  /** The fixes offered where the cursor is, without a diagnostic. */
  codeActions(state: DocumentState, offset: number, prediction: Prediction | undefined): CodeAction[];

  // --- reading what a command applies
  /** Analyses a command's texts as the editor analyses a file, again with the kinds their CRDs define. */
  analyzeInputs(texts: readonly InputText[], options: AnalyzeOptions): InputFile[];
  /** The context a command's text is analysed in, as its kustomize role and chart make it. */
  contextForText(context: AnalysisContext, input: Pick<InputText, 'role' | 'chart'>): AnalysisContext;
  /** The objects `kubectl apply` would send for the files, in order, with the reader's findings. */
  readObjects(files: readonly ManifestFile[], options?: ReadObjectsOptions): ReadResult;
  /** Every file's findings for `foresight validate`: its own, the cross-object ones and the reader's, sorted. */
  validateFiles(files: readonly InputFile[], options?: ValidateFilesOptions): ValidatedFile[];
  /** The Services' target-port problems over every file, each with the Service's place (validate's threads). */
  targetPortRequests(files: readonly OutlinedInputFile[]): TargetPortRequest[];
  /** Every finding of a file: its own, then those found across files, sorted and merged. */
  allFindingsOf(analysis: AnalysisOutline, cross: readonly TextFinding[] | undefined): TextFinding[];
  /** The reader's findings placed on the analysed files, by file id, in offsets of each file's text. */
  placeReaderFindings(
    findings: readonly Finding[],
    files: readonly { readonly id: string; readonly analysis: FileAnalysis }[],
  ): Map<string, TextFinding[]>;
  /** A cluster capture read as data (for captures too large for the editing analysis). */
  readCapture(id: string, text: string): CaptureRead;
  /** Whether an analysis was cut short by the editing limits, so the file is better read as a capture. */
  isTooLargeForAnalysis: typeof isTooLargeForAnalysis;
  /** The texts of a kustomize render, grouped by the file each object came from, with their line mappings. */
  renderedTexts: typeof renderedTextsOf;
  /** Reads a kustomization file's references (resources, patches, components…). */
  readKustomization: typeof readKustomization;
  /** The names kustomize reads a kustomization from. */
  readonly kustomizationFileNames: readonly string[];
  /** A line index of a text (offsets to lines and back). */
  lineIndex(text: string): LineIndex;

  // --- predicting
  /** Runs the engine (the one simulation) with this service's API history. */
  simulate(input: Omit<SimulationInput, 'apiServing'>): SimulationResult;
  /** Reads a `--drain NODE@T`-style step flag of the command line, or why it cannot be read. */
  parseStepFlag(flag: string, value: string): ScenarioStep | string;
  /** Whether an error is the engine's abandonment of a run no longer wanted (not a failure). */
  isAbandoned(error: unknown): boolean;
  /** Gathers what the engine is given for an editor's scope (reads the cluster file's text). */
  prepareScope(
    manifests: readonly SourcedObject[],
    kubernetesVersion: string,
    context: AnalysisContext,
    clusterFile: ClusterFileRef | undefined,
    clusterText: string,
    choice?: ClusterChoice,
  ): PreparedScope;
  /** Runs a scope's engine input (here or in the prediction worker). */
  simulateScope(input: ScopeSimulationInput, shouldStop?: () => boolean): ScopeSimulation;
  /** Runs and places a scope's prediction in this thread. */
  runPrediction(
    scopeUri: string,
    files: readonly ScopeFile[],
    manifests: readonly SourcedObject[],
    settings: Settings,
    context: AnalysisContext,
    clusterFile: ClusterFileRef | undefined,
    clusterText: string,
    readerFindings?: readonly Finding[],
    choice?: ClusterChoice,
  ): Prediction;
  /** Places a scope's simulation (run here or in the worker) on its files. */
  placePrediction: typeof placePrediction;
  /** A prediction placed again on newer analyses of its files. */
  relocatePrediction: typeof relocated;
  /** The stand-in for a scope too large to simulate as you type. */
  skippedPrediction: typeof skippedPrediction;
  /** One comparable key of what the engine is given (equal keys: the same simulation). */
  simulationInputsKey: typeof simulationInputsKey;
  /**
   * The timeline panel's report of a simulation; `textOf` gives a manifest's text by its file id, `linesOf` its
   * line index when not the text's own (a kustomize render's).
   */
  panelReport: typeof buildPanelReport;
  /** The documents of a simulated folder's files left out before the simulation, for the panel to name. */
  leftOutDocuments: typeof leftOutDocuments;
  /** A rendered overlay's diagnostics and workload lenses by source file (absolute path). */
  overlayDiagnostics(
    label: string,
    folder: string,
    texts: readonly RenderedText[],
    settings: Settings,
    context: AnalysisContext,
    cluster: OverlayCluster,
    uriOf: (path: string) => string,
    readAs?: Pick<ManifestFile, 'appliedBy' | 'unitNamespace'>,
  ): OverlayAnswers;
  /** The message of a finding of overlays. */
  overlayMessage: typeof overlayMessage;
  /** The diagnostics the units including a file give it, merged (overlay-publish.ts). */
  mergeUnitDiagnostics: typeof mergeUnitDiagnostics;

  // --- the command line's runs
  /** The findings of `foresight simulate`, placed on its input files. */
  placeSimulationFindings: typeof placeSimulationFindings;
  /** A finding at offsets of an input file, with its region and object. */
  placeFindingAt: typeof placeFindingAt;
  /** Placed findings named after the Helm chart template (`# Source:`) of the document they are on. */
  nameHelmTemplates: typeof nameHelmTemplates;
  /** An input file with the objects it defines. */
  inputFileOf: typeof inputFileOf;
  /** What `foresight validate`'s threads keep of an analysis to place findings later, and the placing. */
  placesOf: typeof placesOf;
  placeReaderFindingsIn: typeof placeReaderFindingsIn;
  placeTargetPortsIn: typeof placeTargetPortsIn;
  /** The outline of an analysis (plain data that crosses threads). */
  outlineOf: typeof outlineOf;
  /** Each Service's target-port problems against the pods it selects, over these objects. */
  targetPortProblems: typeof serviceTargetPortProblems;
  /** Moves a finding by a number of characters. */
  shiftFinding: typeof shiftFinding;
  /** The plan of an apply (`foresight plan`): the input against the cluster file, and the two runs' outcomes. */
  plan: typeof buildPlan;
  /** The plan of one apply on one cluster: the two runs, the findings placed, the plan (the CLI's and the panel's). */
  planApply(input: PlanApplyInput): PlanApplyResult;
}

/** How readObjects reads. */
export interface ReadObjectsOptions {
  /** Keep documents with errors and every definition (a cluster file). */
  readonly keepAll?: boolean;
  /** How a finding names a file of another place ("web/deploy.yaml:12"): the file id by default. */
  readonly display?: (fileId: string) => string;
  /** The namespace given on the command line (`kubectl apply -n`), enforced on every namespaced object. */
  readonly namespace?: string;
}

/** What the engine is given to simulate (engine/simulate/simulate.ts). */
export type SimulationInput = Parameters<typeof simulate>[0];

/** An overlay's diagnostic as the host keeps it (overlay-publish.ts). */
export type OverlayDiagnosticInput = Parameters<typeof withOverlayDiagnostics>[1][number];

/** The service's functions that need no dependency: shared by every instance. */
const STATELESS = {
  newAnalyzer: (): FileAnalyzer => new FileAnalyzer(),
  analyzeText,
  customKindsOf,
  customKindValidator: (crds: readonly ManifestObject[]): CrdKindValidator => buildCustomKindValidator(crds),
  crdObjectsOf,
  usesCustomKinds,
  contextForFile: (context: AnalysisContext, roles: FileRoles): AnalysisContext =>
    withHelmChart(withKustomizeRole(context, roles.kustomizeRole), roles.helmChart),
  crossObjectFindings,
  fileStartDiagnostic: (code: DiagnosticCode, message: string): Diagnostic =>
    toDiagnostic({ code, severity: severityOf(code), message, start: 0, end: 0 }, new LineIndex('')),
  quickFixes: (uri: string, diagnostics: readonly Diagnostic[]): CodeAction[] =>
    quickFixesFor(uri, diagnostics),
  hover: hoverAnswer,
  completion: (state: DocumentState, offset: number): CompletionItem[] =>
    completeAt(state.analysis, state.text, offset, state.context.store, state.lines),
  symbols: (state: DocumentState): DocumentSymbol[] => documentSymbols(state.analysis, state.lines),
  codeLenses: codeLensesOf,
  codeActions: templateCodeActions,
  contextForText,
  validateFiles,
  plan: buildPlan,
  targetPortRequests,
  readObjects: (files: readonly ManifestFile[], options: ReadObjectsOptions = {}): ReadResult =>
    readManifests(files, {
      ...(options.keepAll === true ? { keepAll: true } : {}),
      ...(options.keepAll === true ? {} : { describePlace: describePlaceIn(files, options.display) }),
      ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    }),
  allFindingsOf,
  placeReaderFindings,
  readCapture: readCaptureText,
  isTooLargeForAnalysis,
  renderedTexts: renderedTextsOf,
  readKustomization,
  kustomizationFileNames: KUSTOMIZATION_FILE_NAMES,
  lineIndex: (text: string): LineIndex => new LineIndex(text),
  parseStepFlag,
  isAbandoned: (error: unknown): boolean => error instanceof SimulationAbandoned,
  prepareScope,
  placePrediction,
  relocatePrediction: relocated,
  skippedPrediction,
  simulationInputsKey,
  panelReport: buildPanelReport,
  leftOutDocuments,
  overlayMessage,
  mergeUnitDiagnostics,
  placeSimulationFindings,
  placeFindingAt,
  nameHelmTemplates,
  inputFileOf,
  placesOf,
  placeReaderFindingsIn,
  placeTargetPortsIn,
  outlineOf,
  targetPortProblems: serviceTargetPortProblems,
  shiftFinding,
  documentDiagnostics: (
    state: DocumentState,
    cross: readonly TextFinding[],
    predicted: readonly TextFinding[],
    overlays: readonly OverlayDiagnosticInput[],
    judgedThroughRenders = false,
  ): Diagnostic[] => {
    const judged = judgedThroughRenders
      ? throughRenders(predicted, state.lines, overlays)
      : { predicted, overlays };
    const extra = [...cross, ...withoutSuppliedFieldFindings(judged.predicted, state.context.kustomizeRole)];
    // A document of helm template output names its chart template (its `# Source:` comment) on each finding.
    const own = relateHelmSourceComments(allFindingsOf(state.analysis, extra), state.text, state.lines).map(
      (finding) => toDiagnostic(finding, state.lines, state.uri),
    );
    return judged.overlays.length === 0 ? own : withOverlayDiagnostics(own, judged.overlays);
  },
} as const;

/** Builds the language service of a host. */
export function createLanguageService(dependencies: ServiceDependencies): LanguageService {
  const contexts = new AnalysisContexts(dependencies.schemas);
  return {
    ...STATELESS,
    analysisContext: (version, maxFileLength, customKinds) =>
      contexts.contextFor(version, maxFileLength, customKinds),
    apiServing: (version) => contexts.apiServingFor(version),
    analyzeInputs: (texts, options) =>
      analyzeInputTexts(texts, options, (version, maxFileLength, customKinds) =>
        contexts.contextFor(version, maxFileLength, customKinds),
      ),
    simulate: (input) =>
      simulate({ ...input, apiServing: contexts.apiServingFor(input.version ?? DEFAULT_KUBERNETES_VERSION) }),
    simulateScope: (input, shouldStop) =>
      simulateScope(input, (version) => contexts.apiServingFor(version), shouldStop),
    planApply: (input) =>
      planApply(input, (run) =>
        simulate({ ...run, apiServing: contexts.apiServingFor(run.version ?? DEFAULT_KUBERNETES_VERSION) }),
      ),
    runPrediction: (
      scopeUri,
      files,
      manifests,
      settings,
      context,
      clusterFile,
      clusterText,
      readerFindings,
      choice,
    ) =>
      runPrediction(
        scopeUri,
        files,
        manifests,
        settings,
        context,
        clusterFile,
        clusterText,
        (version) => contexts.apiServingFor(version),
        readerFindings,
        choice,
      ),
    overlayDiagnostics: (label, folder, texts, settings, context, cluster, uriOf, readAs) =>
      overlayDiagnostics(
        label,
        folder,
        texts,
        settings,
        context,
        cluster,
        uriOf,
        (version) => contexts.apiServingFor(version),
        readAs,
      ),
  };
}
