/**
 * One prediction run: the engine on a scope's manifests with the cluster file (or the embedded default when the
 * file has input errors, is not read, or is too large to simulate as you type), and its findings placed on the
 * files; also a run placed again on newer analyses, and the stand-in for a scope too large to simulate.
 */
import { isTooLargeForAnalysis, readCaptureText } from '../files/capture-reader';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Settings } from '../../../protocol/settings';
import type { SourcedObject } from '../engine/model/cluster-load';
import { flattenLists } from '../engine/model/cluster-load';
import { isPredictedOutcome } from '../engine/controllers/timeline-findings';
import { DEFAULT_CLUSTER_DESCRIPTION, defaultClusterObjects } from '../engine/model/default-cluster';
import type { ObjectSource } from '../engine/model/source';
import { simulate } from '../engine/simulate/simulate';
import type { SimulationResult } from '../engine/simulate/simulate';
import { DEFAULT_KUBERNETES_VERSION, isAtLeast, isKubernetesMinor } from '../engine/version';
import { apiServingFor } from './analysis-context';
import type { AnalysisContext, AnalyzedDocument, FileAnalysis } from '../language/analyzer';
import { analyzeText } from '../language/analyzer';
import { readManifests } from '../language/manifests/read-manifests';
import type { ReaderFinding } from '../language/manifests/read-manifests';
import type { EngineInputFinding } from '../language/predictions/prediction-findings';
import type { RejectedObject } from '../engine/admission/rejected';
import type { Finding } from '../language/findings';
import { severityOf } from '../language/findings';
import { predictionFindings } from '../language/predictions/prediction-findings';
import { buildWorkloadPredictions } from '../language/predictions/workload-predictions';
import { nodeTaintsOf } from '../language/predictions/template-fixes';
import type { Prediction, ScopeFile } from './prediction-types';
import { MAX_SIMULATED_NODES, MAX_SIMULATED_OBJECTS, MAX_SIMULATED_PODS } from './prediction-types';

