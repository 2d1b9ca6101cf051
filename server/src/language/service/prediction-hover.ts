/**
 * Hovers over predictions: what the engine predicted for the object under the cursor, placed on the field a
 * person hovers (a workload's kind, name or template; a budget; a strategy; a container's resources).
 */
import type { Node } from 'yaml';
import { admissionHoverMarkdown } from '../predictions/admission-hover';
import type { ReportNode } from '../../engine/scenario/report/report-entries';
import type { PodSample } from './prediction-simulation';
import { isAtLeast } from '../../engine/version';
import {
  budgetHoverMarkdown,
  claimsHoverMarkdown,
  oomScoreHoverMarkdown,
  resourcesHoverMarkdown,
  rolloutHoverMarkdown,
  workloadHoverMarkdown,
} from '../predictions/prediction-hover';
import type { WorkloadPrediction } from '../predictions/workload-predictions';
import { pathAtOffset } from '../yaml/node-at-path';
import { escapeMarkdown, inlineCode } from '../assist/markdown';
import type { DocumentState } from './document-state';
import type { Prediction } from './prediction-types';

/** The document of a state that holds an offset, and the YAML path at it; undefined outside every document. */
export function yamlPlaceAt(
  state: DocumentState,
  offset: number,
):
  | {
      readonly document: DocumentState['analysis']['documents'][number];
      /** The document's YAML root node (edits and fixes are placed against it). */
      readonly root: Node | undefined;
      readonly location: ReturnType<typeof pathAtOffset>;
    }
  | undefined {
  const document = state.analysis.documents.find(
    (d) => offset >= d.offset && offset <= d.offset + d.yaml.end,
  );
  if (document === undefined) {
    return undefined;
  }
  const root = (document.yaml.document?.contents ?? undefined) as Node | undefined;
  return { document, root, location: pathAtOffset(root, offset - document.offset) };
}

/**
 * The hover of a prediction at an offset: on a workload's kind, name or template, where its replicas land (and
 * what admission refused of it); on a budget, its numbers; on a strategy, its waves; on `resources`, the fit.
 */
export function predictionHover(
  prediction: Prediction,
  state: DocumentState,
  offset: number,
): string | undefined {
  const found = yamlPlaceAt(state, offset);
  if (found === undefined) {
    return undefined;
  }
  const { document, location } = found;
  if (!location.isKey && location.path.at(-1) !== 'kind' && location.path.at(-1) !== 'name') {
    return undefined;
  }
  const report = prediction.simulation?.report;
  const refusalsOf = (objectPath: readonly (string | number)[]): string =>
    refusalsMarkdown(prediction, state.uri, document.index, objectPath);
  for (const object of document.objects) {
    const relative = startsWith(location.path, object.path)
      ? location.path.slice(object.path.length)
      : undefined;
    if (relative === undefined || report === undefined) {
      continue;
    }
    const namespace = namespaceIn(prediction, object.namespace);
    const isHeader = isSame(relative, ['kind']) || isSame(relative, ['metadata', 'name']);
    const refused = isHeader ? refusalsOf(object.path) : '';
    if (refused !== '' && workloadsOf(prediction, state.uri, document.index).length === 0) {
      // Nothing of it exists: the refusal is the whole prediction.
      return [refused, appliedByMarkdown(prediction)].filter((part) => part !== '').join('\n\n');
    }
    if (object.kind === 'PodDisruptionBudget' && (isHeader || isSame(relative, ['spec']))) {
      const budget = report.disruptionBudgets?.find(
        (b) => b.namespace === namespace && b.name === object.name,
      );
      if (budget !== undefined) {
        const key = `${namespace}/${budget.name}`;
        const drains = (report.drains ?? [])
          .filter((drain) => drain.blockedBy.some((block) => block.disruptionBudget === key))
          .map((drain) => drain.node);
        return budgetHoverMarkdown(budget, drains);
      }
    }
    const claims = report.persistentVolumeClaims ?? [];
    if (object.kind === 'StatefulSet' && startsWith(relative, ['spec', 'volumeClaimTemplates'])) {
      const own = claims.filter(
        (c) => c.namespace === namespace && c.createdBy === `StatefulSet/${object.name}`,
      );
      if (own.length > 0) {
        return claimsHoverMarkdown(`StatefulSet ${object.name ?? ''}`, own);
      }
    }
    if (object.kind === 'PersistentVolumeClaim' && isHeader) {
      const own = claims.filter((c) => c.namespace === namespace && c.name === object.name);
      if (own.length > 0) {
        return claimsHoverMarkdown(`PersistentVolumeClaim ${object.name ?? ''}`, own);
      }
    }
    if (isSame(relative, ['spec', 'strategy']) || isSame(relative, ['spec', 'updateStrategy'])) {
      const rollout = report.rollouts?.find(
        (r) => r.kind === object.kind && r.namespace === namespace && r.name === object.name,
      );
      if (rollout !== undefined) {
        return rolloutHoverMarkdown(rollout);
      }
    }
  }
  for (const workload of workloadsOf(prediction, state.uri, document.index)) {
    const objectPath = workload.source.path.slice(0, objectPathLength(workload.source.path));
    const relative = startsWith(location.path, objectPath)
      ? location.path.slice(objectPath.length)
      : undefined;
    if (relative === undefined) {
      continue;
    }
    const template = workload.source.path.slice(objectPath.length);
    const isHeader = isSame(relative, ['kind']) || isSame(relative, ['metadata', 'name']);
    const isTemplate = isSame(relative, template) || isSame(relative, [...template, 'spec']);
    if (isHeader || isTemplate) {
      return workloadHeaderHover(prediction, workload);
    }
    const simulation = prediction.simulation;
    const samples = (simulation?.samples ?? []).filter(
      (sample) => sample.source === workload.source || sameSource(sample.source, workload.source),
    );
    const oom = containerOomMarkdown(
      relative,
      template,
      samples,
      simulation?.report.cluster.nodes ?? [],
      simulation === undefined || isAtLeast(simulation.report.kubernetesVersion, '1.34'),
    );
    if (relative.at(-1) === 'resources' && startsWith(relative, [...template, 'spec'])) {
      const pod = samples[0];
      if (pod !== undefined && simulation !== undefined) {
        const fit = resourcesHoverMarkdown(
          { cpuMilli: pod.requests.milliCpu, memoryBytes: pod.requests.memory },
          simulation.report.cluster.nodes,
          prediction.nodeFacts,
          pod.spec,
        );
        return oom === undefined ? fit : `${fit}\n\n${oom}`;
      }
    }
    if (oom !== undefined && relative.at(-1) === 'name') {
      return oom;
    }
  }
  return undefined;
}

