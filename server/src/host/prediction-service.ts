/**
 * Runs the engine on what the user is editing: the manifests of the edited file's folder (recursively, open
 * documents as edited), or the file alone, or the whole workspace (setting kubeForesight.scope), on the cluster
 * file or the embedded default. A cluster file with errors is reported and the embedded cluster is used instead.
 * The last result per scope is kept; it is recomputed only when one of its inputs changed.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Settings } from '../../../protocol/settings';
import type { SourcedObject } from '../engine/model/cluster-load';
import { isPredictedOutcome } from '../engine/controllers/timeline-findings';
import { DEFAULT_CLUSTER_DESCRIPTION, defaultClusterObjects } from '../engine/model/default-cluster';
import type { ObjectSource } from '../engine/model/source';
import { simulate } from '../engine/simulate/simulate';
import type { SimulationResult } from '../engine/simulate/simulate';
import { isAtLeast, isKubernetesMinor } from '../engine/version';
import type { AnalysisContext, AnalyzedDocument, FileAnalysis } from '../language/analyzer';
import { analyzeText } from '../language/analyzer';
import type { Finding } from '../language/findings';
import { severityOf } from '../language/findings';
import { predictionFindings } from '../language/predictions/prediction-findings';
import type { WorkloadPrediction } from '../language/predictions/workload-predictions';
import { buildWorkloadPredictions } from '../language/predictions/workload-predictions';
import { nodeTaintsOf } from '../language/predictions/template-fixes';
import { findClusterFile } from './cluster-file';
import { simulationInputsKey } from './simulation-inputs';
import { FolderFiles } from './folder-files';

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
  /** The engine's result; undefined when the scope was too large to simulate. */
  readonly simulation: SimulationResult | undefined;
  /** Findings of the predictions, by file URI (manifests and the cluster file). */
  readonly findings: ReadonlyMap<string, Finding[]>;
  /**
   * The same findings placed on newer analyses of some of its files (by URI; the others as predicted): a
   * stale prediction shown on an edited text until the new one is ready. Objects are found by document index
   * and path, so an inserted document shifts them until then.
   */
  readonly findingsOn: (
    analyses: ReadonlyMap<string, FileAnalysis>,
    texts?: ReadonlyMap<string, string>,
  ) => Map<string, Finding[]>;
  /** Set when this is the result of an earlier run reused on newer analyses (simulation-inputs.ts): that run. */
  readonly reusedFrom?: Prediction;
  /** The cluster's name for the status bar: "embedded default" or the cluster file's name. */
  readonly clusterName: string;
  /** Set when the cluster file has errors and the embedded default was used instead. */
  readonly clusterNotice?: string;
  /** The cluster file in use, if any. */
  readonly clusterUri?: string;
}

/** A prediction not run yet: see PredictionService.plan. */
export interface PredictionPlan {
  /** The prediction made on the same inputs, if any: then run() returns it at no cost. */
  readonly cached: Prediction | undefined;
  /**
   * The Kubernetes objects run() may give the engine: 0 when it surely runs no simulation (the prediction is
   * cached, or there are too many objects to simulate). run() itself may still find that the engine's inputs
   * did not change and reuse the last simulation (telling so costs a serialisation of the objects, left to run).
   */
  readonly objectCount: number;
  /** Runs the engine (or returns the cached prediction) and caches the result. */
  run(): Prediction;
}

/** Open documents and their analyses, from the language server. */
export interface OpenDocumentSource {
  /** The latest analysis of every open document that has one. */
  openAnalyses(): readonly ScopeFile[];
}

/** Runs and caches predictions per scope. */
export class PredictionService {
  private readonly folderFiles = new FolderFiles();
  /** Per scope: the last prediction, the identities of the analyses it was made from, and its engine inputs. */
  private readonly cache = new Map<
    string,
    {
      fingerprint: string;
      inputsKey: string | undefined;
      prediction: Prediction;
      /** The files it was made from. */
      uris: ReadonlySet<string>;
    }
  >();
  private readonly identities = new WeakMap<object, number>();
  private nextIdentity = 1;
  private workspaceRoots: readonly string[] = [];

  constructor(private readonly open: OpenDocumentSource) {}

  /** The workspace folders (paths), for the 'workspace' scope. */
  setWorkspaceRoots(roots: readonly string[]): void {
    this.workspaceRoots = roots.map((root) => resolve(root));
    this.cache.clear();
  }

  /**
   * The cluster setting as a path: a relative path is relative to the workspace folder that holds the analysed
   * folder (the Select Cluster command writes it that way), else to the analysed folder.
   */
  private resolveClusterSetting(folder: string, setting: string): string {
    if (setting.trim() === '' || isAbsolute(setting)) {
      return setting;
    }
    const root = this.workspaceRoots.find(
      (candidate) => folder === candidate || folder.startsWith(`${candidate}/`),
    );
    return root === undefined ? setting : resolve(root, setting);
  }

  /** The prediction for the scope of a document. */
  predict(
    uri: string,
    settings: Settings,
    context: AnalysisContext,
    trusted: boolean,
  ): Prediction | undefined {
    const plan = this.plan(uri, settings, context, trusted);
    return plan.cached ?? plan.run();
  }