/** Runs the engine on a scope's manifests and places the findings on its files. */
export function runPrediction(
  scopeUri: string,
  files: readonly ScopeFile[],
  manifests: readonly SourcedObject[],
  settings: Settings,
  context: AnalysisContext,
  clusterPath: string | undefined,
  clusterText: string,
  readerFindings: readonly ReaderFinding[] = [],
): Prediction {
  const version = isKubernetesMinor(settings.kubernetesVersion) ? settings.kubernetesVersion : undefined;
  const clusterUri = clusterPath === undefined ? undefined : pathToFileURL(clusterPath).href;
  const analysed = clusterUri === undefined ? undefined : analyzeText(clusterText, context);
  // A capture too large for the editing analysis (one List document of a real cluster) is read as data.
  const capture =
    clusterUri === undefined || analysed === undefined || !isTooLargeForAnalysis(analysed)
      ? undefined
      : readCaptureText(clusterUri, clusterText);
  const clusterAnalysis = capture?.ok === true ? undefined : analysed;
  const clusterObjects =
    clusterUri === undefined || analysed === undefined
      ? null
      : capture?.ok === true
        ? capture.objects
        : readManifests([{ id: clusterUri, analysis: analysed }], { keepAll: true }).objects;
  const run = (cluster: readonly SourcedObject[] | null): SimulationResult =>
    simulate({
      manifests,
      cluster,
      ...(clusterPath === undefined ? {} : { clusterDescription: basename(clusterPath) }),
      maxPods: MAX_SIMULATED_PODS,
      ...(version === undefined ? {} : { version }),
      apiServing: apiServingFor(version ?? DEFAULT_KUBERNETES_VERSION),
    });
  const nodeCount = clusterObjects === null ? 0 : nodeObjectsOf(clusterObjects).length;
  const podCount = clusterObjects === null ? 0 : runningPodsOf(clusterObjects);
  // A cluster file not read at all (too large, binary, templated) or too large to simulate as you type: the
  // embedded default is used, and the notice says why.
  const forcedNotice =
    clusterPath === undefined
      ? undefined
      : clusterAnalysis?.skipped !== undefined
        ? `The cluster file ${basename(clusterPath)} was not read (${clusterAnalysis.skipped.message}); predictions use the ${DEFAULT_CLUSTER_DESCRIPTION}.`
        : capture?.ok === false
          ? `The cluster file ${basename(clusterPath)} was not read (${capture.message}); predictions use the ${DEFAULT_CLUSTER_DESCRIPTION}.`
          : nodeCount > MAX_SIMULATED_NODES
            ? `The cluster file ${basename(clusterPath)} has ${nodeCount.toLocaleString('en-US')} nodes, more than the ${MAX_SIMULATED_NODES.toLocaleString('en-US')} simulated as you type; predictions use the ${DEFAULT_CLUSTER_DESCRIPTION} (\`foresight simulate --cluster\` takes the file).`
            : podCount > MAX_SIMULATED_PODS
              ? `The cluster file ${basename(clusterPath)} runs ${podCount.toLocaleString('en-US')} pods, more than the ${MAX_SIMULATED_PODS.toLocaleString('en-US')} simulated as you type; predictions use the ${DEFAULT_CLUSTER_DESCRIPTION} (\`foresight simulate --cluster\` takes the file: 1,000 nodes and 20,000 pods in about 2 s).`
              : undefined;
  let simulation = run(forcedNotice === undefined ? clusterObjects : null);
  let clusterNotice: string | undefined = forcedNotice;
  const clusterErrors =
    clusterUri === undefined || forcedNotice !== undefined
      ? []
      : simulation.findings.filter(
          (finding) =>
            finding.source.file === clusterUri &&
            finding.severity === 'error' &&
            !isPredictedOutcome(finding.code),
        );
  const clusterSyntaxErrors =
    clusterAnalysis?.findings.filter(
      (finding) => finding.code.startsWith('yaml-') && severityOf(finding.code) === 'error',
    ) ?? [];
  if (
    forcedNotice === undefined &&
    clusterPath !== undefined &&
    (clusterErrors.length > 0 || clusterSyntaxErrors.length > 0 || clusterObjects?.length === 0)
  ) {
    clusterNotice = `The cluster file ${basename(clusterPath)} has errors; predictions use the ${DEFAULT_CLUSTER_DESCRIPTION} until it is fixed.`;
    const fallback = run(null);
    simulation = { ...fallback, findings: [...clusterErrors, ...fallback.findings] };
  }
  const podLevelResources = version === undefined || isAtLeast(version, '1.34');
  const predictions = buildWorkloadPredictions(
    simulation.records,
    podLevelResources,
    simulation.report.pods.map((pod) => pod.waiting),
  );
  const byUri = new Map<string, FileAnalysis>(files.map((file) => [file.uri, file.analysis]));
  if (clusterUri !== undefined && clusterAnalysis !== undefined) {
    byUri.set(clusterUri, clusterAnalysis);
  }
  const texts = new Map(
    files.flatMap((file) => (file.text === undefined ? [] : [[file.uri, file.text] as const])),
  );
  const usedClusterObjects =
    clusterNotice === undefined && clusterObjects !== null ? clusterObjects : defaultClusterObjects();
  const fixContext = {
    nodeTaints: nodeTaintsOf(nodeObjectsOf(usedClusterObjects)),
    defaultResources: settings.defaultResources,
  };
  const findingsOn = (
    current: ReadonlyMap<string, FileAnalysis>,
    currentTexts: ReadonlyMap<string, string> = new Map(),
  ): Map<string, Finding[]> => {
    const locate = (
      source: ObjectSource,
    ): { fileId: string; document: AnalyzedDocument; text?: string } | undefined => {
      const newer = current.get(source.file);
      const document = (newer ?? byUri.get(source.file))?.documents[source.documentIndex];
      // Quick fixes need the text their offsets refer to: that of the analysis the finding is placed on.
      const text = newer === undefined ? texts.get(source.file) : currentTexts.get(source.file);
      return document === undefined
        ? undefined
        : { fileId: source.file, document, ...(text === undefined ? {} : { text }) };
    };
    return predictionFindings(
      predictions,
      [...readerFindings, ...simulation.findings, ...rejectionFindings(simulation.report.rejected)],
      locate,
      simulation.report.cluster.nodes,
      simulation.report.rollouts ?? [],
      fixContext,
    );
  };
  const findings = findingsOn(new Map());
  return {
    scopeUri,
    predictions,
    simulation,
    findings,
    findingsOn,
    clusterName:
      clusterNotice !== undefined || clusterPath === undefined ? 'embedded default' : basename(clusterPath),
    ...(clusterNotice === undefined ? {} : { clusterNotice }),
    ...(clusterUri === undefined ? {} : { clusterUri }),
  };
}

/**
 * A prediction placed on newer analyses of its files (the engine's inputs being the same). It is placed from the
 * run that made it, so that reusing it keystroke after keystroke keeps no chain of older analyses alive.
 */
export function relocated(prediction: Prediction, files: readonly ScopeFile[]): Prediction {
  const run = prediction.reusedFrom ?? prediction;
  const current = new Map(files.map((file) => [file.uri, file.analysis]));
  const texts = new Map(
    files.flatMap((file) => (file.text === undefined ? [] : [[file.uri, file.text] as const])),
  );
  return {
    ...run,
    findings: run.findingsOn(current, texts),
    findingsOn: (newer, newerTexts) =>
      run.findingsOn(
        new Map([...current, ...newer]),
        // A file placed on a newer analysis keeps a text only if one comes with it (offsets must match).
        new Map([
          ...[...texts].filter(([uri]) => !newer.has(uri)),
          ...(newerTexts ?? new Map<string, string>()),
        ]),
      ),
    reusedFrom: run,
  };
}

