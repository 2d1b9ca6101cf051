/**
 * One prediction run: the engine on a scope's manifests with the cluster file (or the embedded default when the
 * file has input errors, is not read, or is too large to simulate as you type), and its findings placed on the
 * files; also a run placed again on newer analyses, and the stand-in for a scope too large to simulate.
 */
import type { ClusterChoice } from '../../../../protocol/messages';
import type { Settings } from '../../../../protocol/settings';
import type { SourcedObject } from '../../engine/model/load/cluster-load';
import { defaultClusterObjects } from '../../engine/model/load/default-cluster';
import type { ObjectSource } from '../../engine/model/source';
import type { AnalysisContext, AnalyzedDocument, FileAnalysis } from '../analyzer';
import type { RejectedObject } from '../../engine/admission/rejected';
import type { TextFinding } from '../findings';
import { predictionFindings } from '../predictions/prediction-findings';
import { nodeFactsOf } from '../predictions/landing-nodes';
import type { Prediction, ScopeFile } from './prediction-types';
import { MAX_SIMULATED_OBJECTS } from './prediction-types';
import type { ApiServingOf, ClusterFileRef, PreparedScope, ScopeSimulation } from './scope-simulation';
import { nodeObjectsOf, prepareScope, simulateScope } from './scope-simulation';
import type { Finding } from '../../../../protocol/finding';
import { severityOf } from '../findings';
import { isAtLeast } from '../../engine/version';

/** Runs the engine on a scope's manifests (in this thread) and places the findings on its files. */
export function runPrediction(
  scopeUri: string,
  files: readonly ScopeFile[],
  manifests: readonly SourcedObject[],
  settings: Settings,
  context: AnalysisContext,
  clusterFile: ClusterFileRef | undefined,
  clusterText: string,
  apiServingOf: ApiServingOf,
  readerFindings: readonly Finding[] = [],
  choice?: ClusterChoice,
): Prediction {
  const prepared = prepareScope(
    manifests,
    settings.kubernetesVersion,
    context,
    clusterFile,
    clusterText,
    choice,
  );
  const simulated = simulateScope(prepared.input, apiServingOf);
  return placePrediction(scopeUri, files, prepared, simulated, settings, readerFindings);
}

/**
 * A prediction from a scope's simulation, run here or in the prediction worker: the workloads' predictions and
 * the findings placed on the files.
 */
export function placePrediction(
  scopeUri: string,
  files: readonly ScopeFile[],
  prepared: PreparedScope,
  { simulation, predictions, clusterNotice }: ScopeSimulation,
  settings: Settings,
  readerFindings: readonly Finding[] = [],
): Prediction {
  const { clusterAnalysis, clusterObjects } = prepared;
  const { clusterFile } = prepared.input;
  const clusterUri = clusterFile?.uri;
  const byUri = new Map<string, FileAnalysis>(files.map((file) => [file.uri, file.analysis]));
  if (clusterUri !== undefined && clusterAnalysis !== undefined) {
    byUri.set(clusterUri, clusterAnalysis);
  }
  const texts = new Map(
    files.flatMap((file) => (file.text === undefined ? [] : [[file.uri, file.text] as const])),
  );
  const usedClusterObjects =
    clusterNotice === undefined && clusterObjects !== null ? clusterObjects : defaultClusterObjects();
  const nodeFacts = nodeFactsOf(nodeObjectsOf(usedClusterObjects));
  const fixContext = {
    nodeFacts,
    defaultResources: settings.defaultResources,
    podLevelResources: isAtLeast(settings.kubernetesVersion, '1.34'),
  };
  const findingsOn = (
    current: ReadonlyMap<string, FileAnalysis>,
    currentTexts: ReadonlyMap<string, string> = new Map(),
  ): Map<string, TextFinding[]> => {
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
      simulation.report.cluster,
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
      clusterNotice !== undefined
        ? 'embedded default'
        : (prepared.input.clusterName ?? (clusterFile === undefined ? 'embedded default' : clusterFile.name)),
    clusterChoice: usedCluster(prepared.choice, clusterNotice !== undefined),
    nodeFacts,
    ...(clusterNotice === undefined ? {} : { clusterNotice }),
    ...(clusterUri === undefined ? {} : { clusterUri }),
  };
}

/** The cluster a prediction used: the one chosen, or the embedded default when the chosen one could not be used. */
function usedCluster(choice: ClusterChoice, isUnusable: boolean): ClusterChoice {
  if (!isUnusable) {
    return choice;
  }
  return choice.reason === 'setting' || choice.reason === 'nearest'
    ? { reason: 'embedded', unusable: choice.path }
    : { reason: 'embedded' };
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
  const findings = new Map<string, TextFinding[]>();
  for (const file of files) {
    const first = file.analysis.documents.find((document) => document.objects.length > 0);
    if (first !== undefined) {
      findings.set(file.uri, [
        {
          code: 'predictions-skipped',
          severity: severityOf('predictions-skipped'),
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

/**
 * The refusals of admission as diagnostics on the field that causes them: an error when nothing of the object or
 * workload exists, a warning when some of a workload's replicas do ("1 of 3 replicas of Deployment \"web\" never
 * exist"), or when every replica exists in the end (the refusal held for a while).
 */
function rejectionFindings(rejected: readonly RejectedObject[]): Finding[] {
  const seen = new Set<string>();
  const ownerKey = (entry: RejectedObject): string =>
    `${entry.namespace ?? ''}/${entry.owner?.kind ?? ''}/${entry.owner?.name ?? ''}`;
  const counts = new Map(
    rejected.flatMap((entry) =>
      entry.replicas === undefined ? [] : [[ownerKey(entry), entry.replicas] as const],
    ),
  );
  return rejected.flatMap((entry): Finding[] => {
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
        object: { file: entry.file, documentIndex: entry.documentIndex, path: [...entry.path] },
        path: [],
        message: `Refused by ${by}, ${what}: ${entry.message}`,
        // How many pods the refusal stands for, so a fix can say whether they all fit once admitted.
        ...(entry.plugin === ''
          ? {}
          : {
              data: {
                plugin: entry.plugin,
                desired: String(replicas?.desired ?? 1),
                ...(entry.quotaRoom === undefined ? {} : { quotaRoom: JSON.stringify(entry.quotaRoom) }),
              },
            }),
      },
    ];
  });
}
