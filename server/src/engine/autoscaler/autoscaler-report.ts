/**
 * The report's `autoscaler` section (schemas/report.schema.json), present when the cluster file has NodeGroups:
 * each group's sizes, each scale-up (time, group, sizes, cluster-autoscaler's message, the pods that triggered it,
 * its nodes and when they joined) and scale-down (node, when it was unneeded since, utilization, outcome), and the
 * pods left Pending with the autoscaler's reason.
 */
import type { AutoscalerLog } from './autoscaler-log';

/** A scale-up in the report. */
interface ReportScaleUp {
  readonly time: number;
  readonly group: string;
  readonly from: number;
  readonly to: number;
  readonly max: number;
  readonly message: string;
  readonly pods: readonly string[];
  readonly nodes: readonly { readonly name: string; readonly readyAt: number }[];
}

/** A scale-down in the report. */
interface ReportScaleDown {
  readonly time: number;
  readonly group: string;
  readonly node: string;
  readonly unneededSince: number;
  /** max(cpu, memory) requested / allocatable when the node was chosen, 0 to 1. */
  readonly utilization: number;
  readonly outcome: 'Draining' | 'Removed' | 'Failed';
  readonly removedAt: number | null;
  readonly message: string;
}

/** The autoscaler section. */
export interface ReportAutoscaler {
  readonly scaleUps: readonly ReportScaleUp[];
  readonly scaleDowns: readonly ReportScaleDown[];
  /** Pods still Pending at the end that the autoscaler could not help, with its NotTriggerScaleUp message. */
  readonly noScaleUp: readonly { readonly pod: string; readonly time: number; readonly message: string }[];
  /** When it stopped after too many scale-ups and scale-downs (a flapping run); absent when it did not. */
  readonly stoppedAt?: number;
}

/** Builds the section from the autoscaler's log; `isPending` says whether a pod is still Pending at the end. */
export function reportAutoscaler(log: AutoscalerLog, isPending: (pod: string) => boolean): ReportAutoscaler {
  return {
    scaleUps: log.scaleUps.map((record) => ({
      time: record.time,
      group: record.group,
      from: record.from,
      to: record.to,
      max: record.max,
      message: record.message,
      pods: [...record.pods],
      nodes: record.nodes.map((node) => ({ ...node })),
    })),
    scaleDowns: log.scaleDowns.map((record) => ({
      time: record.time,
      group: record.group,
      node: record.node,
      unneededSince: record.unneededSince,
      utilization: Math.round(record.utilization * 1000) / 1000,
      outcome: record.outcome,
      removedAt: record.removedAt,
      message: record.message,
    })),
    ...(log.stoppedAt === null ? {} : { stoppedAt: log.stoppedAt }),
    noScaleUp: [...log.noScaleUp.values()]
      .filter((record) => isPending(record.pod))
      .map((record) => ({ ...record }))
      .sort((a, b) => (a.pod < b.pod ? -1 : a.pod > b.pod ? 1 : 0)),
  };
}

/**
 * The section as text: each scale-up with its nodes' join times, each scale-down, the pods it cannot help. A run
 * in which it did nothing has no block (the embedded default has a node group: the block would be in every run);
 * the JSON report keeps the empty section.
 */
export function formatAutoscaler(section: ReportAutoscaler | undefined): string[] {
  if (
    section === undefined ||
    (section.scaleUps.length === 0 && section.scaleDowns.length === 0 && section.noScaleUp.length === 0)
  ) {
    return [];
  }
  const lines = ['', 'Cluster autoscaler'];
  for (const up of section.scaleUps) {
    const joined = up.nodes.map((node) => `${node.name} Ready at ${node.readyAt}s`).join(', ');
    const pods = `${up.pods.length} pod${up.pods.length === 1 ? '' : 's'}`;
    lines.push(
      `  ${up.time}s scale-up ${up.group} ${up.from} → ${up.to} (max ${up.max}) for ${pods}: ${joined}`,
    );
  }
  for (const down of section.scaleDowns) {
    const outcome =
      down.outcome === 'Removed'
        ? `removed at ${down.removedAt ?? down.time}s`
        : down.outcome === 'Failed'
          ? down.message
          : 'still draining';
    lines.push(
      `  ${down.time}s scale-down ${down.group}: ${down.node} unneeded since ${down.unneededSince}s (utilization ${Math.round(down.utilization * 100)}%), ${outcome}`,
    );
  }
  if (section.stoppedAt !== undefined) {
    lines.push(
      `  stopped at ${section.stoppedAt}s after ${section.scaleUps.length + section.scaleDowns.length} scale-ups and scale-downs: the same pods keep getting nodes that are then removed`,
    );
  }
  const byMessage = new Map<string, string[]>();
  for (const entry of section.noScaleUp) {
    byMessage.set(entry.message, [...(byMessage.get(entry.message) ?? []), entry.pod]);
  }
  for (const [message, pods] of byMessage) {
    const listed = pods.slice(0, 3).join(', ') + (pods.length > 3 ? ` and ${pods.length - 3} more` : '');
    lines.push(`  Pending ${listed}: ${message}`);
  }
  return lines;
}
