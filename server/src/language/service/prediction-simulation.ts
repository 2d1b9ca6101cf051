/**
 * What a prediction keeps of its simulation: the parts that findings, hovers and code lenses read. A simulation
 * of 1,000 objects is about 3.5 MB once serialised, most of it the scheduling records (every pod with its filter
 * statuses per node) and the report's pods and events; what the editor shows needs the workloads' predictions,
 * the report without its pods and events, and two pods per workload (the first replica, and the first placed one,
 * that hovers explain). Keeping only this makes the prediction worker's answer small (prediction-worker.ts), and
 * it is plain data (structured clone keeps it as it is), so the worker's answer and a run in the main thread are
 * the same value. The timeline panel runs its own simulation with everything (simulation-request.ts).
 */
import type { ObjectSource } from '../../engine/model/source';
import type { SimulationReport } from '../../engine/simulate/report';
import type { SimulationResult } from '../../engine/simulate/simulate';
import { buildWorkloadPredictions } from '../predictions/workload-predictions';
import type { WorkloadPrediction } from '../predictions/workload-predictions';
import type { Finding } from '../../../../protocol/finding';

/**
 * The report of a prediction: the simulation's, without its pods and events (what the editor never shows), its
 * drains only those a disruption budget blocks.
 */
export type PredictionReport = Omit<SimulationReport, 'pods' | 'events'>;

/** One pod of a workload as hovers read it: its requests, its node, and its spec (containers' oom_score_adj). */
export interface PodSample {
  /** Where its template is written (the workload's source). */
  readonly source: ObjectSource;
  /** The node it is placed on, or null while Pending. */
  readonly nodeName: string | null;
  /** Its effective requests (what NodeResourcesFit checks): millicores and bytes. */
  readonly requests: { readonly milliCpu: number; readonly memory: number };
  /** Its spec as created. */
  readonly spec: unknown;
}

/** What a prediction keeps of its simulation. */
export interface PredictionSimulation {
  readonly report: PredictionReport;
  /** Per workload (or bare pod), in the records' order: its first pod, and its first placed pod when another. */
  readonly samples: readonly PodSample[];
  readonly findings: readonly Finding[];
}

/** A simulation's workload predictions and the part of it a prediction keeps. */
export function summarizeSimulation(
  result: SimulationResult,
  podLevelResources: boolean,
): { simulation: PredictionSimulation; predictions: WorkloadPrediction[] } {
  const predictions = buildWorkloadPredictions(
    result.records,
    podLevelResources,
    result.report.pods.map((pod) => pod.waiting),
  );
  const report = reportWithoutPodsAndEvents(result.report);
  const first = new Map<string, PodSample>();
  const placed = new Map<string, PodSample>();
  // The pods of a template share its source object: its key is made once per object, not once per pod.
  const keys = new Map<ObjectSource, string>();
  for (const record of result.records) {
    const { source } = record.pod;
    let key = keys.get(source);
    if (key === undefined) {
      key = JSON.stringify([source.file, source.documentIndex, source.path]);
      keys.set(source, key);
    }
    const hasFirst = first.has(key);
    if (hasFirst && (placed.has(key) || record.nodeName === null)) {
      continue;
    }
    const sample: PodSample = {
      source,
      nodeName: record.nodeName,
      requests: { milliCpu: record.pod.requests.milliCpu, memory: record.pod.requests.memory },
      spec: record.pod.pod.spec,
    };
    if (!hasFirst) {
      first.set(key, sample);
    }
    if (record.nodeName !== null) {
      placed.set(key, sample);
    }
  }
  const samples = [...first].flatMap(([key, sample]) => {
    const other = placed.get(key);
    return other === undefined || other === sample ? [sample] : [sample, other];
  });
  return { simulation: { report, samples, findings: result.findings }, predictions };
}

/**
 * The report without its pods and events, and with only the drains a disruption budget blocks: the editor reads
 * drains only to name, in a budget's hover, the nodes whose drain it blocks (prediction-hover.ts). The report has
 * one drain per node, 5.6 MB of the answer on a capture of 5,000 nodes that the worker sent on every keystroke.
 */
function reportWithoutPodsAndEvents({ pods, events, ...report }: SimulationReport): PredictionReport {
  // Left out on purpose: read by the timeline panel and the CLI, never by the editor's predictions.
  void pods;
  void events;
  const drains = report.drains?.filter((drain) =>
    drain.blockedBy.some((block) => block.disruptionBudget !== null),
  );
  return drains === undefined || drains.length === report.drains?.length ? report : { ...report, drains };
}
