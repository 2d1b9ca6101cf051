/**
 * The prediction part of a hover: where each replica lands, the QoS class and why, and for Pending replicas
 * kube-scheduler's message with a per-node table of the filter that failed; on `resources`, how the requests fit
 * the nodes. Short Markdown tables, readable in a hover. Every string from a manifest or the cluster is escaped.
 */
import type { ReportNode } from '../../engine/scenario/report/report-entries';
import { containerOomScoreAdjust, nodeMemoryCapacity } from '../../engine/model/oom-score';
import { parseQuantity } from '../../engine/model/quantity';
import { escapeMarkdown } from '../assist/markdown';
import { pendingSummary } from './prediction-findings';
import type { NodeFacts } from './landing-nodes';
import { freeRoomOf, landingBlock, landingNodes, largestFree, tolerationsOf } from './landing-nodes';
import type { WorkloadPrediction } from './workload-predictions';

/** The most replica rows shown before the table is cut. */
const MAX_REPLICA_ROWS = 10;

/**
 * The most node rows of a table, and names of a tie, shown before they are cut: on a captured cluster of 5,000
 * nodes a Pending replica's table had 5,000 rows (170,000 characters in one hover) and a tie named 4,999 nodes.
 */
const MAX_NODE_ROWS = 20;
const MAX_TIED_NAMES = 5;

/** Markdown for a workload's prediction. */
export function workloadHoverMarkdown(prediction: WorkloadPrediction): string {
  const total = prediction.replicas.length;
  const lines: string[] = [];
  const placed = prediction.pending === 0 ? `all ${total} scheduled` : `${pendingSummary(prediction)}`;
  lines.push(`**Prediction** · ${escapeMarkdown(`${prediction.kind} ${prediction.name}`)}: ${placed}`);
  lines.push('');
  lines.push(`QoS class **${prediction.qosClass}**: ${escapeMarkdown(prediction.qosReason)}.`);
  lines.push('');
  lines.push('| pod | node |');
  lines.push('| --- | --- |');
  for (const replica of prediction.replicas.slice(0, MAX_REPLICA_ROWS)) {
    const node =
      replica.nodeName === null
        ? '_Pending_'
        : escapeMarkdown(replica.nodeName) +
          (replica.tiedNodes.length > 1
            ? ` (tied with ${tiedText(replica.tiedNodes, replica.nodeName)})`
            : '');
    lines.push(`| ${escapeMarkdown(replica.podName)} | ${node} |`);
  }
  if (total > MAX_REPLICA_ROWS) {
    lines.push(`| … ${total - MAX_REPLICA_ROWS} more | |`);
  }
  if (prediction.cannotStart > 0 && prediction.cannotStartMessage !== null) {
    lines.push('');
    const pods = prediction.cannotStart === 1 ? '1 pod' : `${prediction.cannotStart} pods`;
    lines.push(
      `**Never starts** (${pods}, ${escapeMarkdown(prediction.cannotStartReason ?? 'waiting')}): ${escapeMarkdown(prediction.cannotStartMessage)}`,
    );
  }
  if (prediction.pendingMessage !== null) {
    lines.push('');
    lines.push(`**Pending:** ${escapeMarkdown(prediction.pendingMessage)}`);
    if (prediction.nodeReasons.size > 0) {
      lines.push('');
      lines.push('| node | filter that failed |');
      lines.push('| --- | --- |');
      let rows = 0;
      for (const [node, reasons] of prediction.nodeReasons) {
        if (rows++ === MAX_NODE_ROWS) {
          break;
        }
        lines.push(`| ${escapeMarkdown(node)} | ${escapeMarkdown(reasons.join(', '))} |`);
      }
      if (prediction.nodeReasons.size > MAX_NODE_ROWS) {
        lines.push(
          `| … ${(prediction.nodeReasons.size - MAX_NODE_ROWS).toLocaleString('en-US')} more nodes | |`,
        );
      }
    }
  }
  return lines.join('\n');
}

/** The other nodes of a tie, the first few named and the rest counted. */
function tiedText(tiedNodes: readonly string[], nodeName: string): string {
  const others = tiedNodes.filter((node) => node !== nodeName);
  const named = escapeMarkdown(others.slice(0, MAX_TIED_NAMES).join(', '));
  return others.length > MAX_TIED_NAMES
    ? `${named} and ${(others.length - MAX_TIED_NAMES).toLocaleString('en-US')} more`
    : named;
}