  /**
   * What predict would do for a document, without running the engine: the cached prediction when none of its
   * files changed; else the run, which reuses the last simulation when the engine's inputs are the same
   * (simulation-inputs.ts), and how many objects it may simulate.
   */
  plan(uri: string, settings: Settings, context: AnalysisContext, trusted: boolean): PredictionPlan {
    const scope = this.scopeOf(uri, settings, trusted);
    const files = this.filesOf(scope, context);
    const clusterPath =
      trusted && scope.folder !== undefined
        ? findClusterFile(scope.folder, this.resolveClusterSetting(scope.folder, settings.cluster))
        : undefined;
    const clusterText = clusterPath === undefined ? '' : this.clusterTextOf(clusterPath);
    const fingerprint = [
      settings.kubernetesVersion,
      clusterPath ?? '',
      clusterText.length,
      hashText(clusterText),
      ...files.map((file) => `${file.uri}#${this.identityOf(file.analysis)}`),
    ].join('|');
    const cached = this.cache.get(scope.uri);
    if (cached?.fingerprint === fingerprint) {
      return { cached: cached.prediction, objectCount: 0, run: () => cached.prediction };
    }
    const manifests = files.flatMap((file) => sourcedObjects(file.uri, file.analysis));
    if (manifests.length > MAX_SIMULATED_OBJECTS) {
      return {
        cached: undefined,
        objectCount: 0,
        run: () =>
          this.remember(
            scope.uri,
            fingerprint,
            undefined,
            skippedPrediction(scope.uri, files, manifests.length),
            files,
          ),
      };
    }
    return {
      cached: undefined,
      objectCount: manifests.length,
      run: () => {
        const inputsKey = simulationInputsKey(
          [settings.kubernetesVersion, clusterPath ?? '', clusterText],
          manifests,
        );
        // The engine would be given the same objects: its last result is placed on the files as they are now.
        const prediction =
          cached !== undefined && cached.inputsKey === inputsKey
            ? relocated(cached.prediction, files)
            : this.run(scope.uri, files, manifests, settings, context, clusterPath, clusterText);
        return this.remember(scope.uri, fingerprint, inputsKey, prediction, files);
      },
    };
  }

  private remember(
    scopeUri: string,
    fingerprint: string,
    inputsKey: string | undefined,
    prediction: Prediction,
    files: readonly ScopeFile[],
  ): Prediction {
    const uris = new Set(files.map((file) => file.uri));
    this.cache.set(scopeUri, { fingerprint, inputsKey, prediction, uris });
    return prediction;
  }

  /**
   * Forgets the predictions made with a document that was closed: they hold its analysis (to place their
   * findings), which would otherwise stay in memory as long as the scope is not predicted again.
   */
  forgetDocument(uri: string): void {
    for (const [scopeUri, entry] of this.cache) {
      if (entry.uris.has(uri)) {
        this.cache.delete(scopeUri);
      }
    }
  }

  /** The cluster file's text: the open editor's unsaved contents when it is open, else the file on disk. */
  private clusterTextOf(clusterPath: string): string {
    const path = resolve(clusterPath);
    const open = this.open.openAnalyses().find((file) => pathOf(file.uri) === path);
    return open?.text ?? readTextOrEmpty(path);
  }

  /** The cached prediction of the scope that holds a document, without running anything. */
  cached(uri: string, settings: Settings, trusted: boolean): Prediction | undefined {
    return this.cache.get(this.scopeOf(uri, settings, trusted).uri)?.prediction;
  }

  /** Forgets everything (settings or trust changed). */
  clear(): void {
    this.cache.clear();
    this.folderFiles.clear();
  }

