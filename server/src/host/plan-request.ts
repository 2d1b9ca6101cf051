/**
 * Answers PLAN_REQUEST (protocol/messages.ts) for "Kube Foresight: Preview Apply": the folder read as the timeline
 * panel reads it (folder-input.ts, so that the panel's "open the timeline" link replays the same input), against
 * the cluster the editor chose for it, planned by the service's planApply, the one the CLI's `foresight plan`
 * runs. The embedded default cluster is refused, as `foresight plan` refuses it: it runs nothing to compare with.
 */
import { basename, isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PlanResult } from '../../../protocol/messages';
import type { Finding } from '../language/service';
import { DEFAULT_KUBERNETES_VERSION, isKubernetesMinor, severityOf } from '../language/service';
import type { FolderInput, FolderInputContext } from './folder-input';
import { readFolderInput } from './folder-input';

/** Why a plan needs a cluster, and how to get one (shown by the panel instead of a plan). */
export const PLAN_NEEDS_CLUSTER_MESSAGE =
  'A plan compares the manifests with a cluster, and this folder uses the embedded default cluster, which runs ' +
  'nothing to compare with. Capture your cluster into .foresight/cluster.yaml beside the manifests (or above ' +
  'them) with "Kube Foresight: Capture Cluster" or `foresight capture`, or pick a cluster file with ' +
  '"Kube Foresight: Select Cluster".';

/** Answers one request; `params` is untrusted. */
export async function answerPlanRequest(params: unknown, context: FolderInputContext): Promise<PlanResult> {
  const input = await readFolderInput(params, context);
  if (!input.ok) {
    return { ok: false, message: input.message, needsCluster: false };
  }
  if (input.cluster === null) {
    const unusable = input.choice.reason === 'embedded' ? input.choice.unusable : undefined;
    return {
      ok: false,
      message:
        unusable === undefined
          ? PLAN_NEEDS_CLUSTER_MESSAGE
          : `The cluster file the setting kubeForesight.cluster names (${unusable}) does not exist. ${PLAN_NEEDS_CLUSTER_MESSAGE}`,
      needsCluster: true,
    };
  }
  const version = input.settings.kubernetesVersion;
  const clusterName = input.clusterDescription ?? 'cluster';
  const { plan } = context.service.planApply({
    manifestFiles: input.manifestFiles,
    clusterFiles: input.clusterFiles,
    chartFiles: [],
    inputFindings: inputFindingsOf(input),
    manifests: input.manifests,
    cluster: input.cluster,
    clusterDescription: clusterName,
    version: isKubernetesMinor(version) ? version : DEFAULT_KUBERNETES_VERSION,
  });
  return {
    ok: true,
    folder: { uri: pathToFileURL(input.folder).href, name: basename(input.folder) },
    cluster: clusterName,
    plan: {
      ...plan,
      // A finding on a field a kustomize patch set is placed on the patch, which the render names by its path
      // (files/kustomize/patch-fields.ts); the panel links file URIs, as every other place here is.
      problems: plan.problems.map((problem) =>
        problem.file !== null && isAbsolute(problem.file)
          ? { ...problem, file: pathToFileURL(problem.file).href }
          : problem,
      ),
    },
  };
}

/**
 * The reading's findings that count in a plan, as `foresight plan` counts them: each manifest file's errors (a
 * document the API server refuses), then the reader's (duplicates, left-out documents).
 */
function inputFindingsOf(input: FolderInput): Finding[] {
  const errors = input.manifestFiles.flatMap((file) =>
    file.analysis.findings
      .filter((finding) => severityOf(finding.code) === 'error')
      .map((finding) => ({ ...finding, place: { file: file.id } })),
  );
  return [...errors, ...input.readerFindings];
}
