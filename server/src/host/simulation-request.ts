/**
 * Answers SIMULATION_REQUEST (protocol/messages.ts) for the timeline panel: reads the manifests of a folder the
 * way `foresight simulate -R DIR` does (the one manifest reader; open documents as edited), the cluster file
 * (the `kubeForesight.cluster` setting, else the nearest `.foresight/cluster.yaml` at or above the folder, else the
 * embedded default cluster), runs the engine with full scheduling detail and answers the panel's report.
 * Expected failures (not a folder, no manifests) are answers, not exceptions.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SimulationResult } from '../../../protocol/messages';
import type { Settings } from '../../../protocol/settings';
import { collectManifestFiles } from '../files/manifest-files';
import { KustomizeRoles } from '../files/kustomize-roles';
import type { PanelLeftOut } from '../../../protocol/webview-messages';
import type { LanguageService, ManifestFile, SourcedObject } from '../language/service';
import { findProfile, isKubernetesMinor, profileObjects } from '../language/service';
import { chooseCluster } from './cluster-file';
import type { GitopsScopes } from './gitops-scopes';
import { readAsUnit } from './gitops-scopes';

export { findClusterFile } from './cluster-file';

/** What the handler needs from the language server. */
interface SimulationRequestContext {
  /** The open documents (their text wins over the file on disk). */
  openDocuments(): readonly { readonly uri: string; getText(): string }[];
  /** The settings that apply to a URI. */
  settingsFor(uri: string): Promise<Settings>;
  /** The server's language service. */
  readonly service: LanguageService;
  /** The workspace's GitOps units: a file or folder one applies is simulated as that unit applies it. */
  readonly gitops?: GitopsScopes;
}

/** The most manifest files read from one folder. */
const MAX_FILES = 2000;

/** Answers one request; `params` is untrusted. */
export async function answerSimulationRequest(
  params: unknown,
  context: SimulationRequestContext,
): Promise<SimulationResult> {
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
  const settings = await context.settingsFor(pathToFileURL(folder).href);
  const open = new Map(context.openDocuments().flatMap((document) => openEntry(document)));
  // A file (or folder) a GitOps unit applies is simulated as the predictions simulate it: that unit's files.
  const openTexts = [...open].map(([path, text]) => ({ path, text }));
  const unit = stats.isDirectory()
    ? context.gitops?.unitOfFolder(folder, openTexts)
    : context.gitops?.unitOf(requested, openTexts);
  // Its plain files (Argo CD's directory, Flux's generated kustomization) are read from its folder; a file in a
  // kustomization it renders keeps its own folder, as the predictions keep it.
  if (unit !== undefined && unit.files.includes(resolve(requested))) {
    folder = unit.folder;
  }
  const maxLength = settings.maxFileSizeKB * 1024;
  const texts = new Map<string, string>();
  const read = (file: string): string | undefined => {
    const href = pathToFileURL(file).href;
    const text = open.get(resolve(file)) ?? readText(file);
    if (text === undefined || text.length > maxLength) {
      return undefined;
    }
    texts.set(href, text);
    return text;
  };
  const plainUnitFiles =
    unit !== undefined && unit.files.length > 0 && unit.folder === folder ? unit.files : undefined;
  const files = (plainUnitFiles ?? collectManifestFiles([folder], folder, { recursive: true }).files)
    .filter((file) => !file.includes('/.foresight/'))
    .slice(0, MAX_FILES);
  const { service } = context;
  const analysisContext = service.analysisContext(settings.kubernetesVersion, maxLength);
  const kustomizeRoles = new KustomizeRoles(service);
  /** A file's analysis, read as the GitOps unit reads it when `inUnit` (a manifest, not the cluster file). */
  const analysed = (file: string, inUnit = false): ManifestFile[] => {
    const text = read(file);
    return text === undefined
      ? []
      : [
          {
            id: pathToFileURL(file).href,
            ...(unit === undefined || !inUnit ? {} : readAsUnit(unit)),
            analysis: service.analyzeText(
              text,
              service.contextForFile(analysisContext, { kustomizeRole: kustomizeRoles.roleOf(file) }),
            ),
          },
        ];
  };
  // The one manifest reader, as `foresight simulate -R DIR` and the editor's predictions read the folder.
  const manifestFiles = files.flatMap((file) => analysed(file, true));
  const manifests = service.readObjects(manifestFiles).objects;
  const leftOut = service.leftOutDocuments(manifestFiles, (file) => texts.get(file));
  if (manifests.length === 0) {
    return { ok: false, message: nothingToApply(basename(folder), leftOut) };
  }
  // A GitOps unit's cluster is the one nearest its definition, as for its predictions.
  const choice = chooseCluster(unit === undefined ? folder : dirname(unit.definition.file), settings.cluster);
  const clusterFile = choice.reason === 'setting' || choice.reason === 'nearest' ? choice.path : undefined;
  const profile = choice.reason === 'profile' ? findProfile(choice.profile) : undefined;
  let cluster: readonly SourcedObject[] | null = profile === undefined ? null : profileObjects(profile);
  if (clusterFile !== undefined) {
    const inEditor = analysed(clusterFile);
    if (inEditor.length > 0 && !inEditor.some((file) => service.isTooLargeForAnalysis(file.analysis))) {
      cluster = service.readObjects(inEditor, { keepAll: true }).objects;
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
  const result = service.simulate({
    manifests,
    cluster,
    ...(clusterFile === undefined ? {} : { clusterDescription: basename(clusterFile) }),
    ...(profile === undefined ? {} : { clusterDescription: `profile ${profile.name}` }),
    ...(isKubernetesMinor(settings.kubernetesVersion) ? { version: settings.kubernetesVersion } : {}),
    detail: 'full',
  });
  return {
    ok: true,
    folder: { uri: pathToFileURL(folder).href, name: basename(folder) },
    report: { ...service.panelReport(result, (file) => texts.get(file)), leftOut },
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