  private run(
    scopeUri: string,
    files: readonly ScopeFile[],
    manifests: readonly SourcedObject[],
    settings: Settings,
    context: AnalysisContext,
    clusterPath: string | undefined,
    clusterText: string,
  ): Prediction {
    const version = isKubernetesMinor(settings.kubernetesVersion) ? settings.kubernetesVersion : undefined;
    const clusterUri = clusterPath === undefined ? undefined : pathToFileURL(clusterPath).href;
    const clusterAnalysis = clusterUri === undefined ? undefined : analyzeText(clusterText, context);
    const clusterObjects =
      clusterUri === undefined || clusterAnalysis === undefined
        ? null
        : sourcedObjects(clusterUri, clusterAnalysis, true);
    const run = (cluster: readonly SourcedObject[] | null): SimulationResult =>
      simulate({
        manifests,
        cluster,
        ...(clusterPath === undefined ? {} : { clusterDescription: basename(clusterPath) }),
        maxPods: MAX_SIMULATED_PODS,
        ...(version === undefined ? {} : { version }),
      });
    const nodeCount = clusterObjects === null ? 0 : countNodes(clusterObjects);
    // A cluster file not read at all (too large, binary, templated) or too large to simulate as you type: the
    // embedded default is used, and the notice says why.
    const forcedNotice =
      clusterPath === undefined
        ? undefined
        : clusterAnalysis?.skipped !== undefined
          ? `The cluster file ${basename(clusterPath)} was not read (${clusterAnalysis.skipped.message}); predictions use the ${DEFAULT_CLUSTER_DESCRIPTION}.`
          : nodeCount > MAX_SIMULATED_NODES
            ? `The cluster file ${basename(clusterPath)} has ${nodeCount.toLocaleString('en-US')} nodes, more than the ${MAX_SIMULATED_NODES.toLocaleString('en-US')} simulated as you type; predictions use the ${DEFAULT_CLUSTER_DESCRIPTION} (\`foresight simulate --cluster\` takes the file).`
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
    const predictions = buildWorkloadPredictions(simulation.records, podLevelResources);
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
      nodeTaints: nodeTaintsOf(usedClusterObjects.map((entry) => entry.object)),
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
        simulation.findings,
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
   * The scope of a document. Folder and workspace scopes need a trusted workspace and a file on disk; with
   * workspace folders open, only files inside one get a folder scope; the filesystem root never does.
   */
  private scopeOf(uri: string, settings: Settings, trusted: boolean): { uri: string; folder?: string } {
    if (!uri.startsWith('file:') || settings.scope === 'file' || !trusted) {
      return { uri };
    }
    const file = pathOf(uri);
    if (file === undefined) {
      return { uri };
    }
    const root = this.workspaceRoots.find((candidate) => file.startsWith(`${candidate}/`));
    if (this.workspaceRoots.length > 0 && root === undefined) {
      return { uri };
    }
    const folder = settings.scope === 'workspace' && root !== undefined ? root : dirname(file);
    if (dirname(folder) === folder) {
      return { uri };
    }
    return { uri: pathToFileURL(folder).href, folder };
  }

  private filesOf(scope: { uri: string; folder?: string }, context: AnalysisContext): ScopeFile[] {
    const open = this.open.openAnalyses();
    if (scope.folder === undefined) {
      return open.filter((file) => file.uri === scope.uri);
    }
    const folder = resolve(scope.folder);
    const openByPath = new Map<string, ScopeFile>();
    for (const file of open) {
      const path = pathOf(file.uri);
      if (path !== undefined && (path === folder || path.startsWith(`${folder}/`))) {
        openByPath.set(path, file);
      }
    }
    const files: ScopeFile[] = [];
    for (const path of this.folderFiles.list(folder)) {
      const openFile = openByPath.get(path);
      if (openFile !== undefined) {
        files.push(openFile);
        openByPath.delete(path);
        continue;
      }
      if (path.includes('/.foresight/')) {
        continue;
      }
      const analysis = this.folderFiles.analyze(path, context);
      if (analysis !== undefined) {
        files.push({ uri: pathToFileURL(path).href, analysis });
      }
    }
    // Open documents not saved yet (or under an ignored name) still count.
    files.push(...openByPath.values());
    return files;
  }

  private identityOf(value: object): number {
    let identity = this.identities.get(value);
    if (identity === undefined) {
      identity = this.nextIdentity++;
      this.identities.set(value, identity);
    }
    return identity;
  }
}

/**
 * A prediction placed on newer analyses of its files (the engine's inputs being the same). It is placed from the
 * run that made it, so that reusing it keystroke after keystroke keeps no chain of older analyses alive.
 */
function relocated(prediction: Prediction, files: readonly ScopeFile[]): Prediction {
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
function skippedPrediction(scopeUri: string, files: readonly ScopeFile[], objectCount: number): Prediction {
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

/**
 * The Kubernetes objects of a file as the engine takes them. Documents with an error are left out of the
 * manifests: the API server would reject them, so they never run. The cluster file keeps every object.
 */
function sourcedObjects(uri: string, analysis: FileAnalysis, keepAll = false): SourcedObject[] {
  return analysis.documents.flatMap((document) => {
    if (!keepAll && document.findings.some((finding) => severityOf(finding.code) === 'error')) {
      return [];
    }
    return document.objects
      .filter(
        (object) =>
          object.path.length > 0 || !isListKind(object.kind) || !Array.isArray(object.value['items']),
      )
      .map((object) => ({
        object: object.value,
        source: { file: uri, documentIndex: document.index, path: [...object.path] },
      }));
  });
}

function isListKind(kind: string): boolean {
  return kind === 'List' || kind.endsWith('List');
}

function pathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) {
    return undefined;
  }
  try {
    return resolve(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

function readTextOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** How many Node objects a cluster file holds (kind: List items included). */
function countNodes(objects: readonly SourcedObject[]): number {
  let count = 0;
  for (const { object } of objects) {
    const record = object as { kind?: unknown; items?: unknown };
    if (record.kind === 'Node') {
      count++;
    } else if (Array.isArray(record.items)) {
      count += record.items.filter(
        (item: unknown) => (item as { kind?: unknown } | null)?.kind === 'Node',
      ).length;
    }
  }
  return count;
}

/** A cheap 32-bit FNV-1a of a text, to notice that a cluster file changed. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
