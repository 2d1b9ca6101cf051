/**
 * cluster-autoscaler over simulated time (core/static_autoscaler.go RunOnce), every --scan-interval while the
 * cluster changes: pods the scheduler found unschedulable that fit neither an existing node nor a node already
 * coming are handed to the scale-up (scale-up.ts); a group grows and its nodes register, Ready, after the group's
 * provisioningSeconds, and the scheduler places the pods. Nodes of a group that stay unneeded (scale-down.ts) for
 * --scale-down-unneeded-time, outside --scale-down-delay-after-add, are tainted ToBeDeletedByClusterAutoscaler,
 * their pods evicted through the eviction API, and the node removed once they are gone; one node at a time
 * (--max-drain-parallelism=1). Like NewStaticAutoscaler, it starts out of cool-down (its last scale-up and
 * scale-down times lie in the past); a loop whose pending pods are all new (2 s, 30 s with a GPU) waits one loop.
 * Left out: unready or unregistered nodes, scale-up to minSize, node deletion delays and failures, the status
 * ConfigMap. Scans stop when nothing is left to watch, so a settled cluster ends the run.
 */
import { clearIfAny } from '../model/clear-if-any';
import { NodeInfo } from '../model/snapshot/node-info';
import type { BudgetIndex } from '../apiserver/budget-index';
import type { ClusterState, SimNode } from '../apiserver/cluster-state';
import type { SimPod } from '../apiserver/sim-pod';
import { PRIORITY } from '../sim/priorities';
import { SeededRandom } from '../sim/seeded-random';
import type { AutoscalerSettings } from './autoscaler-settings';
import {
  AUTOSCALER_EVENT,
  AutoscalerLog,
  formatScaleUpInfo,
  triggeredScaleUpMessage,
} from './autoscaler-log';
import type { ScaleUpRecord } from './autoscaler-log';
import type { NodeGroupSpec } from './node-group';
import { isMemberOf, nodeFromTemplate } from './node-group';
import { ScaleDown } from './scale-down';
import { decideScaleUp } from './scale-up';
import type { GroupSize } from './scale-up';
import { templateDaemonPods } from './template-daemon-pods';
import { UnschedulablePods } from './unschedulable-pods';
import { NewPods } from './new-pods';
import type { PodInfo } from '../model/snapshot/pod-info';
import { SchedulingSnapshot } from './scheduling-snapshot';
import type { ScanInputKeys } from './scan-inputs';
import { UnhelpedPods } from './unhelped-pods';
import type { SnapshotSetup } from './scheduling-snapshot';
import { recordRegisteredNode } from '../controllers/controller-events';

/**
 * Scale-ups and scale-downs after which the autoscaler stops: far more than a real apply needs, it ends a run in
 * which the same pods keep getting a node that is then removed (upstream would flap for ever).
 */
export const MAX_ACTIONS = 200;

/** A node a scale-up requested that has not joined yet. */
interface UpcomingNode {
  readonly name: string;
  readonly group: NodeGroupSpec;
  readonly readyAt: number;
}

/** The cluster autoscaler. */
export class ClusterAutoscaler {
  readonly log = new AutoscalerLog();
  /** Node name → its group. */
  private readonly membership = new Map<string, NodeGroupSpec>();
  private readonly upcoming: UpcomingNode[] = [];
  private readonly random = new SeededRandom('cluster-autoscaler');
  private readonly scaleDown: ScaleDown;
  private nextScan: number | null = null;
  private lastScan = Number.NEGATIVE_INFINITY;
  private lastScaleUp = Number.NEGATIVE_INFINITY;
  private readonly created = new Map<string, number>();
  private readonly daemonPods = new Map<NodeGroupSpec, readonly PodInfo[]>();
  private readonly unhelped: UnhelpedPods;
  private readonly unschedulable: UnschedulablePods;
  private readonly newPods = new NewPods();
  /** The inputs' key of the last scale-up that chose nothing. */
  private quietKey: string | null = null;

  constructor(
    private readonly state: ClusterState,
    index: BudgetIndex,
    private readonly settings: AutoscalerSettings,
    private readonly groups: readonly NodeGroupSpec[],
    private readonly setup: SnapshotSetup,
  ) {
    this.unhelped = new UnhelpedPods(setup);
    this.unschedulable = new UnschedulablePods(setup.profiles);
    for (const node of state.nodeList()) {
      const group = groups.find((candidate) => isMemberOf(candidate, node.info.labels));
      if (group !== undefined) {
        this.membership.set(node.name, group);
      }
    }
    this.scaleDown = new ScaleDown(state, index, settings, setup, this.membership, this.log);
    state.onPod((pod, change) => {
      if (change === 'scheduled') {
        this.log.noScaleUp.delete(pod.key);
        if (this.log.triggeredBy.has(pod.key) && !this.log.scheduledAt.has(pod.key)) {
          this.log.scheduledAt.set(pod.key, state.sim.now);
        }
      }
      this.requestScan();
    });
    state.onNode(() => this.requestScan());
  }

