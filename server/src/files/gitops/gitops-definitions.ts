/**
 * The GitOps definitions among a command line's files, read without running anything: Argo CD `Application`s
 * (argoproj.io/v1alpha1), Flux `Kustomization`s (kustomize.toolkit.fluxcd.io) and the sources a Flux Kustomization
 * names (`GitRepository`, and `ArtifactGenerator`, whose artifacts copy folders of a repository under new paths).
 * Each keeps where its `path` is written, so that a path that is not there can be reported on that line. A file is
 * parsed only when its text names one of these API groups; template text (a Helm chart's) is not parsed at all.
 *
 * Fields: Argo CD's ApplicationSpec (pkg/apis/application/v1alpha1/types.go: source, sources[], destination,
 * source.directory, source.kustomize, source.helm, source.plugin, source.chart); Flux's KustomizationSpec
 * (kustomize-controller api/v1/kustomization_types.go: sourceRef, path, targetNamespace, namePrefix, nameSuffix,
 * patches, images, components, postBuild).
 */
import { LineCounter, parseAllDocuments, isMap, isScalar } from 'yaml';
import type { Document, Node } from 'yaml';
import type { NamespaceCreation } from '../../language/service';
import type { TextPosition } from '../../../../protocol/finding';
import { TextReads } from '../text-reads';

/** Where a field is written: its file and range (zero-based, as findings place it). */
export interface WrittenAt {
  readonly file: string;
  readonly start: TextPosition;
  readonly end: TextPosition;
}

/** One source of an Argo CD Application (spec.source, or an entry of spec.sources). */
export interface ApplicationSource {
  readonly repoURL: string;
  /** The path in the repository; undefined for a Helm chart from a chart repository or a values `ref`. */
  readonly path: string | undefined;
  readonly pathAt: WrittenAt;
  readonly chart: string | undefined;
  readonly directory: { readonly recurse: boolean; readonly include: string; readonly exclude: string };
  /** spec.source.kustomize: its fields as written. */
  readonly kustomize: Readonly<Record<string, unknown>>;
  /** Whether the source names a tool Argo CD runs that is not rendered here (helm values, a plugin, jsonnet). */
  readonly tools: readonly string[];
}

/** An Argo CD Application. */
export interface ApplicationDefinition {
  readonly kind: 'Application';
  /** "namespace/name" of the Application object. */
  readonly name: string;
  readonly at: WrittenAt;
  readonly destinationNamespace: string | undefined;
  /**
   * The namespace Argo CD creates before the sync (`syncPolicy.syncOptions: [CreateNamespace=true]`, with the labels
   * and annotations of `syncPolicy.managedNamespaceMetadata`): undefined without the option or a destination
   * namespace (controller/sync.go, sync_namespace.go).
   */
  readonly createdNamespace: NamespaceCreation | undefined;
  readonly sources: readonly ApplicationSource[];
}

/** A Flux Kustomization. */
export interface FluxKustomizationDefinition {
  readonly kind: 'Kustomization';
  readonly name: string;
  readonly at: WrittenAt;
  readonly pathAt: WrittenAt;
  /** spec.path, "./" when absent (Flux's default: the source's root). */
  readonly path: string;
  readonly sourceRef: { readonly kind: string; readonly name: string };
  readonly targetNamespace: string | undefined;
  /** The spec fields set that change the render and are not applied here (namePrefix, patches, …). */
  readonly options: readonly string[];
}

/** A Flux source a Kustomization may name: a GitRepository's URL, or an ArtifactGenerator's copies. */
export interface FluxSourceDefinition {
  readonly kind: 'GitRepository' | 'ArtifactGenerator';
  readonly name: string;
  /** The file that defines it (absolute). */
  readonly file: string;
  readonly url: string | undefined;
  /** ArtifactGenerator: per artifact name, its copies ("@alias/apps/base/**" to "@artifact/base/"). */
  readonly artifacts: ReadonlyMap<string, readonly { readonly from: string; readonly to: string }[]>;
}

/** The definitions found. */
export interface GitopsDefinitions {
  readonly applications: readonly ApplicationDefinition[];
  readonly kustomizations: readonly FluxKustomizationDefinition[];
  readonly sources: readonly FluxSourceDefinition[];
}

