/**
 * What the cluster autoscaler did over the run, for the report's `autoscaler` section and the findings: each
 * scale-up (group, size before and after, the pods that triggered it, when its nodes joined), each scale-down
 * (node, utilization, when it was removed or why it failed), and the last "didn't trigger scale-up" reason of each
 * pod.
 */
import type { SimPod } from '../apiserver/sim-pod';
import { EVENT_COMPONENT } from '../model/kubernetes-events';
import type { KubeEvent } from '../model/kubernetes-events';

/** A node a scale-up adds. */
export interface ScaleUpNode {
  readonly name: string;
  /** When it registers, Ready (scale-up time + the group's provisioningSeconds). */
  readonly readyAt: number;
}

/** One scale-up (a ScaleUpInfo executed). */
export interface ScaleUpRecord {
  readonly time: number;
  readonly group: string;
  readonly from: number;
  readonly to: number;
  readonly max: number;
  /** The pods that triggered it, "namespace/name". */
  readonly pods: readonly string[];
  readonly nodes: readonly ScaleUpNode[];
  /** cluster-autoscaler's event message: "pod triggered scale-up: [{workers 2->3 (max: 5)}]". */
  readonly message: string;
}

/** One scale-down of a node. */
export interface ScaleDownRecord {
  readonly time: number;
  readonly group: string;
  readonly node: string;
  /** max(cpu, memory) requested share when it was chosen. */
  readonly utilization: number;
  /** When the node was unneeded since. */
  readonly unneededSince: number;
  outcome: 'Draining' | 'Removed' | 'Failed';
  removedAt: number | null;
  message: string;
}

/** The last reason the autoscaler gave for not helping a pod. */
export interface NoScaleUpRecord {
  readonly pod: string;
  readonly time: number;
  readonly message: string;
}

/** The autoscaler's record of the run. */
export class AutoscalerLog {
  readonly scaleUps: ScaleUpRecord[] = [];
  readonly scaleDowns: ScaleDownRecord[] = [];
  /** By pod key: the last NotTriggerScaleUp (cleared when a later scale-up takes the pod). */
  readonly noScaleUp = new Map<string, NoScaleUpRecord>();
  /** By pod key: the scale-up the pod triggered (the first one), and the pod (it may be gone by the end). */
  readonly triggeredBy = new Map<string, { readonly record: ScaleUpRecord; readonly pod: SimPod }>();
  /** By pod key: when a pod that triggered a scale-up was scheduled. */
  readonly scheduledAt = new Map<string, number>();
  /** When the autoscaler stopped after MAX_ACTIONS scale-ups and scale-downs (cluster-autoscaler.ts), or null. */
  stoppedAt: number | null = null;
}

/** cluster-autoscaler's ScaleUpInfo text: "{workers 2->3 (max: 5)}". */
export function formatScaleUpInfo(group: string, from: number, to: number, max: number): string {
  return `{${group} ${from}->${to} (max: ${max})}`;
}

/** The TriggeredScaleUp event message for a list of ScaleUpInfos. */
export function triggeredScaleUpMessage(infos: readonly string[]): string {
  return `pod triggered scale-up: [${infos.join(' ')}]`;
}

/**
 * The NotTriggerScaleUp message (ReasonsMessage): each reason counted over the node groups that gave it, as
 * "<count> <reason>", joined by ", " (upstream's order is a map's; here sorted by reason).
 */
export function notTriggerScaleUpMessage(reasonsByGroup: readonly (readonly string[])[]): string {
  const counts = new Map<string, number>();
  for (const reasons of reasonsByGroup) {
    for (const reason of new Set(reasons)) {
      counts.set(reason, (counts.get(reason) ?? 0) + 1);
    }
  }
  const parts = [...counts.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([reason, count]) => `${count} ${reason}`);
  return `pod didn't trigger scale-up: ${parts.join(', ')}`;
}

/** The NotTriggerScaleUp message when --max-nodes-total is reached (ScaleUpLimitedByMaxNodesTotal). */
export const MAX_TOTAL_NODES_MESSAGE = "pod didn't trigger scale-up: max total nodes in cluster reached";

/** The skipped-group reason of a group at its maximum size (MaxLimitReachedReason). */
export const MAX_LIMIT_REACHED_REASON = 'max node group size reached';

/** The status ConfigMap cluster-autoscaler's LogRecorder writes its events on (--write-status-configmap). */
const STATUS_CONFIG_MAP = { kind: 'ConfigMap', namespace: 'kube-system', name: 'cluster-autoscaler-status' };

/**
 * cluster-autoscaler's events (processors/status/eventing_scale_up_processor.go, core/scaledown/actuation): on pods
 * TriggeredScaleUp and NotTriggerScaleUp; on nodes and evicted pods ScaleDown, ScaleDownFailed (Warning); and the
 * LogRecorder's ScaleDown and ScaleDownEmpty on its status ConfigMap when a node is gone.
 */
export const AUTOSCALER_EVENT = {
  triggeredScaleUp: { reason: 'TriggeredScaleUp', component: EVENT_COMPONENT.clusterAutoscaler },
  notTriggerScaleUp: { reason: 'NotTriggerScaleUp', component: EVENT_COMPONENT.clusterAutoscaler },
  scaleDown: { reason: 'ScaleDown', component: EVENT_COMPONENT.clusterAutoscaler },
  scaleDownFailed: { reason: 'ScaleDownFailed', component: EVENT_COMPONENT.clusterAutoscaler, warning: true },
  statusScaleDown: {
    reason: 'ScaleDown',
    component: EVENT_COMPONENT.clusterAutoscaler,
    involvedObject: STATUS_CONFIG_MAP,
  },
  statusScaleDownEmpty: {
    reason: 'ScaleDownEmpty',
    component: EVENT_COMPONENT.clusterAutoscaler,
    involvedObject: STATUS_CONFIG_MAP,
  },
} as const satisfies Record<string, KubeEvent>;
