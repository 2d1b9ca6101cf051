/**
 * The consequences part of a plan, read from the simulation reports (nothing is simulated here): each rollout's
 * cost (pods replaced, waves, time, the most desired replicas unavailable at once, the fewest disruptions the
 * budgets over its pods allowed), and capacity before and after (requested cpu and memory per node group or zone,
 * the nodes the cluster autoscaler adds or removes, the cluster's pods that end on another node or on none).
 */
import type { SourcedObject } from '../model/load/cluster-load';
import type { SimulationReport } from '../simulate/report';
import type { JsonObject } from '../model/json';
import { asObject, isJsonObject, readString, readStringMap } from '../model/json';
import { compileOrNothing } from '../model/label-selector';
import { formatBytes, formatMilli, parseQuantity } from '../model/quantity';
import type { PlanCapacity, PlanCapacityGroup, PlanRollout } from './plan-types';

/** Node labels that name a node group (GKE, EKS, AKS, Karpenter, kOps), in the order they are tried. */
const NODE_GROUP_LABELS = [
  'cloud.google.com/gke-nodepool',
  'eks.amazonaws.com/nodegroup',
  'kubernetes.azure.com/agentpool',
  'karpenter.sh/nodepool',
  'kops.k8s.io/instancegroup',
];
const ZONE_LABEL = 'topology.kubernetes.io/zone';

/**
 * The report's rollouts with their cost. The budgets of a rollout are those whose selector (matchLabels and
 * matchExpressions) matches its pod template's labels; each one's fewest disruptions allowed is the lowest
 * status.disruptionsAllowed the disruption controller computed while the rollout ran, so every pod the budget
 * selects counts (another workload's pods it covers, evictions of a drain at the same time), not only the
 * rolling workload's.
 */
export function planRollouts(report: SimulationReport, objects: readonly SourcedObject[]): PlanRollout[] {
  return (report.rollouts ?? []).map((rollout) => {
    const firstOld = rollout.steps[0]?.oldReplicas ?? 0;
    const isNew = firstOld === 0 && rollout.steps.every((step) => step.oldReplicas === 0);
    let waves = 0;
    let previous = 0;
    let peakUnavailable = 0;
    for (const step of rollout.steps) {
      if (step.newReplicas > previous) {
        waves++;
      }
      previous = step.newReplicas;
      peakUnavailable = Math.max(peakUnavailable, rollout.replicas - step.available);
    }
    const labels = templateLabels(objects, rollout.kind, rollout.namespace, rollout.name);
    const budgets = (report.disruptionBudgets ?? [])
      .filter((budget) => budget.namespace === rollout.namespace)
      .filter((budget) => labels !== null && selects(objects, budget.namespace, budget.name, labels))
      .map((budget) => ({
        name: budget.name,
        minDisruptionsAllowed: fewestAllowed(budget, rollout.startedAt, rollout.endedAt),
      }));
    return {
      kind: rollout.kind,
      namespace: rollout.namespace,
      name: rollout.name,
      strategy: rollout.strategy,
      replicas: rollout.replicas,
      isNew,
      podsReplaced: isNew ? 0 : Math.min(firstOld, rollout.replicas),
      waves,
      startedAt: rollout.startedAt,
      duration:
        rollout.outcome === 'Complete' && rollout.endedAt !== null
          ? rollout.endedAt - rollout.startedAt
          : null,
      outcome: rollout.outcome,
      peakUnavailable: Math.max(0, peakUnavailable),
      budgets,
      message: rollout.message,
    };
  });
}

/** The lowest disruptionsAllowed in effect from `from` to `to` (null: to the end of the timeline). */
function fewestAllowed(
  budget: NonNullable<SimulationReport['disruptionBudgets']>[number],
  from: number,
  to: number | null,
): number {
  let fewest = Number.POSITIVE_INFINITY;
  let inEffect: number | undefined;
  for (const change of budget.allowedChanges) {
    if (change.at <= from) {
      inEffect = change.disruptionsAllowed;
    } else if (to === null || change.at <= to) {
      fewest = Math.min(fewest, change.disruptionsAllowed);
    }
  }
  if (inEffect !== undefined) {
    fewest = Math.min(fewest, inEffect);
  }
  return Number.isFinite(fewest) ? fewest : budget.disruptionsAllowed;
}

/** The last object of a kind and name (the input after the cluster file): its pod template's labels. */
function templateLabels(
  objects: readonly SourcedObject[],
  kind: string,
  namespace: string,
  name: string,
): Record<string, string> | null {
  const object = findLast(objects, kind, namespace, name);
  if (object === undefined) {
    return null;
  }
  return readStringMap(asObject(asObject(asObject(object['spec'])['template'])['metadata'])['labels']);
}

function selects(
  objects: readonly SourcedObject[],
  namespace: string,
  name: string,
  labels: Record<string, string>,
): boolean {
  const budget = findLast(objects, 'PodDisruptionBudget', namespace, name);
  const selector = asObject(budget?.['spec'])['selector'];
  return isJsonObject(selector) && compileOrNothing(selector).matches(labels);
}