  /** Starts scanning at time 0. */
  start(): void {
    this.requestScan();
  }

  /** The groups and their current sizes (present and upcoming nodes), in the cluster file's order. */
  private sizes(): GroupSize[] {
    return this.groups.map((group) => ({
      group,
      daemonPods: this.daemonPodsOf(group),
      size:
        [...this.membership.values()].filter((member) => member === group).length +
        this.upcoming.filter((node) => node.group === group).length,
    }));
  }

  /** The DaemonSet pods of a new node of the group, computed once per scan (DaemonSets may change between). */
  private daemonPodsOf(group: NodeGroupSpec): readonly PodInfo[] {
    let pods = this.daemonPods.get(group);
    if (pods === undefined) {
      const { version, base } = this.setup;
      const node = nodeFromTemplate(group, group.template.name);
      pods = templateDaemonPods(this.state, node, version, base.priorityClasses);
      this.daemonPods.set(group, pods);
    }
    return pods;
  }

  /** Schedules a scan on the scan-interval grid, at the first slot not already scanned. */
  private requestScan(at = this.state.sim.now): void {
    const interval = Math.max(this.settings.scanInterval, 1);
    let time = Math.ceil(at / interval) * interval;
    if (time <= this.lastScan) {
      time = this.lastScan + interval;
    }
    if (this.nextScan !== null && this.nextScan <= time) {
      return;
    }
    this.nextScan = time;
    this.state.sim.at(time, PRIORITY.autoscaler, () => {
      if (this.nextScan === time) {
        this.scan();
      }
    });
  }

  private scan(): void {
    const now = this.state.sim.now;
    this.nextScan = null;
    this.lastScan = now;
    if (this.log.scaleUps.length + this.log.scaleDowns.length >= MAX_ACTIONS) {
      // A pod the scheduler keeps refusing on nodes the autoscaler thinks fit it would flap for ever.
      this.log.stoppedAt ??= now;
      return;
    }
    clearIfAny(this.daemonPods);
    const { pending, key } = this.unhelpedPods();
    // RunOnce: pods all created in the last 2 s (30 s for a pod asking for a GPU) wait one loop for more to
    // come (allPodsAreNew), and the loop skips its scale-down too (DisableScaleDownForLoop).
    const waitForMore = pending.length > 0 && !this.isMaxedOut() && this.newPods.areAllNew(pending, key, now);
    // A scale-up that decided nothing on these very inputs decides nothing again, and records nothing new.
    const isQuiet = key !== null && key === this.quietKey;
    const scaledUp = pending.length > 0 && !waitForMore && !isQuiet && this.scaleUp(pending, key);
    const resumeAt = this.lastScaleUp + this.settings.scaleDownDelayAfterAdd;
    const coolDown = waitForMore || now < resumeAt;
    const wakeAt = this.scaleDown.run(coolDown, resumeAt, this.sizes());
    if (scaledUp || waitForMore) {
      this.requestScan(now + 1); // the next loop reports the pods this one left (no events after a scale-up)
    }
    if (wakeAt !== null) {
      this.requestScan(wakeAt);
    }
  }

  /** --max-nodes-total reached: RunOnce reports it before looking at how new the pods are. */
  private isMaxedOut(): boolean {
    const total = this.state.nodes.size + this.upcoming.length;
    return this.settings.maxNodesTotal > 0 && total >= this.settings.maxNodesTotal;
  }

  /**
   * The unschedulable pods that neither an existing node nor an upcoming one would take (upstream's
   * FilterOutSchedulable and the upcoming nodes of the snapshot): a pod the scheduler only has to retry is not
   * a reason to grow.
   */
  private unhelpedPods(): { readonly pending: readonly SimPod[]; readonly key: string | null } {
    const waiting = this.unschedulable.list(
      this.state.unschedulablePods(),
      this.state.unschedulableGeneration,
    );
    return this.unhelped.find(
      waiting,
      () => this.scanInputs(waiting),
      () => this.fork(),
    );
  }

  /** What a scan reads (scan-inputs.ts): equal keys of these, equal unhelped pods and scale-up decision. */
  private scanInputs(waiting: readonly SimPod[]): Parameters<ScanInputKeys['keyOf']>[0] {
    const sizes = this.sizes();
    return {
      nodes: this.state.nodeList(),
      isDeleting: (name) => this.scaleDown.isDeleting(name),
      upcoming: this.upcoming,
      groupSizes: sizes.map((entry) => entry.size),
      daemonPods: sizes.map((entry) => entry.daemonPods ?? []),
      storageGeneration: this.setup.base.objects.storage.generation,
      waiting,
    };
  }

