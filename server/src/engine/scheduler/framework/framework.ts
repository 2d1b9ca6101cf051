/**
 * The framework: runs each extension point's plugins in order and collects their statuses, as frameworkImpl in
 * pkg/scheduler/framework/runtime/framework.go. It holds no plugin-specific logic.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/runtime/framework.go
 */
import type { Cluster } from '../../model/snapshot/cluster';
import type { NodeInfo } from '../../model/snapshot/node-info';
import type { PodInfo } from '../../model/snapshot/pod-info';
import { CycleState } from './cycle-state';
import { SkippedPlugins } from './skipped-plugins';
import { MAX_NODE_SCORE, MIN_NODE_SCORE } from './plugin';
import type {
  FrameworkHandle,
  NodeScore,
  NodeStatusReader,
  PostFilterResult,
  SchedulerPlugin,
} from './plugin';
import { SUCCESS, errorStatus, isRejected, isSuccess, newStatus, withPlugin } from './status';
import type { Reason, Status } from './status';
import { appendAll } from '../../../../../protocol/collections';

/** Reason of the framework's own PreFilter rejection when PreFilterResults leave no node. */
const PREFILTER_NO_NODES_REASON_CODE = 'Framework/PreFilterResultEmpty';

/** The plugins of a profile by extension point, in run order, with score weights. */
interface PluginLists {
  readonly preFilter: readonly SchedulerPlugin[];
  readonly filter: readonly SchedulerPlugin[];
  readonly postFilter: readonly SchedulerPlugin[];
  readonly preScore: readonly SchedulerPlugin[];
  readonly score: readonly SchedulerPlugin[];
  /** Weight of each score plugin by name. */
  readonly scoreWeights: ReadonlyMap<string, number>;
}

/** The outcome of the PreFilter extension point. */
interface PreFilterOutcome {
  /** SUCCESS, or the status that rejects the pod on every node, or an Error. */
  readonly status: Status;
  /** The nodes to filter, by name, or null for all. */
  readonly nodeNames: ReadonlySet<string> | null;
  /** Plugins that narrowed the nodes (for the "didn't satisfy plugin(s)" status of the others), sorted. */
  readonly pluginsWithNodes: readonly string[];
}

/** A node's scores: total (weighted sum) and per score plugin (weighted), aligned with scorePluginNames. */
export interface NodePluginScores {
  readonly name: string;
  readonly total: number;
  readonly scores: readonly number[];
}

/** The outcome of scoring: totals per node and, when asked for, each plugin's weighted column. */
type ScoreOutcome =
  | { ok: true; totals: Float64Array; perPlugin: readonly Float64Array[] | null }
  | { ok: false; status: Status };

/**
 * What runFilterPluginsOnNodes leaves: the nodes that passed, in visiting order, and, when some node did not pass
 * (fewer passed than were visited), every visited node's status by visiting position (the framework's scratch
 * lists, valid until the next call; when every node passed, statuses is stale).
 */
export interface FilterRun {
  readonly passed: readonly NodeInfo[];
  readonly statuses: readonly Status[];
}

/** Runs one profile's plugins. Implements the handle plugins use to re-run filters. */
export class SchedulerFramework implements FrameworkHandle {
  private plugins: PluginLists = {
    preFilter: [],
    filter: [],
    postFilter: [],
    preScore: [],
    score: [],
    scoreWeights: new Map(),
  };

  private readonly buffers: [Float64Array, Float64Array] = [new Float64Array(64), new Float64Array(64)];
  private readonly views: [Float64Array, Float64Array] = [
    this.buffers[0].subarray(0, 0),
    this.buffers[1].subarray(0, 0),
  ];
  private readonly scorePool: { name: string; score: number }[] = [];
  /** Scratch lists of runFilterPluginsOnNodes: nodes still passing, their positions, one plugin's statuses. */
  private readonly liveNodes: NodeInfo[] = [];
  private readonly liveIndex: number[] = [];
  private readonly pluginStatuses: Status[] = [];
  private readonly chunkStatuses: Status[] = [];
  private readonly filterRun: FilterRun = { passed: this.liveNodes, statuses: this.chunkStatuses };
  /** The sets of skipped plugin names met so far, by SkippedPlugins mask, per extension point. */
  private readonly preFilterSkipSets = new Map<number, ReadonlySet<string>>();
  private readonly preScoreSkipSets = new Map<number, ReadonlySet<string>>();

