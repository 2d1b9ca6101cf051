/**
 * Answers SIMULATION_REQUEST (protocol/messages.ts) for the timeline panel: reads the manifests of a folder the
 * way `foresight simulate -R DIR` does and the cluster the editor chooses for it (folder-input.ts), runs the
 * engine with full scheduling detail and answers the panel's report. Expected failures (not a folder, no
 * manifests) are answers, not exceptions.
 */
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SimulationResult } from '../../../protocol/messages';
import { isKubernetesMinor } from '../language/service';
import type { FolderInputContext } from './folder-input';
import { readFolderInput } from './folder-input';

export { findClusterFile } from './cluster-file';

/** Answers one request; `params` is untrusted. */
export async function answerSimulationRequest(
  params: unknown,
  context: FolderInputContext,
): Promise<SimulationResult> {
  const input = await readFolderInput(params, context);
  if (!input.ok) {
    return input;
  }
  const { service } = context;
  const lines = new Map(input.manifestFiles.map((file) => [file.id, file.lines]));
  const version = input.settings.kubernetesVersion;
  const result = service.simulate({
    manifests: [...input.manifests],
    cluster: input.cluster === null ? null : [...input.cluster],
    ...(input.clusterDescription === undefined ? {} : { clusterDescription: input.clusterDescription }),
    ...(isKubernetesMinor(version) ? { version } : {}),
    detail: 'full',
  });
  return {
    ok: true,
    folder: { uri: pathToFileURL(input.folder).href, name: basename(input.folder) },
    report: {
      ...service.panelReport(
        result,
        (file) => input.texts.get(file),
        (file) => lines.get(file),
      ),
      leftOut: [...input.leftOut],
      ...(input.selectorFromOverlay.length === 0
        ? {}
        : { selectorFromOverlay: [...input.selectorFromOverlay] }),
      ...(input.includedBy.length === 0 ? {} : { includedBy: [...input.includedBy] }),
      ...(input.renderOf === undefined ? {} : { renderOf: input.renderOf }),
    },
  };
}
