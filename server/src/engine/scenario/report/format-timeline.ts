/**
 * The timeline sections of the report as text for a person: each rollout's waves (time, new, old, available,
 * unavailable) and how it ended, each disruption budget's verdict, what the cluster autoscaler did, the drains that
 * do not go through at once, and what each Job did.
 * Built from the JSON report only, like the rest of the text output.
 */
import type { ReportDrain, ReportRollout, TimelineReport } from './timeline-report';
import { formatJobs } from './job-report';
import { formatPressure } from './pressure-report';
import { formatAutoscaler } from '../../autoscaler/autoscaler-report';
import { appendAll, maxOf } from '../../../../../protocol/collections';

/** How many blocked evictions or nodes are listed before a count. */
const MAX_LISTED = 8;

/** Renders the timeline sections of a report that may lack them (simulate() run without the timeline). */
export function formatTimelineSections(report: Partial<TimelineReport>): string[] {
  const { timeline, rollouts, disruptionBudgets, drains, events, persistentVolumeClaims, jobs, autoscaler } =
    report;
  const { horizontalPodAutoscalers, kubeletEvictions } = report;
  if (timeline === undefined || rollouts === undefined || disruptionBudgets === undefined) {
    return [];
  }
  return formatTimelineText({
    timeline,
    rollouts,
    disruptionBudgets,
    drains: drains ?? [],
    jobs: jobs ?? [],
    horizontalPodAutoscalers: horizontalPodAutoscalers ?? [],
    kubeletEvictions: kubeletEvictions ?? [],
    events: events ?? [],
    persistentVolumeClaims: persistentVolumeClaims ?? [],
    ...(autoscaler === undefined ? {} : { autoscaler }),
  });
}

/** Renders the timeline sections (empty when there is nothing to say). */
function formatTimelineText(report: TimelineReport): string[] {
  const lines: string[] = [];
  if (report.persistentVolumeClaims.length > 0) {
    lines.push('', 'Volume claims');
    for (const claim of report.persistentVolumeClaims) {
      const where =
        claim.volumeName === null
          ? ''
          : ` to ${claim.volumeName}${claim.zone === null ? '' : ` (${claim.zone})`}`;
      const storageClass = claim.storageClassName === '' ? 'no class' : `class ${claim.storageClassName}`;
      lines.push(`  ${claim.namespace}/${claim.name}: ${claim.phase}${where}, ${storageClass}`);
    }
  }
  if (report.rollouts.length > 0) {
    lines.push('', 'Rollouts');
    for (const rollout of report.rollouts) {
      appendAll(lines, formatRollout(rollout));
    }
  }
  if (report.disruptionBudgets.length > 0) {
    lines.push('', 'Disruption budgets');
    for (const budget of report.disruptionBudgets) {
      const verdict =
        budget.syncError !== null
          ? `allows no disruption: ${budget.syncError}`
          : `allows ${budget.disruptionsAllowed} disruption${budget.disruptionsAllowed === 1 ? '' : 's'}`;
      lines.push(
        `  ${budget.namespace}/${budget.name}: ${budget.currentHealthy} healthy, ${budget.desiredHealthy} desired, ${budget.expectedPods} expected; ${verdict}`,
      );
      for (const block of budget.blocks.slice(0, MAX_LISTED)) {
        lines.push(`    blocks eviction of ${block.pod}: ${block.message}`);
      }
      if (budget.blocks.length > MAX_LISTED) {
        lines.push(`    and ${budget.blocks.length - MAX_LISTED} more pods`);
      }
    }
  }
  appendAll(lines, formatAutoscaler(report.autoscaler));
  appendAll(lines, formatDrains(report.drains));
  appendAll(lines, formatJobs(report.jobs));
  appendAll(lines, formatPressure(report.horizontalPodAutoscalers, report.kubeletEvictions));
  if (report.events.length > 0) {
    const state = report.timeline.settled ? 'settles' : 'stopped';
    lines.push(
      '',
      `Timeline: ${report.events.length} events; the cluster ${state} at t=${report.timeline.endTime}s.`,
    );
  }
  return lines;
}

