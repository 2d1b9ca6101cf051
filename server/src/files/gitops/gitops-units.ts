/**
 * GitOps units (docs/cli.md, "GitOps units"): an Argo CD Application or a Flux Kustomization among the files read
 * whose path is in the workspace is an apply unit, applied as its controller applies it:
 *
 * - Argo CD: the path's type (unit-files.ts: Helm chart, kustomization, directory); a directory's files as
 *   `directory.recurse/include/exclude` select them; `destination.namespace` given to namespaced objects that name
 *   none, others left where they say (controller/state.go, DeduplicateTargetObjects: SetNamespace only when the
 *   object's namespace is empty); `kustomize.namespace` set as the kustomization's namespace (`kustomize edit set
 *   namespace`, util/kustomize/kustomize.go), which overrides every namespaced object's.
 * - Flux: the path built with kustomize, a kustomization generated when it has none (unit-files.ts);
 *   `targetNamespace` set as that kustomization's namespace (fluxcd/pkg kustomize_generator.go, WriteFile:
 *   `kus.Namespace = targetNamespace`), so it overrides the namespace of every namespaced object.
 *
 * Options that change the render further (Argo CD's kustomize namePrefix/images/…, Helm or plugin sources; Flux's
 * namePrefix/patches/images/…) are not applied: one note names them. A path not here is one warning on it when its
 * repository is this one, else one note (a remote repository's path is not for this workspace to check).
 */
import type { Finding } from '../../../../protocol/finding';
import { severityOf } from '../../language/service';
import type { UnitNamespace } from '../../language/service';
import type {
  ApplicationDefinition,
  ApplicationSource,
  FluxKustomizationDefinition,
  WrittenAt,
} from './gitops-definitions';
import { readGitopsDefinitions } from './gitops-definitions';
import { TextReads } from '../text-reads';
import type { SourceRoot } from './source-folders';
import { folderUnder, normalizeRepoUrl, rootsOf } from './source-folders';
import { fluxPathOf, isLocalGitRepository } from './flux-sources';
import { kustomizationFileIn } from '../kustomize/kustomization-tree';
import { argoDirectoryFiles, argoSourceTypeOf, fluxGeneratedResources } from './unit-files';

/** One GitOps unit: the definition, the folder it applies and how. */
export interface GitopsUnit {
  readonly kind: 'Application' | 'Kustomization';
  /** "namespace/name" of the definition. */
  readonly name: string;
  readonly definition: WrittenAt;
  /** The path as the definition writes it. */
  readonly path: string;
  /** The folder (absolute). */
  readonly folder: string;
  /** Plain files read as they are (Argo CD's directory, the files of Flux's generated kustomization). */
  readonly files: readonly string[];
  /** Folders rendered with kustomize as part of the unit. */
  readonly kustomizations: readonly string[];
  /** Whether the controller reads the folder's sub-folders (Flux always; Argo CD with directory.recurse). */
  readonly recursive: boolean;
  readonly namespace: UnitNamespace | undefined;
}

/** A note or warning on a definition. */
export interface GitopsNote {
  readonly at: WrittenAt;
  readonly finding: Pick<Finding, 'code' | 'severity' | 'message'>;
}

/** The units and notes of the definitions among some files. */
export interface GitopsUnits {
  readonly units: readonly GitopsUnit[];
  /**
   * Folders a controller renders with a tool not run here (Helm, a config management plugin): no unit, and not
   * read by any other unit either (`kubectl apply -k` of a plugin's kustomization is not what is applied).
   */
  readonly notRendered: readonly string[];
  readonly notes: readonly GitopsNote[];
}

/**
 * The GitOps units the definitions in `files` and `texts` define; paths are tried under their work tree or
 * `namedFolders`.
 */