  /** A snapshot of the nodes that are there or coming (not those being deleted), with their pods. */
  private fork(): SchedulingSnapshot {
    const snapshot = new SchedulingSnapshot(this.setup);
    for (const node of this.state.nodeList()) {
      if (node.isKubeletAlive && !this.scaleDown.isDeleting(node.name)) {
        snapshot.addCopy(node.info);
      }
    }
    for (const node of this.upcoming) {
      snapshot.addNode(
        nodeFromTemplate(node.group, node.name),
        node.group.template,
        this.daemonPodsOf(node.group),
      );
    }
    return snapshot;
  }

  /** Runs the scale-up for the pods; returns whether a group grew. `key`: its inputs' (scan-inputs.ts). */
  private scaleUp(pods: readonly SimPod[], key: string | null): boolean {
    const sizes = this.sizes();
    const total = this.state.nodes.size + this.upcoming.length;
    const decision = decideScaleUp(
      pods.map((pod) => pod.info),
      sizes,
      total,
      this.settings,
      () => this.fork(),
      this.random,
    );
    this.quietKey = decision.chosen === null ? key : null;
    const byKey = new Map(pods.map((pod) => [pod.key, pod]));
    for (const [key, message] of decision.notTriggered) {
      const pod = byKey.get(key);
      if (pod === undefined || this.log.noScaleUp.get(key)?.message === message) {
        continue;
      }
      this.log.noScaleUp.set(key, { pod: key, time: this.state.sim.now, message });
      this.state.recordPod('NotTriggerScaleUp', pod, message, undefined, AUTOSCALER_EVENT.notTriggerScaleUp);
    }
    const chosen = decision.chosen;
    if (chosen === null || chosen.newNodes <= 0) {
      return false;
    }
    const group = sizes.find((entry) => entry.group.name === chosen.option.group)?.group;
    if (group === undefined) {
      return false;
    }
    const now = this.state.sim.now;
    const to = chosen.from + chosen.newNodes;
    const nodes = Array.from({ length: chosen.newNodes }, () => ({
      name: this.newNodeName(group),
      readyAt: now + group.provisioningSeconds,
    }));
    const message = triggeredScaleUpMessage([formatScaleUpInfo(group.name, chosen.from, to, group.maxSize)]);
    const record: ScaleUpRecord = {
      time: now,
      group: group.name,
      from: chosen.from,
      to,
      max: group.maxSize,
      pods: chosen.option.pods.map((pod) => pod.key),
      nodes,
      message,
    };
    this.log.scaleUps.push(record);
    this.lastScaleUp = now;
    for (const pod of chosen.option.pods) {
      const simPod = byKey.get(pod.key);
      if (simPod !== undefined) {
        this.log.noScaleUp.delete(pod.key);
        if (!this.log.triggeredBy.has(pod.key)) {
          this.log.triggeredBy.set(pod.key, { record, pod: simPod });
        }
        this.state.recordPod(
          'TriggeredScaleUp',
          simPod,
          message,
          undefined,
          AUTOSCALER_EVENT.triggeredScaleUp,
        );
      }
    }
    for (const node of nodes) {
      const upcoming: UpcomingNode = { name: node.name, group, readyAt: node.readyAt };
      this.upcoming.push(upcoming);
      this.state.sim.at(node.readyAt, PRIORITY.scenario, () => this.join(upcoming));
    }
    return true;
  }

  /** A requested node registers, Ready, with the group's template and its name. */
  private join(node: UpcomingNode): void {
    const index = this.upcoming.indexOf(node);
    if (index >= 0) {
      this.upcoming.splice(index, 1);
    }
    const { group } = node;
    this.membership.set(node.name, group);
    const info = new NodeInfo(
      nodeFromTemplate(group, node.name),
      group.template.source,
      group.template.allocatable,
    );
    this.state.addNode(
      info,
      `Registered Node ${node.name} in Controller (cluster autoscaler, group ${group.name})`,
    );
    recordRegisteredNode(this.state, node.name);
  }

  /** "<group>-<n>": the next number not used by a node of the cluster or one coming. */
  private newNodeName(group: NodeGroupSpec): string {
    let next = this.created.get(group.name) ?? 1;
    const taken = (name: string): boolean =>
      this.state.nodes.has(name) || this.upcoming.some((node) => node.name === name);
    while (taken(`${group.name}-${next}`)) {
      next++;
    }
    this.created.set(group.name, next + 1);
    return `${group.name}-${next}`;
  }

  /** Whether a node belongs to a node group (the report marks them). */
  groupOf(node: SimNode | string): string | null {
    return this.membership.get(typeof node === 'string' ? node : node.name)?.name ?? null;
  }
}
