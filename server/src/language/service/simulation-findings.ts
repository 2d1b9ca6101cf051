/**
 * The findings of `foresight simulate`, placed on its input files: one list that every output renders (text,
 * JSON, SARIF, JUnit, annotations). First the findings of the reading (the analysis's, with offsets in their
 * file; a skipped chart's or kustomization's, on the file as a whole), the reader's and the engine's (each located
 * by its object and field path, the field's key or scalar value as the editor places it); then the predicted
 * failures the report lists apart from its findings, as the editor shows them: replicas that stay Pending
 * (`pod-unschedulable`, on the field that causes it), and what the API server refuses (`admission-refused`, or
 * `admission-refused-partly` when some of a workload's replicas exist).
 */
import type { Node } from 'yaml';
import type { Finding } from '../../../../protocol/finding';
import type { ObjectSource } from '../../engine/model/source';
import type { SimulationResult } from '../../engine/simulate/simulate';
import type { KubernetesMinor } from '../../engine/version';
import { isAtLeast } from '../../engine/version';
import type { AnalyzedDocument } from '../analyzer';
import { pendingSummary, predictionFindings } from '../predictions/prediction-findings';
import { buildWorkloadPredictions } from '../predictions/workload-predictions';
import { rangeForField } from '../yaml/node-at-path';
import { placeFindingAt, unplaced } from './run-findings';
import type { InputFile } from './input-files';
import { appendAll } from '../../../../protocol/collections';

/**
 * Places every finding of a run and adds the predicted failures. A finding of the reading comes with `start` and
 * `end` in the text of the file its `place` names; a finding of the engine or the reader with its `object` and
 * `path`. A finding keeps its file when it is an input file or a skipped chart's Chart.yaml (`chartFiles`); the
 * others ("<command line>" for a scenario step given as a flag, "" for the embedded cluster) are on the cluster
 * as a whole (no place).
 */
export function placeSimulationFindings(
  files: readonly InputFile[],
  chartFiles: readonly string[],
  findings: readonly Finding[],
  result: SimulationResult,
  version: KubernetesMinor,
): Finding[] {
  const byId = new Map(files.map((file) => [file.id, file]));
  const paths = new Set([...byId.keys(), ...chartFiles]);
  const placed: Finding[] = [];
  for (const finding of findings) {
    const fileId = finding.place?.file ?? finding.object?.file ?? '';
    const file = byId.get(fileId);
    const range =
      file === undefined
        ? undefined
        : finding.start !== undefined
          ? ([finding.start, finding.end ?? finding.start] as const)
          : finding.object === undefined
            ? undefined
            : rangeAt(file, {
                file: fileId,
                documentIndex: finding.object.documentIndex,
                path: [...finding.object.path, ...(finding.path ?? [])],
              });
    if (file !== undefined && range !== undefined) {
      placed.push(placeFindingAt(file, range[0], range[1], finding));
      continue;
    }
    const rest = unplaced(finding);
    placed.push(paths.has(fileId) ? { ...rest, place: { file: fileId } } : rest);
  }
  appendAll(placed, [...pendingFindings(byId, result, version), ...refusalFindings(byId, result)]);
  return placed;
}

