/**
 * The cluster autoscaler's scale-down (core/scaledown: eligibility, unneeded, planner, actuation): every scan, each
 * node of a group is checked (scale-down-eligibility.ts: utilization under the threshold, no pod that blocks its
 * drain) and its pods simulated onto the other nodes (the scheduler's filters, simulator/cluster.go); a node that
 * passes is unneeded since the first scan that found it so, and one unneeded for --scale-down-unneeded-time, in a
 * group above its minSize and outside the cool-down after a scale-up, is deleted: tainted
 * ToBeDeletedByClusterAutoscaler ("marked the node as toBeDeleted/unschedulable"), each pod evicted through the
 * eviction API ("deleting pod for node scale down"), then the node removed once they are gone; DaemonSet pods go
 * with the node. Empty nodes (nothing to move) go first, up to 10 a scan; one node is drained at a time. An
 * eviction refused (a budget changed meanwhile) aborts: the taint is lifted (ScaleDownFailed).
 * Left out: --scale-down-delay-after-delete and -failure, the unremovable-node recheck timeout, the soft taint.
 */
import type { BudgetIndex } from '../apiserver/budget-index';
import type { ClusterState, SimNode } from '../apiserver/cluster-state';
import { evictPod } from '../controllers/disruption/disruption-controller';
import { refusalMessage } from '../apiserver/eviction';
import type { SimPod } from '../apiserver/sim-pod';
import { isActive } from '../apiserver/sim-pod';
import { PRIORITY } from '../sim/priorities';
import type { AutoscalerSettings } from './autoscaler-settings';
import type { AutoscalerLog, ScaleDownRecord } from './autoscaler-log';
import type { NodeGroupSpec } from './node-group';
import { TO_BE_DELETED_TAINT, checkEligibility, podsToMove } from './scale-down-eligibility';
import type { DrainCandidatePod } from './scale-down-eligibility';
import type { GroupSize } from './scale-up';
import { SchedulingSnapshot } from './scheduling-snapshot';
import type { SnapshotSetup } from './scheduling-snapshot';

/** --max-empty-bulk-delete's default: empty nodes removed in one scan. */
const MAX_EMPTY_BULK_DELETE = 10;

/** A node being deleted: its record and the pods still to go. */
interface Deletion {
  readonly node: SimNode;
  readonly record: ScaleDownRecord;
}

/** The scale-down side of the autoscaler. */
export class ScaleDown {
  private readonly unneededSince = new Map<string, number>();
  private readonly utilization = new Map<string, number>();
  /** Unneeded nodes with no pod to move (only DaemonSet and mirror pods, which go with the node). */
  private readonly empty = new Set<string>();
  private deletion: Deletion | null = null;

  constructor(
    private readonly state: ClusterState,
    private readonly index: BudgetIndex,
    private readonly settings: AutoscalerSettings,
    private readonly setup: SnapshotSetup,
    private readonly membership: Map<string, NodeGroupSpec>,
    private readonly log: AutoscalerLog,
  ) {
    // The actuator removes the node as soon as its drain is done (not at the next scan).
    state.onPod((pod, change) => {
      const deletion = this.deletion;
      if (change === 'gone' && deletion !== null && pod.nodeName === deletion.node.name) {
        state.sim.at(state.sim.now, PRIORITY.autoscaler, () => this.finishDeletion());
      }
    });
  }

  /** Whether a node is being deleted (the scale-up does not count on it). */
  isDeleting(name: string): boolean {
    return this.deletion?.node.name === name;
  }