export function findGitopsUnits(
  files: readonly string[],
  namedFolders: readonly string[],
  display: (file: string) => string,
  texts: readonly { readonly file: string; readonly text: string }[] = [],
  reads: TextReads = new TextReads(),
): GitopsUnits {
  const definitions = readGitopsDefinitions(files, texts, reads);
  const units: GitopsUnit[] = [];
  const notRendered: string[] = [];
  const notes: GitopsNote[] = [];
  const note = (at: WrittenAt, code: GitopsNote['finding']['code'], message: string): void => {
    notes.push({ at, finding: { code, severity: severityOf(code), message } });
  };
  const localRepos = new Set<string>();
  const missing: { readonly repo: string; readonly report: (isLocal: boolean) => void }[] = [];
  for (const application of definitions.applications) {
    for (const source of application.sources) {
      const roots = rootsOf(application.at.file, namedFolders);
      roots.forEach((root) => addOrigin(localRepos, root));
      const label = `Application ${application.name}`;
      if (source.path === undefined) {
        note(
          source.pathAt,
          'gitops-source-not-checked',
          `${label} applies ${source.chart === undefined ? 'a source without a path' : `the chart ${source.chart}`} from ${source.repoURL}: not in this workspace, not checked.`,
        );
        continue;
      }
      const folder = folderUnder(roots, source.path);
      if (folder === undefined) {
        missing.push({
          repo: normalizeRepoUrl(source.repoURL),
          report: (isLocal) =>
            isLocal
              ? note(
                  source.pathAt,
                  'gitops-path-missing',
                  `${label}: path "${source.path}" is not a folder of this repository (${source.repoURL}): Argo CD cannot generate its manifests.`,
                )
              : note(
                  source.pathAt,
                  'gitops-source-not-checked',
                  `${label} applies "${source.path}" of ${source.repoURL}, another repository: not checked here.`,
                ),
        });
        continue;
      }
      localRepos.add(normalizeRepoUrl(source.repoURL));
      const unit = applicationUnit(application, source, folder, display, note);
      if (unit === undefined) {
        notRendered.push(folder);
      } else {
        units.push(unit);
      }
    }
  }
  for (const kustomization of definitions.kustomizations) {
    const resolved = fluxPathOf(kustomization, definitions);
    const roots = rootsOf(kustomization.at.file, namedFolders);
    const folder = resolved === undefined ? undefined : folderUnder(roots, resolved);
    const label = `Kustomization ${kustomization.name}`;
    if (folder === undefined) {
      const isLocal =
        resolved !== undefined &&
        (kustomization.sourceRef.kind === 'ExternalArtifact' ||
          isLocalGitRepository(kustomization, definitions, roots));
      if (isLocal) {
        note(
          kustomization.pathAt,
          'gitops-path-missing',
          `${label}: path "${kustomization.path}" is not a folder of this repository (${resolved}): Flux cannot build it.`,
        );
      } else {
        note(
          kustomization.pathAt,
          'gitops-source-not-checked',
          `${label} applies "${kustomization.path}" of ${kustomization.sourceRef.kind} ${kustomization.sourceRef.name}, not in this workspace: not checked here.`,
        );
      }
      continue;
    }
    units.push(fluxUnit(kustomization, folder));
    if (kustomization.options.length > 0) {
      note(
        kustomization.at,
        'gitops-option-not-applied',
        `${label}: ${kustomization.options.map((option) => `spec.${option}`).join(', ')} not applied here: ${display(folder) || '.'} is checked as built without ${kustomization.options.length === 1 ? 'it' : 'them'}.`,
      );
    }
  }
  for (const entry of missing) {
    entry.report(localRepos.has(entry.repo));
  }
  return { units, notRendered, notes };
}