function findLast(
  objects: readonly SourcedObject[],
  kind: string,
  namespace: string,
  name: string,
): JsonObject | undefined {
  let found: JsonObject | undefined;
  for (const { object } of objects) {
    if (isJsonObject(object) && object['kind'] === kind) {
      const metadata = asObject(object['metadata']);
      if (metadata['name'] === name && (readString(metadata['namespace']) ?? 'default') === namespace) {
        found = object;
      }
    }
  }
  return found;
}

/** Capacity before (the run without the input) and after (with it). */
export function planCapacity(
  before: SimulationReport,
  after: SimulationReport,
  cluster: readonly SourcedObject[],
): PlanCapacity {
  const groupOfNode = new Map<string, string>();
  for (const { object } of cluster) {
    if (isJsonObject(object) && object['kind'] === 'Node') {
      const metadata = asObject(object['metadata']);
      const labels = readStringMap(metadata['labels']);
      const group = NODE_GROUP_LABELS.map((key) => labels[key]).find((value) => value !== undefined);
      groupOfNode.set(String(metadata['name']), group ?? labels[ZONE_LABEL] ?? '(no group or zone)');
    }
  }
  const scaleUps = after.autoscaler?.scaleUps ?? [];
  const nodesAdded = scaleUps.flatMap((scaleUp) =>
    scaleUp.nodes.map((node) => ({ node: node.name, group: scaleUp.group, readyAt: node.readyAt })),
  );
  for (const added of nodesAdded) {
    groupOfNode.set(added.node, added.group);
  }
  const nodesRemoved = (after.autoscaler?.scaleDowns ?? [])
    .filter((scaleDown) => scaleDown.outcome === 'Removed')
    .map((scaleDown) => ({
      node: scaleDown.node,
      group: scaleDown.group,
      time: scaleDown.removedAt ?? scaleDown.time,
    }));
  const sums = new Map<string, GroupSums>();
  const sumOf = (group: string): GroupSums => {
    const existing = sums.get(group);
    if (existing !== undefined) {
      return existing;
    }
    const fresh = { nodesBefore: 0, nodesAfter: 0, cpu: [0, 0, 0], memory: [0, 0, 0] };
    sums.set(group, fresh);
    return fresh;
  };
  for (const [report, index] of [
    [before, 0],
    [after, 1],
  ] as const) {
    for (const node of report.cluster.nodes) {
      const sum = sumOf(groupOfNode.get(node.name) ?? '(no group or zone)');
      if (index === 0) {
        sum.nodesBefore++;
      } else {
        sum.nodesAfter++;
        add(sum.cpu, 2, node.allocatable['cpu'], 'milli');
        add(sum.memory, 2, node.allocatable['memory'], 'value');
      }
      add(sum.cpu, index, node.requested['cpu'], 'milli');
      add(sum.memory, index, node.requested['memory'], 'value');
    }
  }
  const groups: PlanCapacityGroup[] = [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([group, sum]) => ({
      group,
      nodesBefore: sum.nodesBefore,
      nodesAfter: sum.nodesAfter,
      cpuBefore: formatMilli(sum.cpu[0] ?? 0),
      cpuAfter: formatMilli(sum.cpu[1] ?? 0),
      cpuAllocatable: formatMilli(sum.cpu[2] ?? 0),
      memoryBefore: formatBytes(sum.memory[0] ?? 0),
      memoryAfter: formatBytes(sum.memory[1] ?? 0),
      memoryAllocatable: formatBytes(sum.memory[2] ?? 0),
    }));
  return { groups, nodesAdded, nodesRemoved, podsMoved: podsMoved(before, after) };
}

interface GroupSums {
  nodesBefore: number;
  nodesAfter: number;
  /** Before, after, allocatable after. */
  readonly cpu: number[];
  readonly memory: number[];
}

function add(sums: number[], index: number, text: string | undefined, unit: 'milli' | 'value'): void {
  const parsed = text === undefined ? undefined : parseQuantity(text);
  if (parsed?.ok === true) {
    sums[index] = (sums[index] ?? 0) + parsed.quantity[unit];
  }
}

/** The pods of the run without the input that end on another node, or on none, with it. */
function podsMoved(before: SimulationReport, after: SimulationReport): PlanCapacity['podsMoved'] {
  const nodeAfter = new Map(after.pods.map((pod) => [`${pod.namespace}/${pod.name}`, pod.nodeName]));
  return before.pods
    .filter((pod) => pod.nodeName !== null)
    .map((pod) => ({ pod: `${pod.namespace}/${pod.name}`, from: pod.nodeName ?? '' }))
    .filter(({ pod, from }) => nodeAfter.has(pod) && nodeAfter.get(pod) !== from)
    .map(({ pod, from }) => ({ pod, from, to: nodeAfter.get(pod) ?? null }))
    .sort((a, b) => (a.pod < b.pod ? -1 : a.pod > b.pod ? 1 : 0));
}
