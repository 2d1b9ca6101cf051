/**
 * The language layer's one front door (language-service.ts): host/, cli/ and files/ import this module and
 * nothing else of language/ or engine/ (eslint.layers.mjs). Behaviour goes through the service a host builds with
 * createLanguageService; what is exported beside it are the shapes of its answers and a few constants.
 */
export { createLanguageService } from './language-service';
export type {
  FileRoles,
  LanguageService,
  OverlayDiagnosticInput,
  ReadObjectsOptions,
  ReadResult,
  SimulationInput,
} from './language-service';
export type { ScenarioStep } from '../../engine/scenario/scenario-spec';
export type { SimulationReport } from '../../engine/simulate/report';
export type { SimulationResult } from '../../engine/simulate/simulate';
export type { ApplyPlanInput } from '../../engine/plan/build-plan';
export type { Plan, PlanObject, PlanProblem, PlanRollout } from '../../engine/plan/plan-types';
export type { PlanApplyInput, PlanApplyResult } from './plan-apply';
export type { FailureClass } from './failure-class';
export { failureClassOf, isUncheckedCode, UNCHECKED_CODES } from './failure-class';
export { objectLine } from './object-lines';
export type { SchemaSource, ServiceDependencies } from './dependencies';
export type { DocumentState } from './document-state';
export type { KubernetesSchemaBundle } from '../schema/schema-store';
export { SchemaStore } from '../schema/schema-store';
export type { StandaloneValidators } from '../schema/standalone-validators';
export { readStandaloneValidators } from '../schema/standalone-validators';
export type { PatchField, PatchPathStep, Position, RenderedObject } from '../kustomize/render-types';
export type { RenderedText } from '../kustomize/rendered-texts';
export type { KustomizationReferences, KustomizeRole } from '../kustomize/kustomization';
export type { AnalysisContext, AnalysisRun, AnalyzedDocument, FileAnalysis, FileAnalyzer } from '../analyzer';
export type { CrdKindValidator } from '../crd';
export type { DiagnosticCode, TextFinding } from '../findings';
export type {
  FieldPath,
  Finding,
  FindingObject,
  FindingSeverity,
  FixData,
  Place,
  PlaceOrigin,
  RelatedPlace,
  TextPosition,
} from '../../../../protocol/finding';
export { severityOf } from '../findings';
export type { ManifestObject } from '../kubernetes/manifest-object';
export type { AnalysisOutline } from '../manifests/analysis-outline';
export type { ManifestFile } from '../manifests/read-manifests';
export type { NamespaceCreation, UnitNamespace } from '../manifests/apply-namespace';
export type { TargetPortProblem } from '../rules';
export { LineIndex } from '../text/line-index';
export { ANALYSIS_TIME_BUDGET_MS } from '../limits';
export { KUSTOMIZATION_FILE_NAMES } from '../kustomize/kustomization';
export type {
  OverlayAnswers,
  OverlayCluster,
  OverlayDiagnostic,
  PlacedOverlayDiagnostic,
} from './overlay-findings';
export type { OverlayLens } from './workload-lenses';
export type {
  ClusterFileRef,
  PreparedScope,
  ScopeSimulation,
  ScopeSimulationInput,
} from './scope-simulation';
export type {
  PredictedGitopsUnit,
  Prediction,
  PredictionPlan,
  ScopeFile,
  ScopeSimulator,
} from './prediction-types';
export { MAX_SIMULATED_OBJECTS } from './prediction-types';
export type { FilePlaces, TargetPortRequest } from './validate-placements';
export type {
  AnalyzeOptions,
  InputFile,
  InputText,
  OutlinedInputFile,
  SkippedChart,
  ValidatedFile,
} from './input-files';
export { STDIN_NAME } from './input-files';
export type { CliInputFile, CliRun } from './run-findings';
export { isFindingCode } from './run-findings';
export type { SourcedObject } from '../../engine/model/load/cluster-load';
export type { ObjectSource } from '../../engine/model/source';
export type { ReportNode, ReportPod } from '../../engine/scenario/report/report-entries';
// Cluster profiles and capture headers, as data: what `foresight profiles` lists, `--profile` and the editor's
// `profile:NAME` setting simulate on, what `foresight capture` lists and which version a capture implies.
export { capturedVersion, chosenVersion } from './captured-version';
export type { ClusterProfile } from '../../engine/model/load/profiles/cluster-profile';
export { profileObjects } from '../../engine/model/load/profiles/cluster-profile';
export { CLUSTER_PROFILES, findProfile } from '../../engine/model/load/profiles/profiles';
export { allocatableOf } from '../../engine/model/load/profiles/allocatable';
export { CAPTURE_RESOURCES, qualifiedResourceName } from '../../engine/model/load/capture-resources';
export { formatMilli } from '../../engine/model/quantity';
// Pure helpers for reading a report's data, for the output formats (cli/formats/): no behaviour of the service.
export { isPredictedOutcome } from '../../../../protocol/finding-codes';
export { describeFindingObject, formatFieldPath } from '../../../../protocol/finding';
export { parseQuantity } from '../../engine/model/quantity';
export { formatTimelineSections } from '../../engine/scenario/report/format-timeline';
export type { KubernetesMinor } from '../../engine/version';
export {
  DEFAULT_KUBERNETES_VERSION,
  ENGINE_KUBERNETES_VERSIONS,
  isAtLeast,
  isKubernetesMinor,
} from '../../engine/version';