/** The API groups whose objects define units or their sources: a file naming none is not parsed. */
const GITOPS_GROUPS =
  /argoproj\.io\/|kustomize\.toolkit\.fluxcd\.io\/|source(\.extensions)?\.toolkit\.fluxcd\.io\/|source\.extensions\.fluxcd\.io\//;

/**
 * Whether a text may hold a GitOps definition or source: it names one of their API groups and is no template.
 * The editor tests every file of the workspace with it before parsing the few that pass.
 */
export function mayDefineGitopsUnits(text: string): boolean {
  return GITOPS_GROUPS.test(text) && !text.includes('{{');
}

/** Flux Kustomization fields that change its render and that this reading does not apply. */
const FLUX_OPTIONS_NOT_APPLIED = [
  'namePrefix',
  'nameSuffix',
  'patches',
  'images',
  'components',
  'commonMetadata',
  'postBuild',
] as const;

/**
 * Reads the GitOps definitions of these files (absolute paths) and texts (standard input, under a path of its own:
 * `helm template` output of an app of apps); an unreadable or unparsable file gives none.
 */
export function readGitopsDefinitions(
  files: readonly string[],
  texts: readonly { readonly file: string; readonly text: string }[] = [],
  reads: TextReads = new TextReads(),
): GitopsDefinitions {
  const applications: ApplicationDefinition[] = [];
  const kustomizations: FluxKustomizationDefinition[] = [];
  const sources: FluxSourceDefinition[] = [];
  // Each file is read as its turn comes, not all held at once before the first is looked at.
  const inputs = [...files.map((file) => ({ file, text: undefined })), ...texts];
  for (const input of inputs) {
    const file = input.file;
    const text = input.text ?? reads.readOrUndefined(file);
    if (text === undefined) {
      continue;
    }
    if (!mayDefineGitopsUnits(text)) {
      continue;
    }
    const lines = new LineCounter();
    for (const document of parseAllDocuments(text, { lineCounter: lines, uniqueKeys: false })) {
      if (!('errors' in document) || document.errors.length > 0) {
        continue;
      }
      const value: unknown = document.toJS();
      const object = asRecord(value);
      if (object === undefined) {
        continue;
      }
      const at = (path: readonly string[]): WrittenAt => placeOf(file, document, path, lines);
      const apiVersion = stringOf(object['apiVersion']) ?? '';
      const kind = stringOf(object['kind']);
      const metadata = asRecord(object['metadata']);
      const name = `${stringOf(metadata?.['namespace']) ?? ''}/${stringOf(metadata?.['name']) ?? ''}`;
      const spec = asRecord(object['spec']) ?? {};
      if (kind === 'Application' && apiVersion.startsWith('argoproj.io/')) {
        applications.push(readApplication(name, spec, at));
      } else if (kind === 'Kustomization' && apiVersion.startsWith('kustomize.toolkit.fluxcd.io/')) {
        const sourceRef = asRecord(spec['sourceRef']);
        kustomizations.push({
          kind: 'Kustomization',
          name,
          at: at([]),
          pathAt: at(spec['path'] === undefined ? [] : ['spec', 'path']),
          path: stringOf(spec['path']) ?? './',
          sourceRef: { kind: stringOf(sourceRef?.['kind']) ?? '', name: stringOf(sourceRef?.['name']) ?? '' },
          targetNamespace: nonEmpty(stringOf(spec['targetNamespace'])),
          options: FLUX_OPTIONS_NOT_APPLIED.filter((option) => spec[option] !== undefined),
        });
      } else if (kind === 'GitRepository' && apiVersion.startsWith('source.toolkit.fluxcd.io/')) {
        sources.push({
          kind: 'GitRepository',
          name: stringOf(metadata?.['name']) ?? '',
          file,
          url: stringOf(spec['url']),
          artifacts: new Map(),
        });
      } else if (kind === 'ArtifactGenerator' && apiVersion.includes('fluxcd.io/')) {
        sources.push({
          kind: 'ArtifactGenerator',
          name: stringOf(metadata?.['name']) ?? '',
          file,
          url: undefined,
          artifacts: artifactsOf(spec),
        });
      }
    }
  }
  return { applications, kustomizations, sources };
}

