/**
 * What a Flux Kustomization's source is here: the path in the repository its `sourceRef` names (an
 * ExternalArtifact's path mapped back through the ArtifactGenerator that copies it, source-watcher's
 * https://fluxcd.io/flux/components/source/artifactgenerators/), and whether a GitRepository is this work tree.
 */
import type { FluxKustomizationDefinition, GitopsDefinitions } from './gitops-definitions';
import type { SourceRoot } from './source-folders';
import { mapArtifactPath, normalizeRepoUrl } from './source-folders';

/** The path in the repository: an artifact's path mapped through its generator's copies. */
export function fluxPathOf(
  kustomization: FluxKustomizationDefinition,
  definitions: GitopsDefinitions,
): string | undefined {
  if (kustomization.sourceRef.kind !== 'ExternalArtifact') {
    return kustomization.path;
  }
  // Each cluster folder of a repository often has its own generator of the same artifact names: the one beside
  // the Kustomization first.
  const generators = [...definitions.sources].sort(
    (a, b) => nearness(b.file, kustomization.at.file) - nearness(a.file, kustomization.at.file),
  );
  for (const source of generators) {
    const copies = source.artifacts.get(kustomization.sourceRef.name);
    const mapped = copies === undefined ? undefined : mapArtifactPath(kustomization.path, copies);
    if (mapped !== undefined) {
      return mapped;
    }
  }
  return undefined;
}

/** Whether a Kustomization's GitRepository is this work tree's (its URL is origin's, or it is the bootstrap's). */
export function isLocalGitRepository(
  kustomization: FluxKustomizationDefinition,
  definitions: GitopsDefinitions,
  roots: readonly SourceRoot[],
): boolean {
  if (kustomization.sourceRef.kind !== 'GitRepository') {
    return false;
  }
  const repository = definitions.sources.find(
    (source) => source.kind === 'GitRepository' && source.name === kustomization.sourceRef.name,
  );
  const origins = roots.flatMap((root) =>
    root.originUrl === undefined ? [] : [normalizeRepoUrl(root.originUrl)],
  );
  return repository?.url === undefined
    ? kustomization.sourceRef.name === 'flux-system'
    : origins.includes(normalizeRepoUrl(repository.url));
}

/** How many leading path segments two files share. */
function nearness(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  let shared = 0;
  while (shared < left.length && left[shared] === right[shared]) {
    shared++;
  }
  return shared;
}
