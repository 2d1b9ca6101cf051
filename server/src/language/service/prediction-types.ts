/**
 * What a prediction is, and the limits of predicting as you type: shared by the service that plans and caches
 * predictions (prediction-service.ts) and the run that makes one (prediction-run.ts), so neither imports the other.
 */
import type { NodeFacts } from '../predictions/landing-nodes';
import type { TextFinding } from '../findings';
import type { FileAnalysis } from '../analyzer';
import type { WorkloadPrediction } from '../predictions/workload-predictions';
import type { PredictionSimulation } from './prediction-simulation';
import type { ScopeSimulation, ScopeSimulationInput } from './scope-simulation';
import type { SourcedObject } from '../../engine/model/load/cluster-load';
import type { ClusterChoice } from '../../../../protocol/messages';
import type { UnitNamespace } from '../manifests/apply-namespace';

/**
 * The most Kubernetes objects simulated on every keystroke. Beyond it the editor says so once and shows no
 * prediction; `foresight simulate` has no such limit.
 */
export const MAX_SIMULATED_OBJECTS = 2_000;

/**
 * The most pods simulated on every keystroke (replicas summed): `replicas: 100000` would otherwise hold the
 * editor for minutes. Beyond it the workload gets one information diagnostic and no prediction is shown;
 * `foresight simulate` goes to 100,000.
 */
export const MAX_SIMULATED_PODS = 5_000;

/**
 * The most running pods of a cluster file simulated on every keystroke: the largest cluster Kubernetes supports
 * (150,000 pods on 5,000 nodes). The prediction worker reads such a capture once and the engine keeps what it
 * derived from it, so a keystroke does not pay for the whole cluster again. A larger file is named in a notice and
 * the embedded default is used.
 */
export const MAX_CLUSTER_FILE_PODS = 150_000;

/**
 * The most nodes of a cluster file simulated on every keystroke (the benchmarks' largest cluster). A larger
 * cluster file is named in a notice and the embedded default is used; `foresight simulate --cluster` takes it.
 */
export const MAX_SIMULATED_NODES = 5_000;

/** An analysed file that takes part in a prediction. */
export interface ScopeFile {
  /** The file's URI. */
  readonly uri: string;
  readonly analysis: FileAnalysis;
  /** The text, for an open document (its unsaved contents count). */
  readonly text?: string;
}

/** What a prediction run produced. */
export interface Prediction {
  /** The folder (or file) analysed together. */
  readonly scopeUri: string;
  readonly predictions: readonly WorkloadPrediction[];
  /** What it keeps of the engine's result; undefined when the scope was too large to simulate. */
  readonly simulation: PredictionSimulation | undefined;
  /** Findings of the predictions, by file URI (manifests and the cluster file). */
  readonly findings: ReadonlyMap<string, TextFinding[]>;
  /**
   * The same findings placed on newer analyses of some of its files (by URI; the others as predicted): a
   * stale prediction shown on an edited text until the new one is ready. Objects are found by document index
   * and path, so an inserted document shifts them until then.
   */
  readonly findingsOn: (
    analyses: ReadonlyMap<string, FileAnalysis>,
    texts?: ReadonlyMap<string, string>,
  ) => Map<string, TextFinding[]>;
  /** Set when this is the result of an earlier run reused on newer analyses (simulation-inputs.ts): that run. */
  readonly reusedFrom?: Prediction;
  /** The cluster's name for the status bar: "embedded default", the cluster file's name, or "profile NAME". */
  readonly clusterName: string;
  /** The cluster the prediction used and why (the status bar tells the cluster picker); absent if not simulated. */
  readonly clusterChoice?: ClusterChoice;
  /** Set when the cluster file has errors and the embedded default was used instead. */
  readonly clusterNotice?: string;
  /** The cluster file in use, if any. */
  readonly clusterUri?: string;
  /** The simulated nodes' taints and cordons (the hover's "largest free" counts only nodes a pod can land on). */
  readonly nodeFacts?: NodeFacts;
  /** The GitOps unit that applies the scope, when one does (the host's gitops-scopes.ts). */
  readonly gitopsUnit?: PredictedGitopsUnit;
}

/**
 * The GitOps unit a prediction applied its files as: the hover names it, and an object's namespace in the
 * simulation is the one the unit gives it.
 */
export interface PredictedGitopsUnit {
  /** "Argo CD Application argocd/guestbook (clusters/apps.yaml:4)". */
  readonly definition: string;
  readonly namespace: UnitNamespace | undefined;
}

/** A prediction not run yet: see PredictionService.plan. */
export interface PredictionPlan {
  /** The prediction made on the same inputs, if any: then run() returns it at no cost. */
  readonly cached: Prediction | undefined;
  /**
   * The Kubernetes objects run() may give the engine, the cluster file's counted too (at most, before it is
   * read): 0 when it surely runs no simulation (the prediction is
   * cached, or there are too many objects to simulate). run() itself may still find that the engine's inputs
   * did not change and reuse the last simulation (telling so costs a serialisation of the objects, left to run).
   */
  readonly objectCount: number;
  /** Runs the engine (or returns the cached prediction) and caches the result. */
  run(): Prediction;
  /**
   * The same as run, with the engine run by a simulator (the prediction worker); undefined when the simulator
   * dropped the run because a newer one of the same scope superseded it, or `isWanted` said no.
   */
  runWith(simulator: ScopeSimulator, isWanted?: () => boolean): Promise<Prediction | undefined>;
  /**
   * Does ahead of the run the part of its work that an edit of one document keeps for the others: each object's
   * text for the reuse check, and the simulator's recognising of objects it holds under new copies (a document
   * just opened). The server calls it while it waits after an open, so that the first keystroke's run does that
   * work for the edited document only. Nothing is run or cached.
   */
  prepare(simulator: ScopeSimulator): void;
}

/** Runs a scope's engine input somewhere (simulation-worker.ts: in the prediction worker). */
export interface ScopeSimulator {
  /**
   * The simulation, or undefined when a newer request of the same scope superseded this one, or it was no
   * longer wanted (`isWanted`, asked when the document changes: its run is abandoned).
   */
  simulate(
    scopeUri: string,
    input: ScopeSimulationInput,
    clusterText: string,
    isWanted?: () => boolean,
  ): Promise<ScopeSimulation | undefined>;
  /** Recognises, ahead of a request, the objects it already holds among new copies (simulation-transfer.ts). */
  recognize?(manifests: readonly SourcedObject[]): void;
}
