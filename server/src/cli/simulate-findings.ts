/**
 * The findings of `foresight simulate` placed on its input files, for the report's lines and for the machine
 * formats: the report's findings (each located by its document and field path, the field's key or scalar value as
 * the editor places it), then the predicted failures the report lists apart from its findings, as the editor shows
 * them: replicas that stay Pending (`pod-unschedulable`, on the field that causes it), and what the API server
 * refuses (`admission-refused`, or `admission-refused-partly` when some of a workload's replicas exist).
 */
import type { Node } from 'yaml';
import { isScalar } from 'yaml';
import { isPredictedOutcome } from '../engine/model/timeline-findings';
import type { ObjectSource } from '../engine/model/source';
import type { ReportFinding } from '../engine/simulate/report';
import type { SimulationResult } from '../engine/simulate/simulate';
import type { KubernetesMinor } from '../engine/version';
import { isAtLeast } from '../engine/version';
import type { AnalyzedDocument } from '../language/analyzer';
import { pendingSummary, predictionFindings } from '../language/predictions/prediction-findings';
import { buildWorkloadPredictions } from '../language/predictions/workload-predictions';
import { nodeAtPath, rangeForKey, rangeForValue } from '../language/yaml/node-at-path';
import type { CliFinding, FailureClass } from './formats/cli-finding';
import { cliFindingAt } from './formats/cli-finding';
import type { InputFile } from './read-input';

/** A report finding, with its offsets when it was made from the text (the analyser's findings). */
export interface PlacedReportFinding {
  readonly finding: ReportFinding;
  readonly start?: number;
  readonly end?: number;
}

/** The report's findings with their lines, and every finding of the run for the formats. */
interface SimulationFindings {
  readonly reportFindings: ReportFinding[];
  readonly findings: CliFinding[];
}

/**
 * Places the report's findings and adds the predicted failures. A finding keeps its file when it is an input file
 * or a skipped chart's Chart.yaml (`chartFiles`); others ("<command line>" for a scenario step given as a flag, ""
 * for the embedded cluster) are on the cluster as a whole.
 */
export function placeSimulationFindings(
  files: readonly InputFile[],
  chartFiles: readonly string[],
  placed: readonly PlacedReportFinding[],
  result: SimulationResult,
  version: KubernetesMinor,
): SimulationFindings {
  const byId = new Map(files.map((file) => [file.id, file]));
  const paths = new Set([...byId.keys(), ...chartFiles]);
  const fileOf = (file: string): { file?: string } => (paths.has(file) ? { file } : {});
  const reportFindings: ReportFinding[] = [];
  const findings: CliFinding[] = [];
  for (const { finding, start, end } of placed) {
    const file = byId.get(finding.file);
    const range =
      file === undefined
        ? undefined
        : start !== undefined
          ? ([start, end ?? start] as const)
          : rangeAt(file, { file: finding.file, documentIndex: finding.documentIndex, path: finding.path });
    const fields = {
      code: finding.code,
      severity: finding.severity,
      failureClass: failureClassOf(finding),
      message: finding.message,
    };
    if (file === undefined || range === undefined) {
      reportFindings.push(finding);
      findings.push({ ...fields, ...fileOf(finding.file) });
      continue;
    }
    const cli = cliFindingAt(file, range[0], range[1], fields);
    reportFindings.push(finding.line !== undefined ? finding : { ...finding, line: cli.region?.startLine });
    findings.push(cli);
  }
  findings.push(...pendingFindings(byId, result, version), ...refusalFindings(byId, result));
  return { reportFindings, findings };
}

/** An error of the input, a predicted failure (an error the simulation predicts), a warning or a note. */
function failureClassOf(finding: ReportFinding): FailureClass {
  if (finding.severity !== 'error') {
    return finding.severity;
  }
  return isPredictedOutcome(finding.code) ? 'prediction' : 'error';
}

/** Each workload with replicas that stay Pending: the editor's findings, or one on the workload's file. */
function pendingFindings(
  byId: ReadonlyMap<string, InputFile>,
  result: SimulationResult,
  version: KubernetesMinor,
): CliFinding[] {
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
    .map((pod): CliFinding => ({
      ...pending,
      failureClass: 'prediction',
      message: `Pod ${pod.namespace}/${pod.name} stays Pending: ${pod.unschedulable?.message ?? ''}`,
    }));
  const located = predictions.flatMap((prediction): CliFinding[] => {
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
              cliFindingAt(file, finding.start, finding.end, {
                ...pending,
                failureClass: 'prediction',
                message: finding.message,
              }),
            );
    if (located.length > 0) {
      return located;
    }
    const summary = pendingSummary(prediction);
    const message =
      prediction.pendingMessage === null ? `${summary}.` : `${summary}: ${prediction.pendingMessage}`;
    const fields = {
      ...pending,
      failureClass: 'prediction',
      message: `${prediction.kind} ${prediction.namespace}/${prediction.name}: ${message}`,
    } as const;
    const range = file === undefined ? undefined : rangeAt(file, prediction.source);
    return [
      file === undefined || range === undefined ? fields : cliFindingAt(file, range[0], range[1], fields),
    ];
  });
  return [...located, ...uncovered];
}

/** Each refusal of the API server (the same refusal of several pods once), on the field that causes it. */
function refusalFindings(byId: ReadonlyMap<string, InputFile>, result: SimulationResult): CliFinding[] {
  const seen = new Set<string>();
  const findings: CliFinding[] = [];
  for (const entry of result.report.rejected) {
    const key = `${entry.file}#${entry.documentIndex}#${entry.path.join('.')}#${entry.message}`;
    if (seen.has(key)) {
      continue;
    }
    seen.add(key);
    const partly = entry.replicas !== undefined && entry.replicas.created > 0;
    const fields = {
      code: partly ? 'admission-refused-partly' : 'admission-refused',
      severity: partly ? 'warning' : 'error',
      failureClass: 'prediction',
      message: entry.message,
    } as const;
    const file = byId.get(entry.file);
    const range = file === undefined ? undefined : rangeAt(file, entry);
    findings.push(
      file === undefined || range === undefined ? fields : cliFindingAt(file, range[0], range[1], fields),
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
  const range =
    path.length === 0
      ? undefined
      : isScalar(nodeAtPath(root, path))
        ? rangeForValue(root, path)
        : rangeForKey(root, path);
  const [start, end] = range ?? [document.yaml.start, document.yaml.start];
  return [document.offset + start, document.offset + end];
}
