/**
 * The code lenses above each workload of an analysed text (document-answers.ts shows them): its summary ("2/2
 * scheduled · Burstable · rollout …") and the workload the Replay lens selects in the timeline. One function for a
 * file of the editor's scope and for a kustomize render's text (overlay-findings.ts), whose lenses are then placed
 * on the lines the render's objects came from, so a base file judged through its overlays' renders shows their
 * lenses (and their hovers on a workload's kind and name) on its own lines.
 */
import type { PanelWorkload } from '../../../../protocol/webview-messages';
import type { FileAnalysis } from '../analyzer';
import { summaryLensTitle } from '../predictions/code-lenses';
import { nodeRange } from '../yaml/node-at-path';
import { objectPathLength, startsWith, workloadsOf } from './prediction-hover';
import type { Prediction } from './prediction-types';
import type { WorkloadPrediction } from '../predictions/workload-predictions';

/** A workload's lens in an analysed text: where its object starts, its summary, and the workload it names. */
export interface WorkloadLens {
  /** The offset of the object's first key in the text analysed. */
  readonly start: number;
  readonly title: string;
  readonly workload: PanelWorkload;
  /** The workload's prediction. */
  readonly predicted: WorkloadPrediction;
}

/**
 * A workload's lens of a kustomize render, on the file its object came from (an absolute path's position); the
 * Replay lens opens the timeline of the kustomization (`replayUri`, a file of the overlay's folder).
 */
export interface OverlayLens {
  readonly line: number;
  readonly character: number;
  readonly title: string;
  readonly workload: PanelWorkload;
  /** The overlay ("overlays/prod"). */
  readonly label: string;
  /** The kustomization file's URI: its folder is what the timeline replays. */
  readonly replayUri: string;
  /** The render's hover on the workload's kind and name (prediction-hover.ts workloadHeaderHover). */
  readonly hover: string;
}

/** The lenses of the workloads a prediction places in a text (its URI `uri`), in document order. */
export function workloadLenses(prediction: Prediction, analysis: FileAnalysis, uri: string): WorkloadLens[] {
  const lenses: WorkloadLens[] = [];
  const report = prediction.simulation?.report;
  for (const document of analysis.documents) {
    for (const workload of workloadsOf(prediction, uri, document.index)) {
      const object = document.objects.find(
        (o) =>
          startsWith(workload.source.path, o.path) &&
          o.path.length === objectPathLength(workload.source.path),
      );
      const range = nodeRange(object?.node);
      if (range === undefined) {
        continue;
      }
      const rollout = report?.rollouts?.find(
        (r) => r.kind === workload.kind && r.namespace === workload.namespace && r.name === workload.name,
      );
      // A controller's pods the API server refused (rejected[] names the template's document).
      const refusal = report?.rejected.find(
        (entry) =>
          entry.owner !== undefined &&
          entry.file === workload.source.file &&
          entry.documentIndex === workload.source.documentIndex,
      );
      const refusedBy = refusal === undefined ? undefined : refusal.plugin || refusal.stage;
      lenses.push({
        start: range[0] + document.offset,
        title: summaryLensTitle(workload, rollout, refusedBy, report?.autoscaler),
        workload: { kind: workload.kind, namespace: workload.namespace, name: workload.name },
        predicted: workload,
      });
    }
  }
  return lenses;
}
