/**
 * The engine's part of a prediction, as plain data in and out: what the engine is given for a scope (its
 * manifests, the cluster file's objects or the embedded default, the version, the notice when the cluster file
 * cannot be used), and the run that turns it into a simulation. Being plain data, it crosses to the prediction
 * worker (prediction-worker.ts) by structured clone and runs there exactly as it runs in the server's thread.
 * Preparing it (reading the cluster file) and placing its findings on the files (prediction-run.ts) stay in the
 * server's thread: they need the analyses, which hold YAML nodes.
 */
import { isTooLargeForAnalysis, readCaptureText } from '../manifests/capture-reader';
import type { SourcedObject } from '../../engine/model/load/cluster-load';
import { flattenLists } from '../../engine/model/load/cluster-load';
import { DEFAULT_CLUSTER_DESCRIPTION } from '../../engine/model/load/default-cluster';
import { profileObjects } from '../../engine/model/load/profiles/cluster-profile';
import { CLUSTER_PROFILES, findProfile } from '../../engine/model/load/profiles/profiles';
import type { ClusterChoice } from '../../../../protocol/messages';
import { simulate } from '../../engine/simulate/simulate';
import { SimulationAbandoned } from '../../engine/sim/run-loop';
import type { SimulationResult } from '../../engine/simulate/simulate';
import type { KubernetesMinor } from '../../engine/version';
import { DEFAULT_KUBERNETES_VERSION, isAtLeast, isKubernetesMinor } from '../../engine/version';
import type { ApiServing } from '../../engine/admission/api-discovery';
import type { AnalysisContext, FileAnalysis } from '../analyzer';
import { analyzeText } from '../analyzer';
import { severityOf } from '../findings';
import { readManifests } from '../manifests/read-manifests';
import { MAX_CLUSTER_FILE_PODS, MAX_SIMULATED_NODES, MAX_SIMULATED_PODS } from './prediction-types';
import type { PredictionSimulation } from './prediction-simulation';
import { summarizeSimulation } from './prediction-simulation';
import type { WorkloadPrediction } from '../predictions/workload-predictions';
import { isPredictedOutcome } from '../../../../protocol/finding-codes';

/** A cluster file as the service names it: the host gives its URI and the name it is shown by. */
export interface ClusterFileRef {
  /** The file's URI (as the host names the open document, pathToFileURL of its path). */
  readonly uri: string;
  /** The name shown in notices and the status bar (the file's base name). */
  readonly name: string;
  /** Its path on disk, as the cluster choice names it. */
  readonly path: string;
}

/** What the simulated API server of a version serves (the service's, built from the schemas). */
export type ApiServingOf = (kubernetesVersion: string) => ApiServing;

/** What the engine is given for a scope: plain data (structured-cloneable). */
export interface ScopeSimulationInput {
  readonly manifests: readonly SourcedObject[];
  /** The cluster file's objects; null for the embedded default (also when the file is not used at all). */
  readonly cluster: readonly SourcedObject[] | null;
  /** The cluster file, when one is found. */
  readonly clusterFile: ClusterFileRef | undefined;
  readonly version: KubernetesMinor | undefined;
  /** Why the cluster file is not used at all (not read, too many nodes or pods): the default is used. */
  readonly forcedNotice: string | undefined;
  /** How reports name the cluster when it is not a file: "profile gke". */
  readonly clusterName?: string;
  /** Whether the cluster file has YAML syntax errors (then the default is used). */
  readonly hasClusterSyntaxErrors: boolean;
}

/**
 * The engine's result for a scope as a prediction keeps it (prediction-simulation.ts), its workloads'
 * predictions, and the notice when the cluster file's errors made it use the default.
 */
export interface ScopeSimulation {
  readonly simulation: PredictionSimulation;
  readonly predictions: readonly WorkloadPrediction[];
  readonly clusterNotice: string | undefined;
}

/** A scope's engine input, with what the placing of its findings needs of the cluster file. */
export interface PreparedScope {
  readonly input: ScopeSimulationInput;
  /** The cluster file's analysis (its own findings are placed on it); undefined for a capture read as data. */
  readonly clusterAnalysis: FileAnalysis | undefined;
  /** The cluster file's objects as read, null without one (the quick fixes read its nodes' taints). */
  readonly clusterObjects: readonly SourcedObject[] | null;
  /** Which cluster was chosen and why (cluster-file.ts), for the status bar and the cluster picker. */
  readonly choice: ClusterChoice;
}

