/**
 * What the editor's panels simulate for a folder: its manifests read the way `foresight simulate -R DIR` reads
 * them (the one manifest reader; open documents as edited), and the cluster the editor chooses for it (the
 * `kubeForesight.cluster` setting, else the nearest `.foresight/cluster.yaml` at or above the folder, else the
 * embedded default cluster). The timeline panel's request (simulation-request.ts) and the Preview Apply panel's
 * (plan-request.ts) read a folder through this one function, so the plan and the timeline it links to are of the
 * same input. A file or folder a GitOps unit of the workspace applies is read as that unit (its files, its
 * namespace, the cluster nearest its definition: gitops-scopes.ts), as the predictions read it. A folder holding
 * a kustomization no other includes is read as its render, as `kubectl apply -k` applies it (kustomization-input.ts);
 * a kustomize base is read as written, with the overlays that include it. Expected failures (not a folder, no
 * manifests, a cluster file that cannot be read, a kustomization that cannot be rendered) are answers.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ClusterChoice } from '../../../protocol/messages';
import type { Settings } from '../../../protocol/settings';
import type { PanelLeftOut, PanelOverlay } from '../../../protocol/webview-messages';
import { collectManifestFiles } from '../files/manifest-files';
import { KustomizeRoles } from '../files/kustomize-roles';
import type { Finding, InputFile, LanguageService, SourcedObject } from '../language/service';
import { findProfile, profileObjects } from '../language/service';
import { chooseCluster, resolveClusterSetting } from './cluster-file';
import { withClusterVersion } from './cluster-version';
import type { GitopsScopes } from './gitops-scopes';
import { readAsUnit } from './gitops-scopes';
import { readKustomizationFolder } from './kustomization-input';
import type { KustomizationRead, PanelRenders } from './kustomization-input';

/** What reading a folder needs from the language server. */
export interface FolderInputContext {
  /** The open documents (their text wins over the file on disk). */
  openDocuments(): readonly { readonly uri: string; getText(): string }[];
  /** The settings that apply to a URI. */
  settingsFor(uri: string): Promise<Settings>;
  /** The server's language service. */
  readonly service: LanguageService;
  /** The workspace folders (paths): a relative cluster setting is relative to the one holding the folder. */
  workspaceRoots?(): readonly string[];
  /** The workspace's GitOps units: a file or folder one applies is read as that unit applies it. */
  readonly gitops?: GitopsScopes;
  /** The editor's kustomize renders (a kustomization folder is read as its render); absent when untrusted. */
  readonly renders?: PanelRenders | undefined;
}

/** A folder read: its manifests and its cluster. */
export interface FolderInput {
  readonly ok: true;
  readonly folder: string;
  readonly settings: Settings;
  /** Each file read, by URI. */
  readonly texts: ReadonlyMap<string, string>;
  /** The manifests' files (ids are file URIs), analysed. */
  readonly manifestFiles: readonly InputFile[];
  /** The objects applied, and the reader's findings. */
  readonly manifests: readonly SourcedObject[];
  readonly readerFindings: readonly Finding[];
  /** Documents left out for an error the API server would refuse. */
  readonly leftOut: readonly PanelLeftOut[];
  /** Files (URIs) whose workloads' selector a kustomization including them supplies (a kustomize base). */
  readonly selectorFromOverlay: readonly string[];
  /** The kustomizations that include the folder, when it holds a kustomize base (read as written). */
  readonly includedBy: readonly PanelOverlay[];
  /** The kustomization (as labelled) whose render was read, when the folder holds one no other includes. */
  readonly renderOf?: string;
  /** The cluster chosen, and why. */
  readonly choice: ClusterChoice;
  /** The cluster's objects, or null for the embedded default. */
  readonly cluster: readonly SourcedObject[] | null;
  /** The cluster as named to the user: the cluster file's name or `profile NAME`; undefined for the default. */
  readonly clusterDescription: string | undefined;
  /** The cluster file, analysed, when it was analysed (a finding of it is placed on it). */
  readonly clusterFiles: readonly InputFile[];
}