/**
 * Markdown for `resources` of a container: the pod's requests against each node's free room after the
 * simulation ("fits on 2 of 4 nodes; largest free cpu: 1200m on worker-b"). A node the pod cannot land on
 * (cordoned, tainted against it: landing-nodes.ts) does not fit whatever its room, and is never the largest: the
 * quick fix that lowers requests chooses among the same nodes.
 */
export function resourcesHoverMarkdown(
  requests: { readonly cpuMilli: number; readonly memoryBytes: number },
  nodes: readonly ReportNode[],
  facts?: NodeFacts,
  podSpec?: unknown,
): string {
  const tolerations = tolerationsOf(podSpec);
  const rows = nodes.map((node) => {
    const room = freeRoomOf(node);
    const blocked = landingBlock(node.name, facts, tolerations);
    const hasRoom = room.cpuMilli >= requests.cpuMilli && room.memoryBytes >= requests.memoryBytes;
    return {
      name: node.name,
      freeCpu: room.cpuMilli,
      freeMemory: room.memoryBytes,
      fits: blocked === undefined && hasRoom,
      note: blocked === undefined ? (hasRoom ? 'yes' : 'no') : `no (${blocked})`,
    };
  });
  const fitting = rows.filter((row) => row.fits).length;
  const largest = largestFree(landingNodes(nodes, facts, podSpec));
  const largestText =
    largest === undefined
      ? 'no node it can land on'
      : `largest free cpu: ${formatCpu(largest.cpu.cpuMilli)} on ${escapeMarkdown(largest.cpu.node.name)}, memory: ${formatMemory(largest.memory.memoryBytes)} on ${escapeMarkdown(largest.memory.node.name)}`;
  const lines = [
    `**Fit** · pod requests ${formatCpu(requests.cpuMilli)} cpu, ${formatMemory(requests.memoryBytes)} memory: fits on ${fitting} of ${rows.length} nodes after the simulated placements; ${largestText}.`,
    '',
    '| node | free cpu | free memory | fits |',
    '| --- | --- | --- | --- |',
    ...rows
      .slice(0, MAX_NODE_ROWS)
      .map(
        (row) =>
          `| ${escapeMarkdown(row.name)} | ${formatCpu(row.freeCpu)} | ${formatMemory(row.freeMemory)} | ${escapeMarkdown(row.note)} |`,
      ),
  ];
  if (rows.length > MAX_NODE_ROWS) {
    const rest = rows.slice(MAX_NODE_ROWS);
    lines.push(
      `| … ${rest.length.toLocaleString('en-US')} more nodes | | | ${rest.filter((row) => row.fits).length.toLocaleString('en-US')} of them |`,
    );
  }
  return lines.join('\n');
}

/**
 * Markdown for a container's oom_score_adj on the node its pod is predicted on (the kubelet's
 * GetContainerOOMScoreAdjust: -997 Guaranteed or node-critical, 1000 BestEffort, Burstable by its memory request
 * over the node's memory capacity); undefined when the pod has no such container or the node is unknown.
 */
export function oomScoreHoverMarkdown(
  podSpec: unknown,
  containerName: string,
  node: ReportNode,
  podLevelResources: boolean,
): string | undefined {
  const capacity = nodeMemoryCapacity(node.memoryCapacity, valueOf(node.allocatable['memory']));
  const score = containerOomScoreAdjust(podSpec, containerName, capacity, { podLevelResources });
  if (score === undefined || score === null) {
    return undefined;
  }
  return `**oom_score_adj** · container ${escapeMarkdown(containerName)} on ${escapeMarkdown(node.name)} (${formatMemory(capacity)} memory): **${score.score}**, ${escapeMarkdown(score.reason)}. The kernel's OOM killer picks the highest score first; the kubelet evicts under memory pressure before it comes to that.`;
}

function valueOf(text: string | undefined): number {
  if (text === undefined) {
    return 0;
  }
  const parsed = parseQuantity(text);
  return parsed.ok ? parsed.quantity.value : 0;
}

function formatCpu(milli: number): string {
  return milli % 1000 === 0
    ? String(milli / 1000)
    : `${(milli / 1000).toFixed(milli % 100 === 0 ? 1 : 3).replace(/0+$/, '')}`;
}

function formatMemory(bytes: number): string {
  const gi = 1024 ** 3;
  const mi = 1024 ** 2;
  if (Math.abs(bytes) >= gi) {
    return `${(bytes / gi).toFixed(1).replace(/\.0$/, '')}Gi`;
  }
  return `${Math.round(bytes / mi)}Mi`;
}