  constructor(
    /** The cluster being scheduled into. */
    readonly cluster: Cluster,
    /** The profile's percentageOfNodesToScore (0 or undefined: adaptive). */
    readonly percentageOfNodesToScore: number | undefined,
  ) {}

  /** Installs the plugin lists (done once by buildFramework, after the plugins were built with this handle). */
  setPlugins(plugins: PluginLists): void {
    this.plugins = plugins;
  }

  /** Names of the score plugins that run, in order (the columns of NodePluginScores.scores). */
  get scorePluginNames(): string[] {
    return this.plugins.score.map((plugin) => plugin.name);
  }

  /** Whether any score plugin is enabled (otherwise one feasible node is enough). */
  get hasScorePlugins(): boolean {
    return this.plugins.score.length > 0;
  }

  /** Whether any filter plugin is enabled. */
  get hasFilterPlugins(): boolean {
    return this.plugins.filter.length > 0;
  }

  /** Whether any postFilter plugin is enabled. */
  get hasPostFilterPlugins(): boolean {
    return this.plugins.postFilter.length > 0;
  }

  /**
   * Runs PreFilter plugins (RunPreFilterPlugins): Skip marks the plugin's filter as skipped; an
   * UnschedulableAndUnresolvable stops at once; an Unschedulable is remembered while the others still run; node
   * sets are intersected, and an empty intersection rejects the pod.
   */
  runPreFilterPlugins(state: CycleState, pod: PodInfo): PreFilterOutcome {
    const plugins = this.plugins.preFilter;
    const skipped = new SkippedPlugins(plugins, this.preFilterSkipSets);
    const pluginsWithNodes: string[] = [];
    let nodeNames: Set<string> | null = null;
    let rejection: Status | null = null;
    try {
      for (let i = 0; i < plugins.length; i++) {
        const plugin = plugins[i] as SchedulerPlugin;
        // Called as a method: binding it first would allocate a function per plugin and cycle.
        if (plugin.preFilter === undefined) {
          continue;
        }
        const result = plugin.preFilter(state, pod, this.cluster.nodes);
        const status = result.status;
        if (status.code === 'Skip') {
          skipped.add(i);
          continue;
        }
        if (!isSuccess(status)) {
          const attributed = withPlugin(status, plugin.name);
          if (status.code === 'UnschedulableAndUnresolvable') {
            return { status: attributed, nodeNames: null, pluginsWithNodes: [] };
          }
          if (status.code === 'Unschedulable') {
            rejection = attributed;
            continue;
          }
          return { status: attributed, nodeNames: null, pluginsWithNodes: [] };
        }
        if (result.nodeNames !== null) {
          pluginsWithNodes.push(plugin.name);
          nodeNames = nodeNames === null ? new Set(result.nodeNames) : intersect(nodeNames, result.nodeNames);
          if (nodeNames.size === 0) {
            const sorted = [...pluginsWithNodes].sort();
            const message =
              sorted.length === 1
                ? `node(s) didn't satisfy plugin ${sorted[0] ?? ''}`
                : `node(s) didn't satisfy plugin(s) [${sorted.join(' ')}] simultaneously`;
            const status = newStatus('UnschedulableAndUnresolvable', '', {
              code: PREFILTER_NO_NODES_REASON_CODE,
              message,
            });
            return { status, nodeNames, pluginsWithNodes: sorted };
          }
        }
      }
    } finally {
      state.skipFilterPlugins = skipped.names();
      state.activeFilterPlugins = null;
    }
    return { status: rejection ?? SUCCESS, nodeNames, pluginsWithNodes: pluginsWithNodes.sort() };
  }

  /** Runs Filter plugins on one node, stopping at the first that does not pass (RunFilterPlugins). */
  runFilterPlugins(state: CycleState, pod: PodInfo, node: NodeInfo): Status {
    const plugins = (state.activeFilterPlugins ??= this.activeFilters(state, pod));
    for (let i = 0; i < plugins.length; i++) {
      const plugin = plugins[i] as SchedulerPlugin;
      const status = plugin.filter?.(state, pod, node) ?? SUCCESS;
      if (status.code !== 'Success') {
        return attributeFilterStatus(plugin, status);
      }
    }
    return SUCCESS;
  }