/** A prediction that was not run because the scope is too large: one information finding per file. */
export function skippedPrediction(
  scopeUri: string,
  files: readonly ScopeFile[],
  objectCount: number,
): Prediction {
  const findings = new Map<string, Finding[]>();
  for (const file of files) {
    const first = file.analysis.documents.find((document) => document.objects.length > 0);
    if (first !== undefined) {
      findings.set(file.uri, [
        {
          code: 'predictions-skipped',
          message: `${objectCount.toLocaleString('en-US')} Kubernetes objects are analysed together here, more than the ${MAX_SIMULATED_OBJECTS.toLocaleString('en-US')} simulated as you type, so predictions are off here${files.length > 1 ? ' (kubeForesight.scope "file" narrows what is analysed together)' : ''}; \`foresight simulate\` has no such limit.`,
          start: first.offset,
          end: first.offset,
        },
      ]);
    }
  }
  return {
    scopeUri,
    predictions: [],
    simulation: undefined,
    findings,
    findingsOn: () => findings,
    clusterName: 'not simulated',
  };
}

/** The Node objects of a cluster file, `kind: List` and typed lists unwrapped as the engine loads them. */
/** The pods of a capture that run (not Succeeded or Failed). */
function runningPodsOf(objects: readonly SourcedObject[]): number {
  return flattenLists(objects).filter(({ object }) => {
    const pod = object as { kind?: unknown; status?: { phase?: unknown } } | null;
    return pod?.kind === 'Pod' && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
  }).length;
}

function nodeObjectsOf(objects: readonly SourcedObject[]): unknown[] {
  return flattenLists(objects)
    .map((entry) => entry.object)
    .filter((object) => (object as { kind?: unknown } | null)?.kind === 'Node');
}

/**
 * The refusals of admission as diagnostics on the field that causes them: an error when nothing of the object or
 * workload exists, a warning when some of a workload's replicas do ("1 of 3 replicas of Deployment \"web\" never
 * exist"), or when every replica exists in the end (the refusal held for a while).
 */
function rejectionFindings(rejected: readonly RejectedObject[]): EngineInputFinding[] {
  const seen = new Set<string>();
  const ownerKey = (entry: RejectedObject): string =>
    `${entry.namespace ?? ''}/${entry.owner?.kind ?? ''}/${entry.owner?.name ?? ''}`;
  const counts = new Map(
    rejected.flatMap((entry) =>
      entry.replicas === undefined ? [] : [[ownerKey(entry), entry.replicas] as const],
    ),
  );
  return rejected.flatMap((entry): EngineInputFinding[] => {
    // A kind not served is already an error of the validation (removed-api-version, unknown-kind).
    if (entry.stage === 'discovery') {
      return [];
    }
    const key = `${entry.file}#${entry.documentIndex}#${entry.path.join('.')}#${entry.message}`;
    if (seen.has(key)) {
      return [];
    }
    seen.add(key);
    const by = entry.plugin === '' ? 'the API server' : entry.plugin;
    const replicas = entry.owner === undefined ? undefined : counts.get(ownerKey(entry));
    const countable = entry.owner?.kind === 'ReplicaSet' || entry.owner?.kind === 'StatefulSet';
    let what: string;
    let severity: 'error' | 'warning' = 'error';
    if (entry.owner === undefined) {
      what = `so ${entry.kind} "${entry.name}" never exists`;
    } else if (replicas !== undefined) {
      const missing = replicas.desired - replicas.created;
      const workload = `${replicas.workload.kind} "${replicas.workload.name}"`;
      what =
        replicas.created === 0
          ? `so no pod of ${workload} exists (${replicas.desired} desired)`
          : `so ${missing} of ${replicas.desired} replicas of ${workload} never exist`;
      severity = replicas.created === 0 ? 'error' : 'warning';
    } else if (countable) {
      what = `for a while: the pods of ${entry.owner.kind} "${entry.owner.name}" are all created in the end`;
      severity = 'warning';
    } else {
      what = `so the pods of ${entry.owner.kind} "${entry.owner.name}" never exist`;
    }
    return [
      {
        code: severity === 'error' ? 'admission-refused' : 'admission-refused-partly',
        severity,
        source: { file: entry.file, documentIndex: entry.documentIndex, path: [...entry.path] },
        path: [],
        message: `Refused by ${by}, ${what}: ${entry.message}`,
        ...(entry.plugin === '' ? {} : { data: { plugin: entry.plugin } }),
      },
    ];
  });
}