  /**
   * One scan: finishes a deletion whose pods are gone, updates the unneeded nodes, and deletes those whose time
   * has come: empty ones first, in bulk (--max-empty-bulk-delete), then one to drain; never below a group's
   * minSize. Returns when a scan should look again for a timer that has not run out, or null.
   */
  run(coolDown: boolean, sizes: readonly GroupSize[]): number | null {
    const now = this.state.sim.now;
    this.finishDeletion();
    this.updateUnneeded();
    let wakeAt: number | null = null;
    const remaining = new Map(sizes.map((entry) => [entry.group, entry.size]));
    const due: { name: string; group: NodeGroupSpec; since: number; isEmpty: boolean }[] = [];
    for (const [name, since] of this.unneededSince) {
      const group = this.membership.get(name);
      if (group === undefined || (remaining.get(group) ?? 0) <= group.minSize) {
        continue; // node group min size reached: no timer will change that
      }
      const dueAt = since + this.settings.scaleDownUnneededTime;
      if (dueAt > now) {
        wakeAt = Math.min(wakeAt ?? dueAt, dueAt);
      } else {
        due.push({ name, group, since, isEmpty: this.empty.has(name) });
      }
    }
    if (coolDown) {
      return due.length > 0 ? now : wakeAt;
    }
    // Empty nodes first (upstream deletes them without a drain), then the longest unneeded; ties in node order.
    due.sort((a, b) => Number(b.isEmpty) - Number(a.isEmpty) || a.since - b.since);
    let emptyDeleted = 0;
    for (const candidate of due) {
      const size = remaining.get(candidate.group) ?? 0;
      const node = this.state.nodes.get(candidate.name);
      if (node === undefined || size <= candidate.group.minSize) {
        continue;
      }
      if (candidate.isEmpty && emptyDeleted < MAX_EMPTY_BULK_DELETE) {
        emptyDeleted++;
        this.startDeletion(node, candidate.group, candidate.since, true);
      } else if (!candidate.isEmpty && this.deletion === null) {
        this.startDeletion(node, candidate.group, candidate.since, false);
      } else {
        continue;
      }
      remaining.set(candidate.group, size - 1);
    }
    return wakeAt;
  }

  /** Recomputes which nodes are unneeded now; a node that drops out loses its "since". */
  private updateUnneeded(): void {
    const now = this.state.sim.now;
    const nodes = this.state.nodeList().filter((node) => node.isKubeletAlive && !this.isDeleting(node.name));
    const still = new Set<string>();
    for (const node of nodes) {
      if (!this.membership.has(node.name)) {
        continue;
      }
      const pods = this.state.podsOn(node.name).filter(isActive);
      const eligibility = checkEligibility(
        {
          name: node.name,
          allocatable: node.info.allocatable,
          annotations: node.object.metadata?.annotations ?? {},
          taintKeys: (node.object.spec?.taints ?? []).map((taint) => taint.key),
          podRequests: pods.map((pod) => pod.info.requests),
        },
        this.settings.scaleDownUtilizationThreshold,
      );
      this.utilization.set(node.name, eligibility.utilization);
      if (eligibility.reason !== null) {
        continue;
      }
      const plan = podsToMove(pods.map((pod) => this.candidate(pod)));
      if (plan.blocking !== null || !this.fitsElsewhere(node, pods, plan.move)) {
        continue;
      }
      still.add(node.name);
      if (plan.move.length === 0) {
        this.empty.add(node.name);
      } else {
        this.empty.delete(node.name);
      }
      if (!this.unneededSince.has(node.name)) {
        this.unneededSince.set(node.name, now);
      }
    }
    for (const name of [...this.unneededSince.keys()]) {
      if (!still.has(name)) {
        this.unneededSince.delete(name);
        this.empty.delete(name);
      }
    }
  }

  /** Whether the pods to move fit the other nodes (each placed where it fits first, then counted there). */
  private fitsElsewhere(node: SimNode, pods: readonly SimPod[], move: readonly DrainCandidatePod[]): boolean {
    if (move.length === 0) {
      return true;
    }
    const snapshot = new SchedulingSnapshot(this.setup);
    for (const other of this.state.nodeList()) {
      if (other !== node && other.isKubeletAlive && !this.isDeleting(other.name)) {
        snapshot.addCopy(other.info);
      }
    }
    const moving = new Set(move.map((pod) => `${pod.namespace}/${pod.name}`));
    for (const pod of pods) {
      if (!moving.has(pod.key)) {
        continue;
      }
      const fit = snapshot.firstFit({ ...pod.info, nodeName: null });
      if (fit === null) {
        return false;
      }
      snapshot.addPod(pod.info, fit);
    }
    return true;
  }