/** The unit of one Application source whose folder is here, or undefined (a note says why) when not rendered. */
function applicationUnit(
  application: ApplicationDefinition,
  source: ApplicationSource,
  folder: string,
  display: (file: string) => string,
  note: (at: WrittenAt, code: GitopsNote['finding']['code'], message: string) => void,
): GitopsUnit | undefined {
  const label = `Application ${application.name}`;
  const explicit = [
    ...source.tools,
    ...(Object.keys(source.kustomize).length > 0 ? ['kustomize'] : []),
    ...(source.directory.recurse || source.directory.include !== '' || source.directory.exclude !== ''
      ? ['directory']
      : []),
  ];
  const type = argoSourceTypeOf(folder, explicit);
  if (type === 'Helm' || type === 'Plugin') {
    note(
      source.pathAt,
      'gitops-source-not-checked',
      `${label} renders ${display(folder) || '.'} with ${type === 'Helm' ? 'Helm' : 'a config management plugin'} in Argo CD: not rendered here, not checked. ${type === 'Helm' ? 'Render it (helm template) and pass the output (-) to check it.' : ''}`.trim(),
    );
    return undefined;
  }
  const base = {
    kind: 'Application' as const,
    name: application.name,
    definition: application.at,
    path: source.path ?? '',
    folder,
  };
  if (type === 'Kustomize') {
    const namespace = source.kustomize['namespace'];
    const ignored = Object.keys(source.kustomize).filter((option) => option !== 'namespace');
    if (ignored.length > 0) {
      note(
        source.pathAt,
        'gitops-option-not-applied',
        `${label}: ${ignored.map((option) => `kustomize.${option}`).join(', ')} not applied here: ${display(folder) || '.'} is checked as kustomize builds it without ${ignored.length === 1 ? 'it' : 'them'}.`,
      );
    }
    return {
      ...base,
      files: [],
      kustomizations: [folder],
      recursive: true,
      namespace:
        typeof namespace === 'string' && namespace !== ''
          ? { name: namespace, overrides: true, ...creating(application) }
          : fillWith(application.destinationNamespace, application),
    };
  }
  const { files, jsonnet } = argoDirectoryFiles(folder, source.directory);
  if (jsonnet.length > 0 || source.tools.includes('directory.jsonnet')) {
    note(
      source.pathAt,
      'gitops-option-not-applied',
      `${label}: the Jsonnet of ${display(folder) || '.'} is evaluated by Argo CD only, not here: ${jsonnet.length} file(s) not checked.`,
    );
  }
  return {
    ...base,
    files,
    kustomizations: [],
    recursive: source.directory.recurse,
    namespace: fillWith(application.destinationNamespace, application),
  };
}

/** A Flux Kustomization's unit: its folder's kustomization, or the one Flux generates over its files. */
function fluxUnit(kustomization: FluxKustomizationDefinition, folder: string): GitopsUnit {
  const generated = fluxGeneratedHere(folder);
  return {
    kind: 'Kustomization',
    name: kustomization.name,
    definition: kustomization.at,
    path: kustomization.path,
    folder,
    files: generated.files,
    kustomizations: generated.kustomizations,
    recursive: true,
    namespace:
      kustomization.targetNamespace === undefined
        ? undefined
        : { name: kustomization.targetNamespace, overrides: true },
  };
}

function fluxGeneratedHere(folder: string): { files: string[]; kustomizations: string[] } {
  return kustomizationFileIn(folder) === undefined
    ? fluxGeneratedResources(folder)
    : { files: [], kustomizations: [folder] };
}

function addOrigin(repos: Set<string>, root: SourceRoot): void {
  if (root.originUrl !== undefined) {
    repos.add(normalizeRepoUrl(root.originUrl));
  }
}

function fillWith(
  namespace: string | undefined,
  application: ApplicationDefinition,
): UnitNamespace | undefined {
  return namespace === undefined
    ? undefined
    : { name: namespace, overrides: false, ...creating(application) };
}

/** The namespace an Application's sync creates first (CreateNamespace=true), as a UnitNamespace field. */
function creating(application: ApplicationDefinition): Pick<UnitNamespace, 'creates'> {
  return application.createdNamespace === undefined ? {} : { creates: application.createdNamespace };
}
