/**
 * The plugin contract, after kube-scheduler's framework interfaces: a plugin has a name and implements only the
 * phases it needs. The framework (framework.ts) calls them; plugins never call each other.
 * https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/kube-scheduler/framework/interface.go
 *
 * Phases, in the order of a scheduling cycle:
 *   preFilter(pod, nodes)     once per pod; may Skip (its filter is then skipped), reject the pod on every node,
 *                             or narrow the nodes to a set of names (PreFilterResult)
 *   filter(pod, node)         once per node; Success, Unschedulable or UnschedulableAndUnresolvable with reasons;
 *                             filterNodes is the same over many nodes at once (optional, faster)
 *   postFilter(pod, statuses) only when no node fits (preemption)
 *   preScore(pod, nodes)      once per pod with the feasible nodes; may Skip (its score is then skipped)
 *   score(pod, node)          once per feasible node; an integer (plugins normalise to 0..100); scoreNodes is
 *                             the same over every feasible node at once (optional, faster)
 *   normalizeScore(scores)    once per pod; rewrites the node scores in place to 0..100; normalizeScoreColumn is
 *                             the same over the score column (optional, faster)
 */
import type { Cluster } from '../../model/snapshot/cluster';
import type { NodeInfo } from '../../model/snapshot/node-info';
import type { PodInfo } from '../../model/snapshot/pod-info';
import type { KubernetesMinor } from '../../version';
import type { CycleState } from './cycle-state';
import { SUCCESS, skip } from './status';
import type { Status } from './status';

/** The highest node score a plugin may give after normalisation (fwk.MaxNodeScore). */
export const MAX_NODE_SCORE = 100;
/** The lowest node score (fwk.MinNodeScore). */
export const MIN_NODE_SCORE = 0;

/** What preFilter returns: a status and, optionally, the only nodes worth filtering (null: all nodes). */
export interface PreFilterResult {
  readonly status: Status;
  readonly nodeNames: ReadonlySet<string> | null;
}

/**
 * PreFilter's pass without a node list, one frozen object for every plugin and cycle (as SUCCESS is): PreFilter
 * runs for every pod in every cycle and in the autoscaler's checks.
 */
export const PRE_FILTER_PASSED: PreFilterResult = Object.freeze({ status: SUCCESS, nodeNames: null });

/** preFilterSkipped's results by plugin name (a registry's few names). */
const SKIPPED = new Map<string, PreFilterResult>();

/** PreFilter's Skip for a plugin, one frozen object per plugin (its status is skip's shared one). */
export function preFilterSkipped(plugin: string): PreFilterResult {
  let result = SKIPPED.get(plugin);
  if (result === undefined) {
    result = Object.freeze({ status: skip(plugin), nodeNames: null });
    SKIPPED.set(plugin, result);
  }
  return result;
}

/** Incremental updates of a plugin's preFilter state when a pod is added to or removed from a node (what-if). */
interface PreFilterExtensions {
  addPod(state: CycleState, podToSchedule: PodInfo, podToAdd: PodInfo, node: NodeInfo): Status;
  removePod(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, node: NodeInfo): Status;
}

/** A node's score from one plugin. */
export interface NodeScore {
  readonly name: string;
  score: number;
}

/** Read access to the filter outcome of every node, for postFilter plugins. */
export interface NodeStatusReader {
  /** The status of a node: its failing status, or the status given to nodes not evaluated. */
  get(nodeName: string): Status;
  /** Nodes evaluated and rejected, with their statuses. */
  readonly rejected: ReadonlyMap<string, Status>;
}

/** What postFilter returns: Success with a nominated node and the pods to evict, or a rejection. */
export interface PostFilterResult {
  readonly status: Status;
  /** The node the pod may use once the victims are gone. */
  readonly nominatedNodeName: string | null;
  /** Pods to evict from that node. */
  readonly victims: readonly PodInfo[];
}

