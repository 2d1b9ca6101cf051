/**
 * One scale-up decision, as cluster-autoscaler's ScaleUpOrchestrator.ScaleUp makes it: groups at their maximum size
 * are skipped ("max node group size reached"); for each other group, the pods' equivalence groups whose first pod
 * fits the group's template node (the scheduler's filters, over a fork of the cluster plus that node) are packed by
 * the binpacking estimator onto new template nodes added to another fork, within the group's room and
 * --max-nodes-total; the expander picks one option; its node count is capped. Pods no group can take get the
 * reasons, counted over the groups ("pod didn't trigger scale-up: …"), when nothing is scaled up.
 * https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/core/scaleup/orchestrator/orchestrator.go
 * Left out: balancing similar node groups, resource limits (cores, memory), backoff of failed groups, creating
 * groups (auto-provisioning), --max-nodes-per-scaleup other than its default 1000.
 */
import type { PodInfo } from '../model/snapshot/pod-info';
import { statusMessage } from '../scheduler/framework/status';
import type { SeededRandom } from '../sim/seeded-random';
import type { AutoscalerSettings } from './autoscaler-settings';
import {
  MAX_LIMIT_REACHED_REASON,
  MAX_TOTAL_NODES_MESSAGE,
  notTriggerScaleUpMessage,
} from './autoscaler-log';
import { buildPodGroups, estimateNodes } from './binpacking-estimator';
import { bestOption, templateCapacity } from './expanders';
import type { ExpansionOption } from './expanders';
import type { NodeGroupSpec } from './node-group';
import { nodeFromTemplate } from './node-group';
import { templateNodes } from './scheduling-snapshot';
import type { SchedulingSnapshot } from './scheduling-snapshot';

/** --max-nodes-per-scaleup's default: the estimator's limit per group. */
const MAX_NODES_PER_SCALE_UP = 1000;

/** A group with its current target size (nodes present and upcoming). */
export interface GroupSize {
  readonly group: NodeGroupSpec;
  readonly size: number;
  /** The DaemonSet pods a new node of the group runs (template-daemon-pods.ts). */
  readonly daemonPods?: readonly PodInfo[];
}

/** The decision of one scan. */
export interface ScaleUpDecision {
  /** The option executed, and how many nodes it adds (after the caps); null when nothing scales up. */
  readonly chosen: {
    readonly option: ExpansionOption;
    readonly newNodes: number;
    readonly from: number;
  } | null;
  /** The NotTriggerScaleUp message of each pod no group can take (empty when a scale-up happens). */
  readonly notTriggered: ReadonlyMap<string, string>;
}

/**
 * Decides the scale-up for the unschedulable pods. `totalNodes`: the cluster's nodes, present and upcoming; `fork`
 * makes a fresh snapshot of them (a copy each time: the estimates add nodes and pods to it).
 */
export function decideScaleUp(
  pods: readonly PodInfo[],
  groups: readonly GroupSize[],
  totalNodes: number,
  settings: Pick<AutoscalerSettings, 'maxNodesTotal' | 'expander' | 'priorities'>,
  fork: () => SchedulingSnapshot,
  random: SeededRandom,
): ScaleUpDecision {
  if (pods.length === 0) {
    return { chosen: null, notTriggered: new Map() };
  }
  if (settings.maxNodesTotal > 0 && totalNodes >= settings.maxNodesTotal) {
    return { chosen: null, notTriggered: new Map(pods.map((pod) => [pod.key, MAX_TOTAL_NODES_MESSAGE])) };
  }
  const podGroups = buildPodGroups(pods);
  /** Reasons by pod-group index, one list per node group that rejected or skipped it. */
  const reasons = podGroups.map(() => [] as string[][]);
  const schedulable = podGroups.map(() => false);
  const options: ExpansionOption[] = [];
  for (const { group, size, daemonPods = [] } of groups) {
    if (size >= group.maxSize) {
      reasons.forEach((list) => list.push([MAX_LIMIT_REACHED_REASON]));
      continue;
    }
    // SchedulablePodGroups: the first pod of each equivalence group on one template node.
    const probe = fork();
    const probeNode = probe.addNode(
      nodeFromTemplate(group, `template-node-for-${group.name}`),
      group.template,
      daemonPods,
    );
    const fitting = podGroups.filter((podGroup, index) => {
      const status = probe.checkPredicates(podGroup.pods[0] as PodInfo, probeNode);
      if (status.code === 'Success') {
        schedulable[index] = true;
        return true;
      }
      reasons[index]?.push(
        status.reasons.length > 0 ? status.reasons.map((r) => r.message) : [statusMessage(status)],
      );
      return false;
    });
    if (fitting.length === 0) {
      continue;
    }
    const room = Math.min(
      group.maxSize - size,
      settings.maxNodesTotal > 0 ? settings.maxNodesTotal - totalNodes : Number.POSITIVE_INFINITY,
      MAX_NODES_PER_SCALE_UP,
    );
    const snapshot = fork();
    const estimate = estimateNodes(
      fitting,
      group.template.allocatable,
      templateNodes(
        snapshot,
        group.template,
        (index) => nodeFromTemplate(group, `${group.name}-estimate-${index}`),
        daemonPods,
      ),
      room,
    );
    if (estimate.nodeCount > 0 && estimate.pods.length > 0) {
      options.push({
        group: group.name,
        nodeCount: estimate.nodeCount,
        pods: estimate.pods,
        allocatable: group.template.allocatable,
        capacity: templateCapacity(group.template.node.status?.capacity, group.template.allocatable),
      });
    }
  }
  const best = bestOption(options, settings, random);
  if (best !== null) {
    const from = groups.find((entry) => entry.group.name === best.group)?.size ?? 0;
    let newNodes = best.nodeCount;
    if (settings.maxNodesTotal > 0) {
      newNodes = Math.min(newNodes, settings.maxNodesTotal - totalNodes);
    }
    return { chosen: { option: best, newNodes, from }, notTriggered: new Map() };
  }
  const notTriggered = new Map<string, string>();
  podGroups.forEach((podGroup, index) => {
    if (schedulable[index] === true) {
      return;
    }
    const message = notTriggerScaleUpMessage(reasons[index] ?? []);
    for (const pod of podGroup.pods) {
      notTriggered.set(pod.key, message);
    }
  });
  return { chosen: null, notTriggered };
}