/** Reads the cluster file (or none) and gathers what the engine is given for a scope. */
export function prepareScope(
  manifests: readonly SourcedObject[],
  kubernetesVersion: string,
  context: AnalysisContext,
  clusterFile: ClusterFileRef | undefined,
  clusterText: string,
  choice: ClusterChoice = clusterFile === undefined
    ? { reason: 'embedded' }
    : { reason: 'nearest', path: clusterFile.path },
): PreparedScope {
  const version = isKubernetesMinor(kubernetesVersion) ? kubernetesVersion : undefined;
  if (choice.reason === 'profile') {
    return prepareProfile(manifests, version, choice);
  }
  const { clusterAnalysis, clusterObjects, forcedNotice, hasClusterSyntaxErrors } =
    clusterFile === undefined ? NO_CLUSTER_FILE : readClusterFile(clusterFile, clusterText, context);
  return {
    input: {
      manifests,
      cluster: forcedNotice === undefined ? clusterObjects : null,
      clusterFile,
      version,
      forcedNotice,
      hasClusterSyntaxErrors,
    },
    clusterAnalysis,
    clusterObjects,
    choice,
  };
}

/** What a prediction reads of its cluster file: the same for every keystroke until the file changes. */
interface ClusterFileRead {
  readonly clusterAnalysis: FileAnalysis | undefined;
  readonly clusterObjects: readonly SourcedObject[] | null;
  readonly forcedNotice: string | undefined;
  readonly hasClusterSyntaxErrors: boolean;
}

const NO_CLUSTER_FILE: ClusterFileRead = {
  clusterAnalysis: undefined,
  clusterObjects: null,
  forcedNotice: undefined,
  hasClusterSyntaxErrors: false,
};

/**
 * The last cluster file read, by URI, text and analysis context. A capture of a large cluster takes most of a
 * second to read (150,000 pods: about 0.7 s), which a keystroke cannot pay; and the same objects, run after run,
 * are what lets the prediction worker keep the cluster it holds (simulation-transfer.ts) and the engine reuse
 * what it derived from them. The text is compared as a string: the host hands the same string while the file
 * is unchanged (host/cluster-texts.ts), so the comparison is one pointer.
 */
let lastClusterRead:
  | {
      readonly uri: string;
      readonly text: string;
      readonly contextKey: string;
      readonly read: ClusterFileRead;
    }
  | undefined;

/** The cluster file's analysis or capture, its objects, and why it is not used when it is not. */
function readClusterFile(
  clusterFile: ClusterFileRef,
  clusterText: string,
  context: AnalysisContext,
): ClusterFileRead {
  const last = lastClusterRead;
  if (
    last !== undefined &&
    last.uri === clusterFile.uri &&
    last.contextKey === context.key &&
    last.text === clusterText
  ) {
    return last.read;
  }
  const read = readClusterFileAfresh(clusterFile, clusterText, context);
  lastClusterRead = { uri: clusterFile.uri, text: clusterText, contextKey: context.key, read };
  return read;
}

function readClusterFileAfresh(
  clusterFile: ClusterFileRef,
  clusterText: string,
  context: AnalysisContext,
): ClusterFileRead {
  const clusterUri = clusterFile.uri;
  const analysed = analyzeText(clusterText, context);
  // A capture too large for the editing analysis (one List document of a real cluster) is read as data.
  const capture = isTooLargeForAnalysis(analysed) ? readCaptureText(clusterUri, clusterText) : undefined;
  const clusterAnalysis = capture?.ok === true ? undefined : analysed;
  const clusterObjects =
    capture?.ok === true
      ? capture.objects
      : readManifests([{ id: clusterUri, analysis: analysed }], { keepAll: true }).objects;
  const nodeCount = nodeObjectsOf(clusterObjects).length;
  const podCount = runningPodsOf(clusterObjects);
  // A cluster file not read at all (too large, binary, templated) or too large to simulate as you type: the
  // embedded default is used, and the notice says why.
  const forcedNotice =
    clusterAnalysis?.skipped !== undefined
      ? `The cluster file ${clusterFile.name} was not read (${clusterAnalysis.skipped.message}); predictions use the ${DEFAULT_CLUSTER_DESCRIPTION}.`
      : capture?.ok === false
        ? `The cluster file ${clusterFile.name} was not read (${capture.message}); predictions use the ${DEFAULT_CLUSTER_DESCRIPTION}.`
        : nodeCount > MAX_SIMULATED_NODES
          ? `The cluster file ${clusterFile.name} has ${nodeCount.toLocaleString('en-US')} nodes, more than the ${MAX_SIMULATED_NODES.toLocaleString('en-US')} simulated as you type; predictions use the ${DEFAULT_CLUSTER_DESCRIPTION} (\`foresight simulate --cluster\` takes the file).`
          : podCount > MAX_CLUSTER_FILE_PODS
            ? `The cluster file ${clusterFile.name} runs ${podCount.toLocaleString('en-US')} pods, more than the ${MAX_CLUSTER_FILE_PODS.toLocaleString('en-US')} simulated as you type; predictions use the ${DEFAULT_CLUSTER_DESCRIPTION} (\`foresight simulate --cluster\` takes the file).`
            : undefined;
  const hasClusterSyntaxErrors =
    clusterAnalysis?.findings.some(
      (finding) => finding.code.startsWith('yaml-') && severityOf(finding.code) === 'error',
    ) ?? false;
  return { clusterAnalysis, clusterObjects, forcedNotice, hasClusterSyntaxErrors };
}

