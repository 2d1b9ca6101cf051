/**
 * Runs the engine on what the user is editing: the manifests of the edited file's folder (recursively, open
 * documents as edited), or the file alone, or the whole workspace (setting kubeForesight.scope), on the cluster
 * file or the embedded default. A cluster file with errors is reported and the embedded cluster is used instead.
 * The last result per scope is kept; it is recomputed only when one of its inputs changed.
 */
import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ClusterChoice } from '../../../protocol/messages';
import type { Settings } from '../../../protocol/settings';
import { PROFILE_SETTING_PREFIX } from '../../../protocol/settings';
import type {
  AnalysisContext,
  ClusterFileRef,
  LanguageService,
  Prediction,
  PredictionPlan,
  ScopeFile,
  ScopeSimulator,
} from '../language/service';
import { MAX_SIMULATED_OBJECTS } from '../language/service';
import { chooseCluster, resolveClusterSetting } from './cluster-file';
import type { ClusterText } from './cluster-texts';
import { ClusterTexts } from './cluster-texts';
import { FolderFiles } from './folder-files';
import type { OpenText } from './gitops-scopes';
import { GitopsScopes, readAsUnit } from './gitops-scopes';
import type { GitopsUnit } from '../files/gitops/gitops-units';
import { appendAll } from '../../../protocol/collections';

/** Open documents and their analyses, from the language server. */
export interface OpenDocumentSource {
  /** The latest analysis of every open document that has one. */
  openAnalyses(): readonly ScopeFile[];
}

/**
 * What is predicted together: a folder (recursively, as `kubectl apply -R -f`), or the files of the GitOps unit
 * that applies the document (with its namespace and the cluster nearest its definition), or the document alone.
 */
interface Scope {
  readonly uri: string;
  readonly folder?: string;
  readonly gitops?: GitopsUnit;
  /** The files of a GitOps unit that reads plain files (Argo CD's directory, Flux's generated kustomization). */
  readonly unitFiles?: readonly string[];
}

/** Runs and caches predictions per scope. */
export class PredictionService {
  private readonly folderFiles: FolderFiles;
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
  /**
   * The manifests read for the last fingerprint planned, and their engine inputs' key once computed: a large
   * scope's version is planned twice (the pending count, then the run), and reading 1,000 objects and keying them
   * is most of a plan's time.
   */
  private lastRead:
    { fingerprint: string; read: ReturnType<LanguageService['readObjects']>; inputsKey?: string } | undefined;
  /** The cluster files' texts, read again only when they changed on disk. */
  private readonly clusterTexts = new ClusterTexts();
  private readonly identities = new WeakMap<object, number>();
  private nextIdentity = 1;
  private workspaceRoots: readonly string[] = [];

  constructor(
    private readonly open: OpenDocumentSource,
    private readonly service: LanguageService,
    /** The workspace's GitOps units (shared with the timeline panel's request). */
    private readonly gitops: GitopsScopes = new GitopsScopes(),
  ) {
    this.folderFiles = new FolderFiles(service);
  }

  /** The workspace folders (paths), for the 'workspace' scope. */
  setWorkspaceRoots(roots: readonly string[]): void {
    this.workspaceRoots = roots.map((root) => resolve(root));
    this.gitops.setWorkspaceRoots(this.workspaceRoots);
    this.cache.clear();
  }