/**
 * The hover on a workload's kind, name or template: where its replicas land, what the API server refused of it,
 * and the GitOps unit that applies it. Also the hover a kustomize render gives the file the workload came from
 * (overlay-findings.ts).
 */
export function workloadHeaderHover(prediction: Prediction, workload: WorkloadPrediction): string {
  const objectPath = workload.source.path.slice(0, objectPathLength(workload.source.path));
  const refused = refusalsMarkdown(
    prediction,
    workload.source.file,
    workload.source.documentIndex,
    objectPath,
  );
  return [workloadHoverMarkdown(workload), refused, appliedByMarkdown(prediction)]
    .filter((part) => part !== '')
    .join('\n\n');
}

/** What the API server refuses of an object of a document: its own refusal, or its template's pods'. */
function refusalsMarkdown(
  prediction: Prediction,
  uri: string,
  documentIndex: number,
  objectPath: readonly (string | number)[],
): string {
  return admissionHoverMarkdown(
    (prediction.simulation?.report.rejected ?? []).filter(
      (entry) =>
        entry.file === uri &&
        entry.documentIndex === documentIndex &&
        entry.stage !== 'discovery' &&
        startsWith(entry.path, objectPath),
    ),
  );
}

/**
 * On a container of the template (its `resources` or its `name`): its oom_score_adj on the node the first placed
 * replica is predicted on.
 */
function containerOomMarkdown(
  relative: readonly (string | number)[],
  template: readonly (string | number)[],
  samples: readonly PodSample[],
  nodes: readonly ReportNode[],
  podLevelResources: boolean,
): string | undefined {
  const [list, index] = relative.slice(template.length + 1);
  if (
    relative.length !== template.length + 4 ||
    !startsWith(relative, [...template, 'spec']) ||
    (list !== 'containers' && list !== 'initContainers') ||
    typeof index !== 'number'
  ) {
    return undefined;
  }
  const placed = samples.find((sample) => sample.nodeName !== null);
  const node = nodes.find((candidate) => candidate.name === placed?.nodeName);
  const spec = placed?.spec as { readonly [key: string]: unknown } | undefined;
  const containers = spec?.[list];
  const container: unknown = Array.isArray(containers) ? containers[index] : undefined;
  const name =
    typeof container === 'object' && container !== null ? (container as { name?: unknown }).name : undefined;
  if (placed === undefined || node === undefined || typeof name !== 'string') {
    return undefined;
  }
  return oomScoreHoverMarkdown(spec, name, node, podLevelResources);
}

/** The workload predictions of one document of a file. */
export function workloadsOf(
  prediction: Prediction,
  uri: string,
  documentIndex: number,
): WorkloadPrediction[] {
  return prediction.predictions.filter(
    (p) => p.source.file === uri && p.source.documentIndex === documentIndex,
  );
}

/** The length of the object part of a template path: ['items', 3, 'spec', 'template'] → 2; ['spec','template'] → 0. */
export function objectPathLength(path: readonly (string | number)[]): number {
  return path[0] === 'items' && typeof path[1] === 'number' ? 2 : 0;
}

/** Whether a path starts with a prefix. */
export function startsWith(
  path: readonly (string | number)[],
  prefix: readonly (string | number)[],
): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

function isSame(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && startsWith(a, b);
}

function sameSource(
  a: { file: string; documentIndex: number; path: readonly (string | number)[] },
  b: typeof a,
): boolean {
  return a.file === b.file && a.documentIndex === b.documentIndex && isSame(a.path, b.path);
}

/** The namespace an object is simulated in: the one its GitOps unit gives it, else its own, else `default`. */
function namespaceIn(prediction: Prediction, written: string | undefined): string {
  const unit = prediction.gitopsUnit?.namespace;
  if (unit !== undefined && (unit.overrides || written === undefined || written === '')) {
    return unit.name;
  }
  return written ?? 'default';
}

/** The line of a workload's hover that names the GitOps unit whose apply was simulated, and its namespace. */
function appliedByMarkdown(prediction: Prediction): string {
  const unit = prediction.gitopsUnit;
  if (unit === undefined) {
    return '';
  }
  const namespace =
    unit.namespace === undefined
      ? ''
      : unit.namespace.overrides
        ? `, every namespaced object in ${inlineCode(unit.namespace.name)}`
        : `, objects without a namespace in ${inlineCode(unit.namespace.name)}`;
  return `Applied as ${escapeMarkdown(unit.definition)} applies it${namespace}.`;
}