  /**
   * Runs Filter plugins on `size` nodes of the ring `nodes` from `start` (nodes[(start + j) % nodes.length] for
   * j < size: the search order of findNodesThatPassFilters, read in place rather than copied into a chunk
   * first). When a node does not pass, statuses[j] becomes exactly what runFilterPlugins returns for each node;
   * passed lists the nodes that passed, in that order. The plugins run one after another over the nodes still passing (filterNodes
   * when a plugin has it), not node after node: filters only read the cycle state and the node, so every node
   * still gets the status of its first failing plugin, and the per-node call no longer goes through one call
   * site shared by every plugin. The result is the framework's scratch, valid until the next call.
   */
  runFilterPluginsOnNodes(
    state: CycleState,
    pod: PodInfo,
    nodes: readonly NodeInfo[],
    start: number,
    size: number,
  ): FilterRun {
    const plugins = (state.activeFilterPlugins ??= this.activeFilters(state, pod));
    const live = this.liveNodes;
    const liveIndex = this.liveIndex;
    const statuses = this.chunkStatuses;
    const out = this.pluginStatuses;
    // Lengths are set only when they change: shrinking an array's length is a call into the runtime.
    let index = start;
    for (let i = 0; i < size; i++) {
      live[i] = nodes[index] as NodeInfo;
      index = index + 1 === nodes.length ? 0 : index + 1;
    }
    setLength(live, size);
    // Until a node fails, every status is SUCCESS and live[j] is the node at position j: statuses and positions
    // are written only from the first failure on (a chunk where every node passes, the usual one, writes none).
    let isIdentity = true;
    for (let p = 0; p < plugins.length && live.length > 0; p++) {
      const plugin = plugins[p] as SchedulerPlugin;
      const count = live.length;
      setLength(out, count);
      if (plugin.filterNodes !== undefined) {
        plugin.filterNodes(state, pod, live, out);
      } else {
        for (let j = 0; j < count; j++) {
          out[j] = plugin.filter?.(state, pod, live[j] as NodeInfo) ?? SUCCESS;
        }
      }
      let kept = 0;
      for (let j = 0; j < count; j++) {
        const status = out[j] as Status;
        // The shared SUCCESS first: almost every status is it, and then its code need not be read.
        if (status === SUCCESS || status.code === 'Success') {
          if (kept !== j) {
            live[kept] = live[j] as NodeInfo;
            liveIndex[kept] = liveIndex[j] as number;
          }
          kept++;
        } else {
          if (isIdentity) {
            isIdentity = false;
            fillFirstFailure(statuses, size, liveIndex, count);
          }
          statuses[liveIndex[j] as number] = attributeFilterStatus(plugin, status);
        }
      }
      setLength(live, kept);
      if (!isIdentity) {
        setLength(liveIndex, kept);
      }
    }
    return this.filterRun;
  }

  /**
   * The filters of this cycle: those not skipped at PreFilter, less those that say they pass on every node of
   * the cluster for this pod (filterPassesEveryNode).
   */
  private activeFilters(state: CycleState, pod: PodInfo): readonly SchedulerPlugin[] {
    const skipped = state.skipFilterPlugins;
    const all = this.plugins.filter;
    let active: SchedulerPlugin[] | null = null;
    for (let i = 0; i < all.length; i++) {
      const plugin = all[i] as SchedulerPlugin;
      const isLeftOut = skipped.has(plugin.name) || plugin.filterPassesEveryNode?.(pod) === true;
      if (isLeftOut && active === null) {
        active = all.slice(0, i);
      } else if (!isLeftOut && active !== null) {
        active.push(plugin);
      }
    }
    return active ?? all;
  }

  /** Tells each preFilter extension (of plugins not skipped) that a pod was added to a node. */
  runPreFilterExtensionAddPod(
    state: CycleState,
    podToSchedule: PodInfo,
    podToAdd: PodInfo,
    node: NodeInfo,
  ): Status {
    for (const plugin of this.plugins.preFilter) {
      if (plugin.preFilterExtensions === undefined || state.skipFilterPlugins.has(plugin.name)) {
        continue;
      }
      const status = plugin.preFilterExtensions.addPod(state, podToSchedule, podToAdd, node);
      if (!isSuccess(status)) {
        return errorStatus(plugin.name, `running AddPod on PreFilter plugin "${plugin.name}"`);
      }
    }
    return SUCCESS;
  }