/** A disruption budget as the report gives it (the timeline's end state). */
interface BudgetHoverData {
  readonly name: string;
  readonly expectedPods: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly disruptionsAllowed: number;
  readonly blocks: readonly { readonly pod: string }[];
}

/** Markdown for a PodDisruptionBudget: its four numbers, and the drains it holds up. */
export function budgetHoverMarkdown(budget: BudgetHoverData, blockedDrains: readonly string[]): string {
  const lines = [
    `**Disruption budget** · ${escapeMarkdown(budget.name)}: ${budget.disruptionsAllowed} voluntary disruption(s) allowed now`,
    '',
    '| expectedPods | currentHealthy | desiredHealthy | disruptionsAllowed |',
    '| --- | --- | --- | --- |',
    `| ${budget.expectedPods} | ${budget.currentHealthy} | ${budget.desiredHealthy} | ${budget.disruptionsAllowed} |`,
  ];
  if (budget.blocks.length > 0) {
    lines.push(
      '',
      `Evictions refused now: ${escapeMarkdown(budget.blocks.map((block) => block.pod).join(', '))}.`,
    );
  }
  lines.push(
    '',
    blockedDrains.length === 0
      ? 'No simulated `kubectl drain` is held up by it.'
      : `\`kubectl drain\` held up: ${escapeMarkdown(blockedDrains.join(', '))}.`,
  );
  return lines.join('\n');
}

/** A claim as the report gives it (report.persistentVolumeClaims). */
interface ClaimHoverData {
  readonly name: string;
  readonly phase: string;
  readonly volumeName: string | null;
  readonly storageClassName: string;
  readonly zone: string | null;
}

/** Markdown for claims (a StatefulSet's volumeClaimTemplates, or one claim): where each binds. */
export function claimsHoverMarkdown(title: string, claims: readonly ClaimHoverData[]): string {
  const lines = [
    `**Volume claims** · ${escapeMarkdown(title)}`,
    '',
    '| claim | phase | volume | zone | class |',
  ];
  lines.push('| --- | --- | --- | --- | --- |');
  for (const claim of claims) {
    const cells = [
      claim.name,
      claim.phase,
      claim.volumeName ?? '—',
      claim.zone ?? '—',
      claim.storageClassName === '' ? '(none)' : claim.storageClassName,
    ];
    lines.push(`| ${cells.map(escapeMarkdown).join(' | ')} |`);
  }
  if (claims.some((claim) => claim.phase === 'Pending')) {
    lines.push('', 'A Pending claim keeps the pods that use it Pending.');
  }
  if (claims.some((claim) => claim.zone !== null)) {
    lines.push('', 'A volume pinned to a zone keeps its pod in that zone, even when the pod is rescheduled.');
  }
  return lines.join('\n');
}

/** A rollout as the report gives it. */
interface RolloutHoverData {
  readonly kind: string;
  readonly name: string;
  readonly strategy: string;
  readonly maxSurge: number;
  readonly maxUnavailable: number;
  readonly replicas: number;
  readonly outcome: string;
  readonly endedAt: number | null;
  readonly steps: readonly {
    readonly time: number;
    readonly newReplicas: number;
    readonly oldReplicas: number;
    readonly available: number;
    readonly unavailable: number;
  }[];
}

/** The most rollout steps shown. */
const MAX_STEP_ROWS = 12;

/** Markdown for a workload's strategy: the waves as the controller takes them, with times. */
export function rolloutHoverMarkdown(rollout: RolloutHoverData): string {
  const ended =
    rollout.endedAt === null ? 'not finished' : `${rollout.outcome} at ${formatSeconds(rollout.endedAt)}`;
  const lines = [
    `**Rollout** · ${escapeMarkdown(rollout.strategy)}, maxSurge ${rollout.maxSurge}, maxUnavailable ${rollout.maxUnavailable} over ${rollout.replicas} replicas: ${rollout.steps.length} step(s), ${escapeMarkdown(ended)}`,
    '',
    '| time | new | old | available | unavailable |',
    '| --- | --- | --- | --- | --- |',
    ...rollout.steps
      .slice(0, MAX_STEP_ROWS)
      .map(
        (step) =>
          `| ${formatSeconds(step.time)} | ${step.newReplicas} | ${step.oldReplicas} | ${step.available} | ${step.unavailable} |`,
      ),
  ];
  if (rollout.steps.length > MAX_STEP_ROWS) {
    lines.push(`| … ${rollout.steps.length - MAX_STEP_ROWS} more | | | | |`);
  }
  return lines.join('\n');
}

function formatSeconds(seconds: number): string {
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