function formatRollout(rollout: ReportRollout): string[] {
  const ending =
    rollout.outcome === 'Complete'
      ? `complete at ${rollout.endedAt ?? 0}s`
      : rollout.outcome === 'ProgressDeadlineExceeded'
        ? `ProgressDeadlineExceeded at ${rollout.endedAt ?? 0}s`
        : 'not finished';
  const surge = rollout.kind === 'StatefulSet' ? '' : `maxSurge ${rollout.maxSurge}, `;
  const lines = [
    `  ${rollout.kind} ${rollout.namespace}/${rollout.name}: ${rollout.strategy}, ${surge}maxUnavailable ${rollout.maxUnavailable}, ${rollout.replicas} replicas; ${ending}`,
  ];
  if (rollout.message !== '') {
    lines.push(`    ${rollout.message}`);
  }
  const header = ['TIME', 'NEW', 'OLD', 'AVAILABLE', 'UNAVAILABLE'];
  const rows = rollout.steps.map((step) => [
    `${step.time}s`,
    String(step.newReplicas),
    String(step.oldReplicas),
    String(step.available),
    String(step.unavailable),
  ]);
  const widths = header.map((title, column) =>
    maxOf(
      rows.map((row) => (row[column] ?? '').length),
      title.length,
    ),
  );
  const render = (cells: readonly string[]): string =>
    `    ${cells.map((cell, column) => cell.padStart(widths[column] ?? 0)).join('  ')}`;
  appendAll(lines, [render(header), ...rows.map(render)]);
  return lines;
}

function formatDrains(drains: readonly ReportDrain[]): string[] {
  if (drains.length === 0) {
    return [];
  }
  const lines = ['', 'Drains'];
  const allowed = drains.filter((drain) => drain.verdict === 'Allowed');
  for (const drain of drains.filter((entry) => entry.verdict !== 'Allowed')) {
    lines.push(`  ${drain.node}: ${describeDrain(drain)}`);
    for (const block of drain.blockedBy.slice(0, MAX_LISTED)) {
      const by =
        block.disruptionBudget === null ? 'refused' : `held by PodDisruptionBudget ${block.disruptionBudget}`;
      lines.push(`    ${block.pod} ${by}: ${block.message}`);
    }
    for (const error of drain.errors) {
      lines.push(`    ${error}`);
    }
  }
  if (allowed.length > 0) {
    const names = allowed.slice(0, MAX_LISTED).map((drain) => drain.node);
    const more = allowed.length > MAX_LISTED ? ` and ${allowed.length - MAX_LISTED} more` : '';
    lines.push(`  drain allowed at once: ${names.join(', ')}${more}`);
  }
  return lines;
}

function describeDrain(drain: ReportDrain): string {
  const evicted = `${drain.evicted.length} pod${drain.evicted.length === 1 ? '' : 's'} evicted`;
  switch (drain.verdict) {
    case 'Completed':
      return `drained by the scenario from ${drain.startedAt ?? 0}s to ${drain.completedAt ?? 0}s (${evicted})`;
    case 'Failed':
      return `the scenario's drain at ${drain.startedAt ?? 0}s fails`;
    case 'NotFinished':
      return `the scenario's drain from ${drain.startedAt ?? 0}s had not finished (${evicted})`;
    case 'NeverFinishes':
      return drain.origin === 'scenario'
        ? `the scenario's drain from ${drain.startedAt ?? 0}s never finishes (${evicted})`
        : 'a drain now would never finish';
    case 'WaitsForBudget':
      return 'a drain now would wait for replacement pods before evicting';
    case 'Allowed':
      return 'a drain now would evict every pod at once';
  }
}