  /** Tells each preFilter extension (of plugins not skipped) that a pod was removed from a node. */
  runPreFilterExtensionRemovePod(
    state: CycleState,
    podToSchedule: PodInfo,
    podToRemove: PodInfo,
    node: NodeInfo,
  ): Status {
    for (const plugin of this.plugins.preFilter) {
      if (plugin.preFilterExtensions === undefined || state.skipFilterPlugins.has(plugin.name)) {
        continue;
      }
      const status = plugin.preFilterExtensions.removePod(state, podToSchedule, podToRemove, node);
      if (!isSuccess(status)) {
        return errorStatus(plugin.name, `running RemovePod on PreFilter plugin "${plugin.name}"`);
      }
    }
    return SUCCESS;
  }

  /**
   * Runs PostFilter plugins until one succeeds or returns UnschedulableAndUnresolvable (RunPostFilterPlugins);
   * otherwise the reasons of all are combined into one Unschedulable status.
   */
  runPostFilterPlugins(state: CycleState, pod: PodInfo, statuses: NodeStatusReader): PostFilterResult {
    const reasons: Reason[] = [];
    let rejector = '';
    for (const plugin of this.plugins.postFilter) {
      const result = plugin.postFilter?.(state, pod, statuses);
      if (result === undefined) {
        continue;
      }
      if (isSuccess(result.status)) {
        return result;
      }
      if (result.status.code === 'UnschedulableAndUnresolvable') {
        return { ...result, status: withPlugin(result.status, plugin.name) };
      }
      if (!isRejected(result.status)) {
        return { status: withPlugin(result.status, plugin.name), nominatedNodeName: null, victims: [] };
      }
      appendAll(reasons, result.status.reasons);
      rejector ||= plugin.name;
    }
    return { status: newStatus('Unschedulable', rejector, ...reasons), nominatedNodeName: null, victims: [] };
  }

  /** Runs PreScore plugins (RunPreScorePlugins); Skip marks the plugin's score as skipped. */
  runPreScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status {
    const plugins = this.plugins.preScore;
    const skipped = new SkippedPlugins(plugins, this.preScoreSkipSets);
    try {
      for (let i = 0; i < plugins.length; i++) {
        const plugin = plugins[i] as SchedulerPlugin;
        const status = plugin.preScore?.(state, pod, nodes) ?? SUCCESS;
        if (status.code === 'Skip') {
          skipped.add(i);
          continue;
        }
        if (!isSuccess(status)) {
          return errorStatus(plugin.name, `running PreScore plugin "${plugin.name}"`);
        }
      }
    } finally {
      state.skipScorePlugins = skipped.names();
    }
    return SUCCESS;
  }

  /**
   * Runs Score plugins on every node, then NormalizeScore, checks the 0..100 range, applies weights and sums
   * (RunScorePlugins). Plugins skipped at PreScore score nothing (their column is 0). The returned arrays are
   * the framework's buffers, valid until the next call: totals per node (in `nodes` order) and, when
   * `keepPerPlugin`, each plugin's weighted column.
   */
  runScorePlugins(
    state: CycleState,
    pod: PodInfo,
    nodes: readonly NodeInfo[],
    keepPerPlugin: boolean,
  ): ScoreOutcome {
    const plugins = this.plugins.score;
    const count = nodes.length;
    const totals = this.buffer(0, count);
    totals.fill(0);
    const perPlugin: Float64Array[] | null = keepPerPlugin ? [] : null;
    for (let p = 0; p < plugins.length; p++) {
      const plugin = plugins[p] as SchedulerPlugin;
      const column = keepPerPlugin ? new Float64Array(count) : this.buffer(1, count);
      perPlugin?.push(column);
      if (plugin.score === undefined || state.skipScorePlugins.has(plugin.name)) {
        column.fill(0);
        continue;
      }
      const weight = this.plugins.scoreWeights.get(plugin.name) ?? 1;
      const uniform = plugin.uniformScore?.(state, pod) ?? null;
      if (uniform !== null) {
        // Every node scores the same: checked and weighted once, added to every total in plugin order as below.
        if (!(uniform >= MIN_NODE_SCORE && uniform <= MAX_NODE_SCORE)) {
          return { ok: false, status: errorStatus(plugin.name, invalidScoreMessage(plugin.name, uniform)) };
        }
        const weighted = uniform * weight;
        if (keepPerPlugin) {
          column.fill(weighted);
        }
        if (weighted !== 0) {
          for (let i = 0; i < count; i++) {
            totals[i] = (totals[i] as number) + weighted;
          }
        }
        continue;
      }
      if (plugin.scoreNodes !== undefined) {
        plugin.scoreNodes(state, pod, nodes, column);
      } else {
        for (let i = 0; i < count; i++) {
          column[i] = plugin.score(state, pod, nodes[i] as NodeInfo);
        }
      }
      if (plugin.normalizeScoreColumn !== undefined) {
        const status = plugin.normalizeScoreColumn(state, pod, nodes, column);
        if (!isSuccess(status)) {
          return {
            ok: false,
            status: errorStatus(plugin.name, `running Normalize on Score plugin "${plugin.name}"`),
          };
        }
      } else if (plugin.normalizeScore !== undefined) {
        const scores = this.nodeScores(nodes, column);
        const status = plugin.normalizeScore(state, pod, scores);
        if (!isSuccess(status)) {
          return {
            ok: false,
            status: errorStatus(plugin.name, `running Normalize on Score plugin "${plugin.name}"`),
          };
        }
        for (let i = 0; i < count; i++) {
          column[i] = (scores[i] as NodeScore).score;
        }
      }
      for (let i = 0; i < count; i++) {
        const score = column[i] as number;
        if (!(score >= MIN_NODE_SCORE && score <= MAX_NODE_SCORE)) {
          return { ok: false, status: errorStatus(plugin.name, invalidScoreMessage(plugin.name, score)) };
        }
        const weighted = score * weight;
        column[i] = weighted;
        totals[i] = (totals[i] as number) + weighted;
      }
    }
    return { ok: true, totals, perPlugin };
  }

