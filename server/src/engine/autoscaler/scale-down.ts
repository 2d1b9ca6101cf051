/**
 * The cluster autoscaler's scale-down (core/scaledown: planner, eligibility, unneeded, actuation). Every scan, each
 * node of a group above its minSize (PreFilteringScaleDownNodeProcessor), whether the cluster file has it or the
 * autoscaler added it, and whether pods are Pending or not, is checked (scale-down-eligibility.ts: not being
 * deleted, utilization at or below the threshold) and its removal simulated (scale-down-planner.ts); a node that
 * passes is unneeded since the first scan that found it so, and one unneeded for longer than
 * --scale-down-unneeded-time (strictly: `since + unneededTime` before the scan), in a group above its minSize and
 * outside the cool-down, is deleted: tainted ToBeDeletedByClusterAutoscaler ("marked the node as
 * toBeDeleted/unschedulable"), each pod evicted through the eviction API ("deleting pod for node scale down"), then
 * the node removed once they are gone; DaemonSet pods go with the node. Empty nodes (nothing to move) go first, up
 * to 10 a scan; one node is drained at a time. A node the simulation found unremovable is not rechecked for
 * --unremovable-node-recheck-timeout (5 minutes). An eviction refused (a budget changed meanwhile) aborts: the taint
 * is lifted (ScaleDownFailed).
 * Left out: --scale-down-delay-after-delete and -failure, the soft taint, scale-down of unready nodes.
 */
import type { BudgetIndex } from '../apiserver/budget-index';
import type { ClusterState, SimNode } from '../apiserver/cluster-state';
import { evictPod } from '../controllers/disruption/disruption-controller';
import { refusalMessage } from '../apiserver/eviction';
import type { Resources } from '../model/resources';
import type { SimPod } from '../apiserver/sim-pod';
import { isActive } from '../apiserver/sim-pod';
import { PRIORITY } from '../sim/priorities';
import type { AutoscalerSettings } from './autoscaler-settings';
import type { AutoscalerLog, ScaleDownRecord } from './autoscaler-log';
import type { NodeGroupSpec } from './node-group';
import { TO_BE_DELETED_TAINT, checkEligibility } from './scale-down-eligibility';
import { drainViewOf, isLongTerminating, planRemovals } from './scale-down-planner';
import type { RemainingBudgets, RemovableNode } from './scale-down-planner';
import type { GroupSize } from './scale-up';
import type { SnapshotSetup } from './scheduling-snapshot';
import { recordRemovingNode } from '../controllers/controller-events';
import { AUTOSCALER_EVENT } from './autoscaler-log';

/** --max-empty-bulk-delete's default: empty nodes removed in one scan. */
const MAX_EMPTY_BULK_DELETE = 10;
/** --unremovable-node-recheck-timeout's default (5m). */
const UNREMOVABLE_RECHECK_SECONDS = 300;

/** A node being deleted: its record and the pods still to go. */
interface Deletion {
  readonly node: SimNode;
  readonly record: ScaleDownRecord;
}