/** Each workload with replicas that stay Pending: the editor's findings, or one on the workload's file. */
function pendingFindings(
  byId: ReadonlyMap<string, InputFile>,
  result: SimulationResult,
  version: KubernetesMinor,
): Finding[] {
  const { report } = result;
  // Pending on a capture is certain: the error of its own code (language/predictions/prediction-findings.ts).
  const onCapture = report.cluster.kind === 'capture';
  const pending = {
    code: onCapture ? 'pod-unschedulable-on-capture' : 'pod-unschedulable',
    severity: onCapture ? 'error' : 'warning',
  } as const;
  const predictions = buildWorkloadPredictions(
    result.records,
    isAtLeast(version, '1.34'),
    report.pods.map((pod) => pod.waiting),
  ).filter((prediction) => prediction.pending > 0);
  const locate = (source: ObjectSource): { fileId: string; document: AnalyzedDocument } | undefined => {
    const document = byId.get(source.file)?.analysis.documents[source.documentIndex];
    return document === undefined ? undefined : { fileId: source.file, document };
  };
  const covered = new Set(
    predictions.flatMap((prediction) =>
      prediction.replicas
        .filter((replica) => replica.nodeName === null)
        .map((replica) => `${prediction.namespace}/${replica.podName}`),
    ),
  );
  // A pod the report lists as Pending that no workload's prediction holds: still a predicted failure, on no file.
  const uncovered = report.pods
    .filter((pod) => pod.nodeName === null && !covered.has(`${pod.namespace}/${pod.name}`))
    .map((pod): Finding => ({
      ...pending,
      message: `Pod ${pod.namespace}/${pod.name} stays Pending: ${pod.unschedulable?.message ?? ''}`,
    }));
  const located = predictions.flatMap((prediction): Finding[] => {
    const placed = predictionFindings(
      [prediction],
      [],
      locate,
      report.cluster.nodes,
      report.rollouts ?? [],
      {},
      report.cluster,
    );
    const file = byId.get(prediction.source.file);
    const located =
      file === undefined
        ? []
        : (placed.get(file.id) ?? [])
            .filter((finding) => finding.code === pending.code)
            .map((finding) =>
              placeFindingAt(file, finding.start, finding.end, {
                ...pending,
                message: finding.message,
              }),
            );
    if (located.length > 0) {
      return located;
    }
    const summary = pendingSummary(prediction);
    const message =
      prediction.pendingMessage === null ? `${summary}.` : `${summary}: ${prediction.pendingMessage}`;
    const fields: Finding = {
      ...pending,
      message: `${prediction.kind} ${prediction.namespace}/${prediction.name}: ${message}`,
    };
    const range = file === undefined ? undefined : rangeAt(file, prediction.source);
    return [
      file === undefined || range === undefined ? fields : placeFindingAt(file, range[0], range[1], fields),
    ];
  });
  return [...located, ...uncovered];
}

/** Each refusal of the API server (the same refusal of several pods once), on the field that causes it. */
function refusalFindings(byId: ReadonlyMap<string, InputFile>, result: SimulationResult): Finding[] {
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const entry of result.report.rejected) {
    const key = `${entry.file}#${entry.documentIndex}#${entry.path.join('.')}#${entry.message}`;
    if (seen.has(key)) {
      continue;
    }
    seen.add(key);
    const partly = entry.replicas !== undefined && entry.replicas.created > 0;
    const fields: Finding = {
      code: partly ? 'admission-refused-partly' : 'admission-refused',
      severity: partly ? 'warning' : 'error',
      message: entry.message,
      object: { file: entry.file, documentIndex: entry.documentIndex, path: entry.path },
    };
    const file = byId.get(entry.file);
    const range = file === undefined ? undefined : rangeAt(file, entry);
    findings.push(
      file === undefined || range === undefined
        ? { code: fields.code, severity: fields.severity, message: fields.message }
        : placeFindingAt(file, range[0], range[1], fields),
    );
  }
  return findings;
}

/**
 * The offsets of a field of a document, as the editor places a finding: a scalar's value, else the field's key
 * (or its nearest parent's); the start of the document for the object itself.
 */
function rangeAt(file: InputFile, source: ObjectSource): readonly [number, number] | undefined {
  const document = file.analysis.documents[source.documentIndex];
  if (document === undefined) {
    return undefined;
  }
  const root = (document.yaml.document?.contents ?? undefined) as Node | undefined;
  const path = source.path;
  const range = path.length === 0 ? undefined : rangeForField(root, path);
  const [start, end] = range ?? [document.yaml.start, document.yaml.start];
  return [document.offset + start, document.offset + end];
}
