/**
 * The kustomizations of a command line rendered ahead, several at a time. Each render is a kustomize process
 * (kubeflow/manifests holds 195 units that render), and run one after another they leave all but one core idle
 * while `foresight validate -R` waits. The renders are kept by folder (KustomizeOptions.renders) and read in the
 * units' order as before (kustomization-units.ts), so the output does not change; a unit that is not rendered
 * ahead (a remote base, a GitOps unit's folder found only later) is rendered then, as before.
 */
import { availableParallelism } from 'node:os';
import type { KustomizeOptions } from './kustomization-units';
import { kustomizationUnitsOf } from './kustomization-units';
import { findKustomize, renderKustomizationAsync } from './render-kustomization';
import type { RenderResult } from './render-kustomization';

/**
 * The options with the renders of the units below `paths` made ahead, `concurrency` at a time (one per core by
 * default). With fewer than two units to render, or no kustomize, the options as they are.
 */
export async function prerenderKustomizations(
  paths: readonly string[],
  cwd: string,
  recursive: boolean,
  options: KustomizeOptions,
  concurrency: number = availableParallelism(),
): Promise<KustomizeOptions> {
  const folders = kustomizationUnitsOf(paths, cwd, recursive)
    .filter(({ tree }) => tree.remotes.length === 0 || options.allowRemote)
    .map(({ folder }) => folder);
  const command = folders.length < 2 ? undefined : findKustomize(options.binary, options.pathVariable);
  if (command === undefined) {
    return options;
  }
  const renders = new Map<string, RenderResult>();
  let next = 0;
  const renderNext = async (): Promise<void> => {
    for (let folder = folders[next++]; folder !== undefined; folder = folders[next++]) {
      renders.set(folder, await renderKustomizationAsync(command, folder));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, folders.length)) }, renderNext));
  return { ...options, renders };
}