  /**
   * A reusable Float64Array of `length` (slot 0: totals, slot 1: a plugin's column). The view of the last length
   * is kept: cycles of one cluster size ask for the same length every time, and a view is an allocation.
   */
  private buffer(slot: 0 | 1, length: number): Float64Array {
    const view = this.views[slot];
    if (view.length === length) {
      return view;
    }
    let buffer = this.buffers[slot];
    if (buffer.length < length) {
      buffer = new Float64Array(Math.max(length, buffer.length * 2));
      this.buffers[slot] = buffer;
    }
    const fresh = buffer.subarray(0, length);
    this.views[slot] = fresh;
    return fresh;
  }

  /** The reusable NodeScore list handed to NormalizeScore, filled from a column. */
  private nodeScores(nodes: readonly NodeInfo[], column: Float64Array): NodeScore[] {
    const scores = this.scorePool;
    if (scores.length > nodes.length) {
      scores.length = nodes.length;
    }
    for (let i = 0; i < nodes.length; i++) {
      const name = (nodes[i] as NodeInfo).name;
      const entry = scores[i];
      if (entry === undefined) {
        scores.push({ name, score: column[i] as number });
      } else {
        entry.name = name;
        entry.score = column[i] as number;
      }
    }
    return scores;
  }

  /** A fresh cycle state for one pod. */
  newCycleState(): CycleState {
    return new CycleState();
  }
}

/** A filter's non-Success status as the framework reports it: rejections attributed, anything else an Error. */
function attributeFilterStatus(plugin: SchedulerPlugin, status: Status): Status {
  if (!isRejected(status)) {
    const detail = status.reasons.map((reason) => reason.message).join(', ');
    return errorStatus(plugin.name, `running "${plugin.name}" filter plugin: ${detail}`);
  }
  return withPlugin(status, plugin.name);
}

/** The framework's error for a score outside 0..100 after normalising (RunScorePlugins' wording). */
function invalidScoreMessage(plugin: string, score: number): string {
  return `plugin "${plugin}" returns an invalid score ${score}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`;
}

/**
 * What runFilterPluginsOnNodes leaves unwritten until a node fails: every status SUCCESS, and the position of each
 * of the `positions` live nodes its own index.
 */
function fillFirstFailure(statuses: Status[], size: number, liveIndex: number[], positions: number): void {
  for (let i = 0; i < size; i++) {
    statuses[i] = SUCCESS;
  }
  setLength(statuses, size);
  for (let i = 0; i < positions; i++) {
    liveIndex[i] = i;
  }
  setLength(liveIndex, positions);
}

/** Sets an array's length only when it differs. */
function setLength(list: unknown[], length: number): void {
  if (list.length !== length) {
    list.length = length;
  }
}

function intersect(current: ReadonlySet<string>, other: ReadonlySet<string>): Set<string> {
  const result = new Set<string>();
  for (const name of current) {
    if (other.has(name)) {
      result.add(name);
    }
  }
  return result;
}