/** A scheduler plugin. Implement only the phases the plugin needs. */
export interface SchedulerPlugin {
  /** The upstream plugin name, e.g. "NodeResourcesFit". */
  readonly name: string;
  preFilter?(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): PreFilterResult;
  /** Present when the plugin's preFilter state depends on other pods (InterPodAffinity, PodTopologySpread). */
  readonly preFilterExtensions?: PreFilterExtensions;
  filter?(state: CycleState, pod: PodInfo, node: NodeInfo): Status;
  /**
   * Optional batch form of filter, for speed: sets statuses[i] to exactly what filter(state, pod, nodes[i])
   * returns (the framework sets statuses.length to nodes.length first).
   */
  filterNodes?(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], statuses: Status[]): void;
  /**
   * Optional, for speed: true when filter would return Success on every node of the framework's cluster for
   * this pod, known without visiting a node (from `cluster.nodeSpecs`: no node has a taint, none is cordoned).
   * The framework then leaves the filter out of the cycle as if PreFilter had returned Skip, without the plugin
   * gaining a PreFilter extension point upstream does not give it. Same statuses, one pass over the nodes less.
   */
  filterPassesEveryNode?(pod: PodInfo): boolean;
  postFilter?(state: CycleState, pod: PodInfo, statuses: NodeStatusReader): PostFilterResult;
  preScore?(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status;
  score?(state: CycleState, pod: PodInfo, node: NodeInfo): number;
  /**
   * Optional batch form of score, for speed: sets scores[i] to exactly what score(state, pod, nodes[i]) returns.
   * The framework prefers it, so the per-node call is not dispatched through one call site shared by every
   * plugin (which V8 cannot inline); score stays for single nodes and tests.
   */
  scoreNodes?(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], scores: Float64Array): void;
  normalizeScore?(state: CycleState, pod: PodInfo, scores: NodeScore[]): Status;
  /**
   * Optional, for speed: the normalised score every node of the framework's cluster gets for this pod, when it
   * is known without visiting a node (no node has a PreferNoSchedule taint, none lists an image); null
   * otherwise. The framework then writes it into the column instead of running score and normalizeScore.
   */
  uniformScore?(state: CycleState, pod: PodInfo): number | null;
  /**
   * Optional form of normalizeScore over the score column (scores[i] is nodes[i]'s), for speed: must leave
   * exactly what normalizeScore leaves in the NodeScore list. The framework prefers it.
   */
  normalizeScoreColumn?(
    state: CycleState,
    pod: PodInfo,
    nodes: readonly NodeInfo[],
    scores: Float64Array,
  ): Status;
}

/** What the framework lends plugins: the cluster and the ability to re-run filters (for preemption). */
export interface FrameworkHandle {
  /** The cluster being scheduled into (the live snapshot). */
  readonly cluster: Cluster;
  /** Runs every enabled filter on a node; the first failing status, or SUCCESS. */
  runFilterPlugins(state: CycleState, pod: PodInfo, node: NodeInfo): Status;
  /** Tells every preFilter extension that a pod was added to a node. */
  runPreFilterExtensionAddPod(
    state: CycleState,
    podToSchedule: PodInfo,
    podToAdd: PodInfo,
    node: NodeInfo,
  ): Status;
  /** Tells every preFilter extension that a pod was removed from a node. */
  runPreFilterExtensionRemovePod(
    state: CycleState,
    podToSchedule: PodInfo,
    podToRemove: PodInfo,
    node: NodeInfo,
  ): Status;
}

/** What a plugin factory receives. */
export interface PluginContext {
  /** The plugin's arguments from the profile's pluginConfig, or undefined for the defaults. */
  readonly args: unknown;
  /** The Kubernetes version whose behaviour and wording to follow. */
  readonly version: KubernetesMinor;
  /** Access to the cluster and framework. */
  readonly handle: FrameworkHandle;
  /** Reports invalid arguments (the plugin then uses defaults); becomes an 'invalid-plugin-args' finding. */
  reportArgsProblem(message: string): void;
}

/** Builds a plugin for one profile. */
export type PluginFactory = (context: PluginContext) => SchedulerPlugin;