  private candidate(pod: SimPod): DrainCandidatePod {
    const volumes =
      (pod.object.spec as { volumes?: readonly Record<string, unknown>[] } | undefined)?.volumes ?? [];
    const hasLocalStorage = volumes.some((volume) => {
      const emptyDir = volume['emptyDir'] as { medium?: string } | undefined | null;
      const hostPath = volume['hostPath'];
      return (
        (hostPath !== undefined && hostPath !== null) ||
        (emptyDir !== undefined && emptyDir !== null && emptyDir.medium !== 'Memory')
      );
    });
    return {
      namespace: pod.namespace,
      name: pod.name,
      controllerKind: pod.controllerRef?.kind ?? null,
      annotations: pod.object.metadata?.annotations ?? {},
      isMirror: pod.isMirror,
      isTerminal: pod.terminal !== null,
      hasLocalStorage,
      budgetsAllowed: this.index.budgetsOf(pod).map((budget) => budget.status.disruptionsAllowed),
    };
  }

  /**
   * Taints the node and evicts its pods (an eviction refused aborts and lifts the taint); an empty node is removed
   * at once, beside a drain that may be under way.
   */
  private startDeletion(node: SimNode, group: NodeGroupSpec, since: number, isEmpty: boolean): void {
    const { state } = this;
    const original = node.object;
    const record: ScaleDownRecord = {
      time: state.sim.now,
      group: group.name,
      node: node.name,
      utilization: this.utilization.get(node.name) ?? 0,
      unneededSince: since,
      outcome: 'Draining',
      removedAt: null,
      message: `node ${node.name} unneeded since t=${since}s (utilization ${formatShare(this.utilization.get(node.name) ?? 0)})`,
    };
    this.log.scaleDowns.push(record);
    this.unneededSince.delete(node.name);
    const taints = [
      ...(original.spec?.taints ?? []),
      { key: TO_BE_DELETED_TAINT, value: String(state.sim.now), effect: 'NoSchedule' as const },
    ];
    state.updateNode(
      node,
      { ...original, spec: { ...original.spec, taints } },
      'ScaleDown',
      'marked the node as toBeDeleted/unschedulable',
    );
    if (isEmpty) {
      this.remove({ node, record }, false);
      return;
    }
    this.deletion = { node, record };
    const pods = state.podsOn(node.name).filter(isActive);
    const plan = podsToMove(pods.map((pod) => this.candidate(pod)));
    const moving = new Set(plan.move.map((pod) => `${pod.namespace}/${pod.name}`));
    for (const pod of pods) {
      if (!moving.has(pod.key)) {
        continue;
      }
      const verdict = evictPod(state, this.index, pod);
      if (!verdict.allowed) {
        record.outcome = 'Failed';
        record.message = `failed to drain the node, aborting ScaleDown: ${refusalMessage(verdict)}`;
        state.updateNode(node, original, 'ScaleDownFailed', record.message);
        this.deletion = null;
        return;
      }
      state.recordPod('ScaleDown', pod, 'deleting pod for node scale down');
      state.deletePod(pod, 'Evicted by the cluster autoscaler (scale down)', { reason: 'ScaleDown' });
    }
    this.finishDeletion();
  }

  /** Removes the node being deleted once only pods that go with it are left (DaemonSet, mirror). */
  private finishDeletion(): void {
    const deletion = this.deletion;
    if (deletion === null) {
      return;
    }
    const left = this.state
      .podsOn(deletion.node.name)
      .filter(
        (pod) =>
          !pod.isGone && pod.terminal === null && pod.controllerRef?.kind !== 'DaemonSet' && !pod.isMirror,
      );
    if (left.length > 0) {
      return;
    }
    this.deletion = null;
    this.remove(deletion, true);
  }

  /** Deletes the node, with the autoscaler's status message for a drained or an empty node. */
  private remove(deletion: Deletion, drained: boolean): void {
    deletion.record.outcome = 'Removed';
    deletion.record.removedAt = this.state.sim.now;
    this.membership.delete(deletion.node.name);
    this.empty.delete(deletion.node.name);
    const name = deletion.node.name;
    this.state.removeNode(
      deletion.node,
      drained ? `Scale-down: node ${name} removed with drain` : `Scale-down: empty node ${name} removed`,
    );
  }
}

function formatShare(value: number): string {
  return `${Math.round(value * 100)}%`;
}