/** The scale-down side of the autoscaler. */
export class ScaleDown {
  private readonly unneededSince = new Map<string, number>();
  private readonly utilization = new Map<string, number>();
  /** The removable nodes of the last scan, by name (empty ones have nothing to move). */
  private removable = new Map<string, RemovableNode>();
  /** Nodes the simulation found unremovable: when they may be checked again, and when they were found so. */
  private readonly unremovable = new Map<string, { readonly until: number; readonly at: number }>();
  /** When a pod or a node last changed (a recheck can only decide differently after a change). */
  private lastChange = 0;
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
      this.lastChange = state.sim.now;
      const deletion = this.deletion;
      if (change === 'gone' && deletion !== null && pod.nodeName === deletion.node.name) {
        state.sim.at(state.sim.now, PRIORITY.autoscaler, () => this.finishDeletion());
      }
    });
    state.onNode(() => {
      this.lastChange = state.sim.now;
    });
  }

  /** Whether a node is being deleted (the scale-up does not count on it). */
  isDeleting(name: string): boolean {
    return this.deletion?.node.name === name;
  }

  /**
   * One scan: finishes a deletion whose pods are gone, updates the unneeded nodes (in cool-down too, as
   * UpdateClusterState runs every loop), and, out of cool-down, deletes those whose time has come: empty ones first,
   * in bulk (--max-empty-bulk-delete), then one to drain; never below a group's minSize. `resumeAt` is when the
   * cool-down ends. Returns when a scan should look again (a timer that has not run out, an unremovable node to
   * recheck after a change), or null.
   */
  run(coolDown: boolean, resumeAt: number, sizes: readonly GroupSize[]): number | null {
    const now = this.state.sim.now;
    this.finishDeletion();
    const remaining = new Map(sizes.map((entry) => [entry.group, entry.size]));
    const deleting = this.deletion === null ? undefined : this.membership.get(this.deletion.node.name);
    if (deleting !== undefined) {
      remaining.set(deleting, (remaining.get(deleting) ?? 0) - 1); // verifyMinSize's deletions in progress
    }
    this.updateUnneeded(new Map(sizes.map((entry) => [entry.group, entry.size])));
    let wakeAt = this.recheckTime();
    const wake = (time: number): void => {
      wakeAt = Math.min(wakeAt ?? time, time);
    };
    const due: { name: string; group: NodeGroupSpec; since: number; isEmpty: boolean }[] = [];
    for (const [name, since] of this.unneededSince) {
      const group = this.membership.get(name);
      if (group === undefined) {
        continue;
      }
      const dueAt = since + this.settings.scaleDownUnneededTime;
      if (dueAt >= now) {
        wake(Math.max(dueAt, resumeAt)); // removable once the unneeded time lies before a scan
      } else {
        due.push({ name, group, since, isEmpty: this.removable.get(name)?.move.length === 0 });
      }
    }
    if (coolDown) {
      if (due.length > 0) {
        wake(Math.max(now, resumeAt));
      }
      return wakeAt;
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

  /**
   * UpdateClusterState: the candidates (nodes of groups above their minSize, not being deleted, eligible, not found
   * unremovable within the recheck timeout) are simulated in node order; the removable ones are unneeded (since
   * the first scan that found them so), the others lose their "since".
   */
  private updateUnneeded(sizes: ReadonlyMap<NodeGroupSpec, number>): void {
    const now = this.state.sim.now;
    for (const [name, entry] of this.unremovable) {
      if (entry.until <= now || !this.state.nodes.has(name)) {
        this.unremovable.delete(name);
      }
    }
    const destinations = this.state
      .nodeList()
      .filter((node) => node.isKubeletAlive && !this.isDeleting(node.name));
    const candidates = destinations.filter((node) => {
      const group = this.membership.get(node.name);
      if (
        group === undefined ||
        (sizes.get(group) ?? 0) <= group.minSize ||
        this.unremovable.has(node.name)
      ) {
        return false;
      }
      const eligibility = checkEligibility(
        {
          name: node.name,
          allocatable: node.info.allocatable,
          annotations: node.object.metadata?.annotations ?? {},
          taintKeys: (node.object.spec?.taints ?? []).map((taint) => taint.key),
          podRequests: this.requestsOn(node, now),
        },
        this.settings.scaleDownUtilizationThreshold,
      );
      this.utilization.set(node.name, eligibility.utilization);
      return eligibility.reason === null;
    });
    const budgets: RemainingBudgets = new Map(
      [...this.state.disruptionBudgets.values()].map((budget) => [
        budget.key,
        budget.status.disruptionsAllowed,
      ]),
    );
    const plan = planRemovals({
      setup: this.setup,
      candidates,
      destinations,
      podsOf: (node) => this.podsOf(node),
      drainView: (pod, remaining) => drainViewOf(pod, this.index, remaining, now),
      budgetsOf: (pod) => this.index.budgetsOf(pod).map((budget) => budget.key),
      budgets,
    });
    for (const node of plan.unremovable) {
      this.unremovable.set(node.name, { until: now + UNREMOVABLE_RECHECK_SECONDS, at: now });
    }
    this.removable = new Map(plan.removable.map((node) => [node.name, node]));
    for (const name of [...this.unneededSince.keys()]) {
      if (!this.removable.has(name)) {
        this.unneededSince.delete(name);
      }
    }
    for (const node of plan.removable) {
      if (!this.unneededSince.has(node.name)) {
        this.unneededSince.set(node.name, now);
      }
    }
  }

  /** When an unremovable node may be checked again after a change since it was found so (null: never needed). */
  private recheckTime(): number | null {
    let earliest: number | null = null;
    for (const entry of this.unremovable.values()) {
      if (this.lastChange >= entry.at) {
        earliest = Math.min(earliest ?? entry.until, entry.until);
      }
    }
    return earliest;
  }

  /**
   * The requests of the node's pods that count for its utilization: those of podsOf but long-terminating ones, in
   * the same order, read in one pass (every node, every scan).
   */
  private requestsOn(node: SimNode, now: number): Resources[] {
    const requests: Resources[] = [];
    for (const pod of this.state.podSetOn(node.name)) {
      if (!pod.isGone && pod.terminal === null && !isLongTerminating(pod, now)) {
        requests.push(pod.info.requests);
      }
    }
    return requests;
  }

  /** The pods the autoscaler's snapshot holds for a node: scheduled, not gone, not finished. */
  private podsOf(node: SimNode): SimPod[] {
    return this.state.podsOn(node.name).filter((pod) => !pod.isGone && pod.terminal === null);
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
      AUTOSCALER_EVENT.scaleDown,
    );
    if (isEmpty) {
      this.remove({ node, record }, false);
      return;
    }
    this.deletion = { node, record };
    for (const pod of this.removable.get(node.name)?.move ?? []) {
      if (!isActive(pod) || pod.nodeName !== node.name) {
        continue; // already going, or a pod the simulation moved here from another node
      }
      // Evictor.evictPod records its event before it asks for the eviction.
      state.recordPod(
        'ScaleDown',
        pod,
        'deleting pod for node scale down',
        undefined,
        AUTOSCALER_EVENT.scaleDown,
      );
      const verdict = evictPod(state, this.index, pod);
      if (!verdict.allowed) {
        record.outcome = 'Failed';
        record.message = scaleDownFailedMessage(node.name, pod, refusalMessage(verdict));
        state.updateNode(node, original, 'ScaleDownFailed', record.message, AUTOSCALER_EVENT.scaleDownFailed);
        this.deletion = null;
        return;
      }
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
    this.removable.delete(deletion.node.name);
    const name = deletion.node.name;
    // RegisterAndRecordSuccessfulScaleDownEvent: the node's event, then the status ConfigMap's (LogRecorder).
    this.state.recordEvent(
      { ...AUTOSCALER_EVENT.scaleDown, involvedObject: { kind: 'Node', name } },
      'nodes removed by cluster autoscaler',
      name,
    );
    this.state.removeNode(
      deletion.node,
      drained ? `Scale-down: node ${name} removed with drain` : `Scale-down: empty node ${name} removed`,
      drained ? AUTOSCALER_EVENT.statusScaleDown : AUTOSCALER_EVENT.statusScaleDownEmpty,
    );
    recordRemovingNode(this.state, name);
  }
}

/**
 * The node's ScaleDownFailed after a refused eviction (delete_in_batch.go, drain.go: the evictions' errors in
 * brackets; upstream retries an eviction for --max-pod-eviction-time first).
 */
function scaleDownFailedMessage(node: string, pod: SimPod, refusal: string): string {
  const error = `failed to evict pod ${pod.namespace}/${pod.name} within allowed timeout (last error: ${refusal})`;
  return `failed to drain and delete node: Failed to drain node /${node}, due to following errors: [${error}]`;
}

function formatShare(value: number): string {
  return `${Math.round(value * 100)}%`;
}