/** A scope predicted on a profile (the setting `profile:NAME`); an unknown name gives the embedded default. */
function prepareProfile(
  manifests: readonly SourcedObject[],
  version: KubernetesMinor | undefined,
  choice: ClusterChoice & { reason: 'profile' },
): PreparedScope {
  const profile = findProfile(choice.profile);
  const objects = profile === undefined ? null : profileObjects(profile);
  const names = CLUSTER_PROFILES.map((entry) => entry.name).join(', ');
  return {
    input: {
      manifests,
      cluster: objects,
      clusterFile: undefined,
      version,
      forcedNotice:
        profile === undefined
          ? `The setting kubeForesight.cluster names the profile "${choice.profile}", which is not one (${names}); predictions use the ${DEFAULT_CLUSTER_DESCRIPTION}.`
          : undefined,
      hasClusterSyntaxErrors: false,
      ...(profile === undefined ? {} : { clusterName: `profile ${profile.name}` }),
    },
    clusterAnalysis: undefined,
    clusterObjects: objects,
    choice,
  };
}

/**
 * Runs the engine on a scope. A cluster file with errors of its own (or none of its objects read) is not
 * simulated on: the run is made again on the embedded default, keeping the cluster file's errors as findings.
 */
export function simulateScope(
  input: ScopeSimulationInput,
  apiServingOf: ApiServingOf,
  shouldStop?: () => boolean,
): ScopeSimulation {
  const { simulation, clusterNotice } = simulateScopeInFull(input, apiServingOf, shouldStop);
  const podLevelResources = input.version === undefined || isAtLeast(input.version, '1.34');
  return { ...summarizeSimulation(simulation, podLevelResources), clusterNotice };
}

/**
 * The engine's whole result for a scope (records, pods, events), on the cluster file or on the embedded default
 * when the cluster file cannot be used; simulateScope keeps of it what a prediction shows. `shouldStop` abandons
 * the run (engine/sim/run-loop.ts SimulationAbandoned); it never changes a result.
 */
export function simulateScopeInFull(
  input: ScopeSimulationInput,
  apiServingOf: ApiServingOf,
  shouldStop?: () => boolean,
): {
  simulation: SimulationResult;
  clusterNotice: string | undefined;
} {
  const { clusterFile, forcedNotice, version } = input;
  const run = (cluster: readonly SourcedObject[] | null): SimulationResult => {
    // Also asked before a run starts: loading the cluster and admitting the apply come before the first task, and
    // a keystroke right after the validation's publish usually arrives before the worker got this far.
    if (shouldStop?.() === true) {
      throw new SimulationAbandoned(0);
    }
    return simulate({
      manifests: input.manifests,
      cluster,
      ...(input.clusterName !== undefined
        ? { clusterDescription: input.clusterName }
        : clusterFile === undefined
          ? {}
          : { clusterDescription: clusterFile.name }),
      maxPods: MAX_SIMULATED_PODS,
      // A prediction keeps only the drains a budget holds up (prediction-simulation.ts).
      drains: 'budget-held',
      ...(version === undefined ? {} : { version }),
      apiServing: apiServingOf(version ?? DEFAULT_KUBERNETES_VERSION),
      ...(shouldStop === undefined ? {} : { timeline: { shouldStop } }),
    });
  };
  const simulation = run(input.cluster);
  if (forcedNotice !== undefined || clusterFile === undefined) {
    return { simulation, clusterNotice: forcedNotice };
  }
  const clusterErrors = simulation.findings.filter(
    (finding) =>
      finding.object?.file === clusterFile.uri &&
      finding.severity === 'error' &&
      !isPredictedOutcome(finding.code),
  );
  if (clusterErrors.length === 0 && !input.hasClusterSyntaxErrors && input.cluster?.length !== 0) {
    return { simulation, clusterNotice: undefined };
  }
  const fallback = run(null);
  return {
    simulation: { ...fallback, findings: [...clusterErrors, ...fallback.findings] },
    clusterNotice: `The cluster file ${clusterFile.name} has errors; predictions use the ${DEFAULT_CLUSTER_DESCRIPTION} until it is fixed.`,
  };
}

/** The Node objects of a cluster file, `kind: List` and typed lists unwrapped as the engine loads them. */
export function nodeObjectsOf(objects: readonly SourcedObject[]): unknown[] {
  return flattenLists(objects)
    .map((entry) => entry.object)
    .filter((object) => (object as { kind?: unknown } | null)?.kind === 'Node');
}

/** The pods of a capture that run (not Succeeded or Failed). */
function runningPodsOf(objects: readonly SourcedObject[]): number {
  return flattenLists(objects).filter(({ object }) => {
    const pod = object as { kind?: unknown; status?: { phase?: unknown } } | null;
    return pod?.kind === 'Pod' && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
  }).length;
}