  /**
   * The cluster setting as a path: a relative path is relative to the workspace folder that holds the analysed
   * folder (the Select Cluster command writes it that way), else to the analysed folder.
   */
  private resolveClusterSetting(folder: string, setting: string): string {
    return resolveClusterSetting(folder, setting, this.workspaceRoots);
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
   * The prediction for the scope of a document, its engine run by a simulator (the prediction worker); undefined
   * when the simulator dropped the run for a newer one.
   */
  predictWith(
    uri: string,
    settings: Settings,
    context: AnalysisContext,
    trusted: boolean,
    simulator: ScopeSimulator,
    isWanted?: () => boolean,
  ): Promise<Prediction | undefined> {
    return this.plan(uri, settings, context, trusted).runWith(simulator, isWanted);
  }

  /** The cluster the predictions of a document use, and why (the status bar's and the picker's). */
  clusterChoiceOf(uri: string, settings: Settings, trusted: boolean): ClusterChoice {
    return this.choiceOf(this.scopeOf(uri, settings, trusted), settings, trusted);
  }

  /** A scope's cluster: a GitOps unit's is looked up from its definition's folder, as `foresight simulate` does. */
  private choiceOf(scope: Scope, settings: Settings, trusted: boolean): ClusterChoice {
    const unit = scope.gitops;
    if (!trusted || scope.folder === undefined) {
      return { reason: 'embedded' };
    }
    return withAppliedBy(
      chooseCluster(
        unit === undefined ? scope.folder : dirname(unit.definition.file),
        this.resolveClusterSetting(scope.folder, settings.cluster),
      ),
      unit === undefined ? undefined : this.definitionOf(unit),
    );
  }

  /**
   * What predict would do for a document, without running the engine: the cached prediction when none of its
   * files changed; else the run, which reuses the last simulation when the engine's inputs are the same
   * (simulation-inputs.ts), and how many objects it may simulate. `analysed` is the document as analysed when
   * that is no longer its current version (an open prepared after an edit arrived): the open documents count
   * only at their current version, which would leave it out and read its file on disk instead.
   */
  plan(
    uri: string,
    settings: Settings,
    context: AnalysisContext,
    trusted: boolean,
    analysed?: ScopeFile,
  ): PredictionPlan {
    const scope = this.scopeOf(uri, settings, trusted);
    const files = this.filesOf(scope, context, analysed);
    const unit = scope.gitops;
    const definition = unit === undefined ? undefined : this.definitionOf(unit);
    const choice = this.choiceOf(scope, settings, trusted);
    const described = (prediction: Prediction): Prediction =>
      unit === undefined || definition === undefined
        ? prediction
        : { ...prediction, gitopsUnit: { definition, namespace: unit.namespace } };
    const clusterPath = choice.reason === 'setting' || choice.reason === 'nearest' ? choice.path : undefined;
    // A profile has no text: its name stands for it in the fingerprint and the worker's held cluster.
    const profileText = choice.reason === 'profile' ? `${PROFILE_SETTING_PREFIX}${choice.profile}` : '';
    const {
      text: clusterText,
      key: clusterKey,
      objectBound: clusterObjects,
    } = clusterPath !== undefined
      ? this.clusterTextOf(clusterPath)
      : { text: profileText, key: profileText, objectBound: 0 };
    const fingerprint = [
      settings.kubernetesVersion,
      definition ?? '',
      unit?.namespace === undefined ? '' : `${unit.namespace.name}:${String(unit.namespace.overrides)}`,
      clusterPath ?? '',
      clusterKey,
      ...files.map((file) => `${file.uri}#${this.identityOf(file.analysis)}`),
    ].join('|');
    const cached = this.cache.get(scope.uri);
    if (cached?.fingerprint === fingerprint) {
      return {
        cached: cached.prediction,
        objectCount: 0,
        run: () => cached.prediction,
        runWith: () => Promise.resolve(cached.prediction),
        prepare: () => undefined,
      };
    }
    // The one manifest reader: documents with errors left out, lists unwrapped, duplicates resolved.
    const applied = unit === undefined ? {} : readAsUnit(unit);
    const lastRead =
      this.lastRead?.fingerprint === fingerprint
        ? this.lastRead
        : {
            fingerprint,
            read: this.service.readObjects(
              files.map((file) => ({ ...file, id: file.uri, ...applied })),
              { display: (uri) => (uri.startsWith('file:') ? basename(fileURLToPath(uri)) : uri) },
            ),
          };
    this.lastRead = lastRead;
    const { read } = lastRead;
    const manifests = read.objects;
    if (manifests.length > MAX_SIMULATED_OBJECTS) {
      const run = (): Prediction =>
        this.remember(
          scope.uri,
          fingerprint,
          undefined,
          described(this.service.skippedPrediction(scope.uri, files, manifests.length)),
          files,
        );
      return {
        cached: undefined,
        objectCount: 0,
        run,
        runWith: () => Promise.resolve(run()),
        prepare: () => undefined,
      };
    }
    const inputsKeyOf = (): string =>
      (lastRead.inputsKey ??= this.service.simulationInputsKey(
        [settings.kubernetesVersion, clusterPath ?? '', clusterKey],
        manifests,
      ));
    // The engine would be given the same objects: its last result is placed on the files as they are now.
    const reused = (inputsKey: string): Prediction | undefined =>
      cached !== undefined && cached.inputsKey === inputsKey
        ? this.service.relocatePrediction(cached.prediction, files)
        : undefined;
    return {
      cached: undefined,
      // A large cluster file weighs as much as the manifests: the run goes to the worker even for one manifest.
      objectCount: manifests.length + clusterObjects,
      run: () => {
        const inputsKey = inputsKeyOf();
        const prediction = described(
          reused(inputsKey) ??
            this.service.runPrediction(
              scope.uri,
              files,
              manifests,
              settings,
              context,
              clusterFileRef(clusterPath),
              clusterText,
              read.findings,
              choice,
            ),
        );
        return this.remember(scope.uri, fingerprint, inputsKey, prediction, files);
      },
      runWith: async (simulator, isWanted) => {
        // Without a keyed prediction to reuse (the first run after an open), the key is only remembered: it is
        // computed once the request is posted, while the worker runs, rather than before.
        const reuse = cached?.inputsKey === undefined ? undefined : reused(inputsKeyOf());
        if (reuse !== undefined) {
          return this.remember(scope.uri, fingerprint, inputsKeyOf(), described(reuse), files);
        }
        const prepared = this.service.prepareScope(
          manifests,
          settings.kubernetesVersion,
          context,
          clusterFileRef(clusterPath),
          clusterText,
          choice,
        );
        const simulating = simulator.simulate(scope.uri, prepared.input, clusterText, isWanted);
        const inputsKey = inputsKeyOf();
        const simulated = await simulating;
        if (simulated === undefined) {
          return undefined;
        }
        const prediction = described(
          this.service.placePrediction(scope.uri, files, prepared, simulated, settings, read.findings),
        );
        return this.remember(scope.uri, fingerprint, inputsKey, prediction, files);
      },
      prepare: (simulator) => {
        inputsKeyOf();
        simulator.recognize?.(manifests);
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
    this.lastRead = undefined;
    for (const [scopeUri, entry] of this.cache) {
      if (entry.uris.has(uri)) {
        this.cache.delete(scopeUri);
      }
    }
  }

  /** The cluster file's text: the open editor's unsaved contents when it is open, else the file on disk. */
  private clusterTextOf(clusterPath: string): ClusterText {
    const path = resolve(clusterPath);
    const open = this.open.openAnalyses().find((file) => pathOf(file.uri) === path);
    return this.clusterTexts.read(path, open?.text);
  }

  /** The cached prediction of the scope that holds a document, without running anything. */
  cached(uri: string, settings: Settings, trusted: boolean): Prediction | undefined {
    return this.cache.get(this.scopeOf(uri, settings, trusted).uri)?.prediction;
  }

  /** Forgets everything (settings or trust changed). */
  clear(): void {
    this.cache.clear();
    this.lastRead = undefined;
    this.folderFiles.clear();
    this.gitops.clear();
  }

  /** A GitOps unit's definition as the hover and the cluster picker name it: kind, name, file:line. */
  private definitionOf(unit: GitopsUnit): string {
    const file = unit.definition.file;
    const root = this.workspaceRoots.find((candidate) => file.startsWith(`${candidate}/`));
    const shown = root === undefined ? file : relative(root, file);
    const kind = unit.kind === 'Application' ? 'Argo CD Application' : 'Flux Kustomization';
    return `${kind} ${unit.name} (${shown}:${unit.definition.start.line + 1})`;
  }

  /**
   * The scope of a document. Folder and workspace scopes need a trusted workspace and a file on disk; with
   * workspace folders open, only files inside one get a folder scope; the filesystem root never does.
   */
  private scopeOf(uri: string, settings: Settings, trusted: boolean): Scope {
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
    // A file a GitOps unit applies is predicted with that unit (the workspace scope is one apply of everything).
    const gitops = settings.scope === 'workspace' ? undefined : this.gitops.unitOf(file, this.openTexts());
    if (gitops !== undefined && gitops.files.includes(file)) {
      return {
        uri: pathToFileURL(gitops.folder).href,
        folder: gitops.folder,
        gitops,
        unitFiles: gitops.files,
      };
    }
    return { uri: pathToFileURL(folder).href, folder, ...(gitops === undefined ? {} : { gitops }) };
  }

  /** The open documents on disk with their texts (a GitOps definition being edited counts as edited). */
  private openTexts(): OpenText[] {
    return this.open.openAnalyses().flatMap((file) => {
      const path = pathOf(file.uri);
      return path === undefined || file.text === undefined
        ? []
        : [{ path, text: file.text, version: file.analysis }];
    });
  }

  private filesOf(scope: Scope, context: AnalysisContext, analysed?: ScopeFile): ScopeFile[] {
    const open =
      analysed === undefined
        ? this.open.openAnalyses()
        : [...this.open.openAnalyses().filter((file) => file.uri !== analysed.uri), analysed];
    if (scope.folder === undefined) {
      return open.filter((file) => file.uri === scope.uri);
    }
    const folder = resolve(scope.folder);
    const unitFiles = scope.unitFiles === undefined ? undefined : new Set(scope.unitFiles);
    const openByPath = new Map<string, ScopeFile>();
    for (const file of open) {
      const path = pathOf(file.uri);
      if (
        path !== undefined &&
        (unitFiles === undefined ? path === folder || path.startsWith(`${folder}/`) : unitFiles.has(path))
      ) {
        openByPath.set(path, file);
      }
    }
    const files: ScopeFile[] = [];
    for (const path of scope.unitFiles ?? this.folderFiles.list(folder)) {
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
    appendAll(files, openByPath.values());
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

/** A cluster choice made for a GitOps unit names its definition, from whose folder the cluster was looked up. */
function withAppliedBy(choice: ClusterChoice, definition: string | undefined): ClusterChoice {
  return definition !== undefined && (choice.reason === 'nearest' || choice.reason === 'embedded')
    ? { ...choice, appliedBy: definition }
    : choice;
}

/** The cluster file at a path as the service names it: its URI and its base name. */
export function clusterFileRef(path: string | undefined): ClusterFileRef | undefined {
  return path === undefined ? undefined : { uri: pathToFileURL(path).href, name: basename(path), path };
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
