/**
 * The code lens above each workload: "3/3 scheduled · Burstable", or "1/3 scheduled · 2 Pending · Burstable",
 * and a "Replay" lens that opens the timeline panel at this workload.
 */
import type { WorkloadPrediction } from './workload-predictions';

/** The title of a workload's summary lens. */
export function summaryLensTitle(prediction: WorkloadPrediction): string {
  const total = prediction.replicas.length;
  const parts = [`${prediction.scheduled}/${total} scheduled`];
  if (prediction.pending > 0) {
    parts.push(`${prediction.pending} Pending`);
  }
  parts.push(prediction.qosClass);
  return parts.join(' · ');
}