function readApplication(
  name: string,
  spec: Record<string, unknown>,
  at: (path: readonly string[]) => WrittenAt,
): ApplicationDefinition {
  const single = asRecord(spec['source']);
  const many = Array.isArray(spec['sources']) ? spec['sources'] : [];
  const entries: { value: Record<string, unknown>; path: string[] }[] =
    single !== undefined
      ? [{ value: single, path: ['spec', 'source'] }]
      : many.flatMap((entry: unknown, index) => {
          const value = asRecord(entry);
          return value === undefined ? [] : [{ value, path: ['spec', 'sources', String(index)] }];
        });
  return {
    kind: 'Application',
    name,
    at: at([]),
    destinationNamespace: nonEmpty(stringOf(asRecord(spec['destination'])?.['namespace'])),
    createdNamespace: createdNamespaceOf(spec),
    sources: entries.map(({ value, path }) => {
      const directory = asRecord(value['directory']) ?? {};
      const tools = ['helm', 'plugin'].filter((tool) => value[tool] !== undefined);
      if (directory['jsonnet'] !== undefined) {
        tools.push('directory.jsonnet');
      }
      return {
        repoURL: stringOf(value['repoURL']) ?? '',
        path: stringOf(value['path']),
        pathAt: at(value['path'] === undefined ? path : [...path, 'path']),
        chart: stringOf(value['chart']),
        directory: {
          recurse: directory['recurse'] === true,
          include: stringOf(directory['include']) ?? '',
          exclude: stringOf(directory['exclude']) ?? '',
        },
        kustomize: asRecord(value['kustomize']) ?? {},
        tools,
      };
    }),
  };
}

/** An ArtifactGenerator's artifacts: name to copy operations (source-watcher's ArtifactGenerator spec). */
function artifactsOf(
  spec: Record<string, unknown>,
): Map<string, { readonly from: string; readonly to: string }[]> {
  const artifacts = new Map<string, { from: string; to: string }[]>();
  for (const entry of Array.isArray(spec['artifacts']) ? spec['artifacts'] : []) {
    const artifact = asRecord(entry);
    const name = stringOf(artifact?.['name']);
    if (name === undefined) {
      continue;
    }
    const copies = (Array.isArray(artifact?.['copy']) ? (artifact['copy'] as unknown[]) : []).flatMap(
      (copy) => {
        const from = stringOf(asRecord(copy)?.['from']);
        const to = stringOf(asRecord(copy)?.['to']);
        return from === undefined || to === undefined ? [] : [{ from, to }];
      },
    );
    artifacts.set(name, copies);
  }
  return artifacts;
}

/** The range of the value at `path` (the document when the path is empty or missing). */
function placeOf(file: string, document: Document, path: readonly string[], lines: LineCounter): WrittenAt {
  const node: unknown = path.length === 0 ? document.contents : document.getIn(path, true);
  const range = isNode(node) ? node.range : undefined;
  const start = lines.linePos(range?.[0] ?? 0);
  const end = lines.linePos(range?.[1] ?? range?.[0] ?? 0);
  return {
    file,
    start: { line: start.line - 1, character: start.col - 1 },
    end: { line: end.line - 1, character: end.col - 1 },
  };
}

function isNode(value: unknown): value is Node {
  return isScalar(value) || isMap(value) || (typeof value === 'object' && value !== null && 'range' in value);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** The namespace an Application's sync creates (CreateNamespace=true), with its managed labels and annotations. */
function createdNamespaceOf(spec: Record<string, unknown>): NamespaceCreation | undefined {
  const name = nonEmpty(stringOf(asRecord(spec['destination'])?.['namespace']));
  const policy = asRecord(spec['syncPolicy']);
  const options = policy?.['syncOptions'];
  if (name === undefined || !Array.isArray(options) || !options.includes('CreateNamespace=true')) {
    return undefined;
  }
  const managed = asRecord(policy?.['managedNamespaceMetadata']);
  return { name, labels: stringMap(managed?.['labels']), annotations: stringMap(managed?.['annotations']) };
}

function stringMap(value: unknown): Record<string, string> {
  const entries = Object.entries(asRecord(value) ?? {}).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  return Object.fromEntries(entries);
}