/** The most manifest files read from one folder. */
const MAX_FILES = 2000;

/** Reads the folder of `params.uri` (untrusted), or says why it cannot be simulated. */
export async function readFolderInput(
  params: unknown,
  context: FolderInputContext,
): Promise<FolderInput | { readonly ok: false; readonly message: string }> {
  const uri = typeof params === 'object' && params !== null ? (params as { uri?: unknown }).uri : undefined;
  if (typeof uri !== 'string' || !uri.startsWith('file:')) {
    return { ok: false, message: 'The simulation needs a file or folder on disk.' };
  }
  const requested = fileURLToPath(uri);
  let folder = requested;
  const stats = statSync(folder, { throwIfNoEntry: false });
  if (stats === undefined) {
    return { ok: false, message: `${folder} does not exist.` };
  }
  if (!stats.isDirectory()) {
    folder = dirname(folder);
  }
  const folderSettings = await context.settingsFor(pathToFileURL(folder).href);
  const open = new Map(context.openDocuments().flatMap((document) => openEntry(document)));
  // A file (or folder) a GitOps unit applies is read as the predictions read it: that unit's files.
  const openTexts = [...open].map(([path, text]) => ({ path, text }));
  const unit = stats.isDirectory()
    ? context.gitops?.unitOfFolder(folder, openTexts)
    : context.gitops?.unitOf(requested, openTexts);
  // Its plain files (Argo CD's directory, Flux's generated kustomization) are read from its folder; a file in a
  // kustomization it renders keeps its own folder, as the predictions keep it.
  if (unit !== undefined && unit.files.includes(resolve(requested))) {
    folder = unit.folder;
  }
  // The cluster the status bar names: a relative setting is resolved as the predictions resolve it; a GitOps
  // unit's is the one nearest its definition. A capture's own Kubernetes version applies when the user did not
  // set one, as the predictions and the CLI apply it.
  const choice = chooseCluster(
    unit === undefined ? folder : dirname(unit.definition.file),
    resolveClusterSetting(folder, folderSettings.cluster, context.workspaceRoots?.() ?? []),
  );
  const clusterFile = choice.reason === 'setting' || choice.reason === 'nearest' ? choice.path : undefined;
  const settings = withClusterVersion(folderSettings, clusterFile);
  const maxLength = settings.maxFileSizeKB * 1024;
  const texts = new Map<string, string>();
  const { service } = context;
  const analysisContext = service.analysisContext(settings.kubernetesVersion, maxLength);
  const kustomizeRoles = new KustomizeRoles(service, true);
  const analysed = (file: string): InputFile[] => {
    const href = pathToFileURL(file).href;
    const text = open.get(resolve(file)) ?? readText(file);
    if (text === undefined || text.length > maxLength) {
      return [];
    }
    texts.set(href, text);
    const fileContext = service.contextForFile(analysisContext, {
      kustomizeRole: kustomizeRoles.roleOf(file),
    });
    return [
      { id: href, text, lines: service.lineIndex(text), analysis: service.analyzeText(text, fileContext) },
    ];
  };
  const plainUnitFiles =
    unit !== undefined && unit.files.length > 0 && unit.folder === folder ? unit.files : undefined;
  const readAs = unit === undefined ? {} : readAsUnit(unit);
  // A kustomization is applied as its render (kubectl apply -k), as `foresight simulate DIR` reads it.
  const kustomize: KustomizationRead =
    plainUnitFiles === undefined
      ? await readKustomizationFolder(folder, {
          service,
          settings,
          openTexts: open,
          roots: context.workspaceRoots?.() ?? [],
          renders: context.renders,
          readAs,
        })
      : { kind: 'plain' };
  if (kustomize.kind === 'failed') {
    return { ok: false, message: kustomize.message };
  }
  const files =
    kustomize.kind === 'rendered'
      ? []
      : (plainUnitFiles ?? collectManifestFiles([folder], folder, { recursive: true }).files)
          .filter((file) => !file.includes('/.foresight/'))
          .slice(0, MAX_FILES);
  // The one manifest reader, as `foresight simulate -R DIR` and the editor's predictions read the folder.
  const manifestFiles = kustomize.kind === 'rendered' ? [...kustomize.files] : files.flatMap(analysed);
  if (kustomize.kind === 'rendered') {
    manifestFiles.forEach((file) => texts.set(file.id, file.text));
  }
  const read = service.readObjects(manifestFiles.map((file) => ({ ...file, ...readAs })));
  const linesOf = new Map(manifestFiles.map((file) => [file.id, file.lines]));
  const leftOut = service.leftOutDocuments(manifestFiles, (file) => linesOf.get(file));
  const selectorFromOverlay = files
    .filter((file) => kustomizeRoles.roleOf(file)?.selectorSupplied === true)
    .map((file) => pathToFileURL(file).href);
  if (read.objects.length === 0) {
    return {
      ok: false,
      message: nothingToApply(
        kustomize.kind === 'rendered' ? `the render of ${kustomize.label}` : basename(folder),
        leftOut,
      ),
    };
  }
  const profile = choice.reason === 'profile' ? findProfile(choice.profile) : undefined;
  let cluster: readonly SourcedObject[] | null = profile === undefined ? null : profileObjects(profile);
  let clusterFiles: InputFile[] = [];
  if (clusterFile !== undefined) {
    const inEditor = analysed(clusterFile);
    if (inEditor.length > 0 && !inEditor.some((file) => service.isTooLargeForAnalysis(file.analysis))) {
      cluster = service.readObjects(inEditor, { keepAll: true }).objects;
      clusterFiles = inEditor;
    } else {
      // A capture too large for the editing analysis is read as data (files/capture-reader.ts).
      const text = open.get(resolve(clusterFile)) ?? readText(clusterFile);
      const capture =
        text === undefined
          ? ({ ok: false, message: 'it cannot be read' } as const)
          : service.readCapture(pathToFileURL(clusterFile).href, text);
      if (!capture.ok) {
        return {
          ok: false,
          message: `The cluster file ${basename(clusterFile)} was not read: ${capture.message}.`,
        };
      }
      cluster = capture.objects;
    }
  }
  return {
    ok: true,
    folder,
    settings,
    texts,
    manifestFiles,
    manifests: read.objects,
    readerFindings: read.findings,
    leftOut,
    selectorFromOverlay,
    includedBy: kustomize.kind === 'base' ? kustomize.overlays : [],
    ...(kustomize.kind === 'rendered' ? { renderOf: kustomize.label } : {}),
    choice,
    cluster,
    clusterDescription:
      clusterFile !== undefined
        ? basename(clusterFile)
        : profile === undefined
          ? undefined
          : `profile ${profile.name}`,
    clusterFiles,
  };
}

/** Why a folder has nothing to simulate: no manifest, or only documents the API server would refuse. */
function nothingToApply(folder: string, leftOut: readonly PanelLeftOut[]): string {
  const [first] = leftOut;
  if (first === undefined) {
    return `No Kubernetes manifest in ${folder}.`;
  }
  const count = leftOut.length === 1 ? 'its only document has' : `its ${leftOut.length} documents have`;
  const where = `${basename(fileURLToPath(first.file))}:${first.line}`;
  return `Nothing in ${folder} can be applied: ${count} an error the API server would refuse (${where}: ${first.message}).`;
}

function openEntry(document: { readonly uri: string; getText(): string }): [string, string][] {
  if (!document.uri.startsWith('file:')) {
    return [];
  }
  try {
    return [[resolve(fileURLToPath(document.uri)), document.getText()]];
  } catch {
    return [];
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
