/**
 * The code lens above each workload: "3/3 scheduled · Burstable · rollout 3 waves, ~43 s", or
 * "1/3 scheduled · 2 Pending · Burstable · rollout stalls", "4/4 scheduled · scales burst +2 · Guaranteed · …"
 * when the cluster autoscaler grew a node group for its pods, and a "Replay" lens that opens the timeline panel at
 * this workload.
 */
import type { ReportAutoscaler } from '../../engine/autoscaler/autoscaler-report';
import type { ReportRollout } from '../../engine/scenario/report/timeline-report';
import type { WorkloadPrediction } from './workload-predictions';

/**
 * The title of a workload's summary lens; with its rollout (the timeline's), how the rollout goes; with the
 * admission plugin that refused some of its pods, how many replicas were never created ("2/3 scheduled · 1 refused
 * by ResourceQuota").
 */
export function summaryLensTitle(
  prediction: WorkloadPrediction,
  rollout?: ReportRollout,
  refusedBy?: string,
  autoscaler?: ReportAutoscaler,
): string {
  const total = prediction.replicas.length;
  const desired = rollout?.replicas ?? total;
  const refused = refusedBy === undefined ? 0 : Math.max(0, desired - total);
  const parts = [`${prediction.scheduled}/${refused > 0 ? desired : total} scheduled`];
  if (refused > 0) {
    parts.push(`${refused} refused by ${refusedBy ?? ''}`);
  }
  if (prediction.pending > 0) {
    parts.push(`${prediction.pending} Pending`);
  }
  if (prediction.cannotStart > 0) {
    parts.push(
      `${prediction.cannotStart} cannot start: ${prediction.cannotStartMessage ?? prediction.cannotStartReason ?? ''}`,
    );
  }
  const scaleUps = autoscaler === undefined ? null : scaleUpSummary(prediction, autoscaler);
  if (scaleUps !== null) {
    parts.push(scaleUps);
  }
  parts.push(prediction.qosClass);
  if (rollout !== undefined) {
    parts.push(rolloutSummary(rollout));
  }
  return parts.join(' · ');
}

/**
 * "rollout 3 waves, ~43 s": a wave is a step that grows the new revision (the controller's scale-ups, each
 * waiting for the one before to become available), the time runs from the first sync to the rollout's end.
 */
export function rolloutSummary(rollout: ReportRollout): string {
  switch (rollout.outcome) {
    case 'ProgressDeadlineExceeded':
      return 'rollout stalls';
    case 'InProgress':
      return 'rollout unfinished';
    case 'Complete': {
      let waves = 0;
      let previous = 0;
      for (const step of rollout.steps) {
        if (step.newReplicas > previous) {
          waves++;
        }
        previous = step.newReplicas;
      }
      const seconds = Math.round((rollout.endedAt ?? rollout.startedAt) - rollout.startedAt);
      return `rollout ${waves} wave${waves === 1 ? '' : 's'}, ~${seconds} s`;
    }
    default:
      return 'rollout';
  }
}

/**
 * "scales burst +2": the node groups the cluster autoscaler grew for this workload's pods (the scale-ups they
 * triggered), with the nodes added; null when none.
 */
export function scaleUpSummary(prediction: WorkloadPrediction, autoscaler: ReportAutoscaler): string | null {
  const pods = new Set(prediction.replicas.map((replica) => `${prediction.namespace}/${replica.podName}`));
  const added = new Map<string, number>();
  for (const scaleUp of autoscaler.scaleUps) {
    if (scaleUp.pods.some((pod) => pods.has(pod))) {
      added.set(scaleUp.group, (added.get(scaleUp.group) ?? 0) + scaleUp.to - scaleUp.from);
    }
  }
  if (added.size === 0) {
    return null;
  }
  return `scales ${[...added].map(([group, count]) => `${group} +${count}`).join(', ')}`;
}
