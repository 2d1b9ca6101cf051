/**
 * The framework: runs each extension point's plugins in order and collects their statuses, as frameworkImpl in
 * pkg/scheduler/framework/runtime/framework.go. It holds no plugin-specific logic.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/runtime/framework.go
 */
import type { Cluster } from '../../model/cluster';
import type { NodeInfo } from '../../model/node-info';
import type { PodInfo } from '../../model/pod-info';
import { CycleState } from './cycle-state';
import { MAX_NODE_SCORE, MIN_NODE_SCORE } from './plugin';
import type {
  FrameworkHandle,
  NodeScore,
  NodeStatusReader,
  PostFilterResult,
  SchedulerPlugin,
} from './plugin';
import { SUCCESS, errorStatus, isRejected, isSuccess, newStatus, withPlugin } from './status';
import type { Status } from './status';

/** Reason of the framework's own PreFilter rejection when PreFilterResults leave no node. */
export const PREFILTER_NO_NODES_REASON_CODE = 'Framework/PreFilterResultEmpty';

/** The plugins of a profile by extension point, in run order, with score weights. */
export interface PluginLists {
  readonly preFilter: readonly SchedulerPlugin[];
  readonly filter: readonly SchedulerPlugin[];
  readonly postFilter: readonly SchedulerPlugin[];
  readonly preScore: readonly SchedulerPlugin[];
  readonly score: readonly SchedulerPlugin[];
  /** Weight of each score plugin by name. */
  readonly scoreWeights: ReadonlyMap<string, number>;
}

/** The outcome of the PreFilter extension point. */
export interface PreFilterOutcome {
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

/** The outcome of scoring. */
export type ScoreOutcome = { ok: true; scores: NodePluginScores[] } | { ok: false; status: Status };

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
    const skipped = new Set<string>();
    const pluginsWithNodes: string[] = [];
    let nodeNames: Set<string> | null = null;
    let rejection: Status | null = null;
    try {
      for (const plugin of this.plugins.preFilter) {
        const preFilter = plugin.preFilter?.bind(plugin);
        if (preFilter === undefined) {
          continue;
        }
        const result = preFilter(state, pod, this.cluster.nodes);
        const status = result.status;
        if (status.code === 'Skip') {
          skipped.add(plugin.name);
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
      state.skipFilterPlugins = skipped;
    }
    return { status: rejection ?? SUCCESS, nodeNames, pluginsWithNodes: [...pluginsWithNodes].sort() };
  }

  /** Runs Filter plugins on one node, stopping at the first that does not pass (RunFilterPlugins). */
  runFilterPlugins(state: CycleState, pod: PodInfo, node: NodeInfo): Status {
    const skipped = state.skipFilterPlugins;
    for (const plugin of this.plugins.filter) {
      if (skipped.size > 0 && skipped.has(plugin.name)) {
        continue;
      }
      const status = plugin.filter?.(state, pod, node) ?? SUCCESS;
      if (status.code !== 'Success') {
        if (!isRejected(status)) {
          const detail = status.reasons.map((reason) => reason.message).join(', ');
          return errorStatus(plugin.name, `running "${plugin.name}" filter plugin: ${detail}`);
        }
        return withPlugin(status, plugin.name);
      }
    }
    return SUCCESS;
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
    const reasons = [];
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
      reasons.push(...result.status.reasons);
      rejector ||= plugin.name;
    }
    return { status: newStatus('Unschedulable', rejector, ...reasons), nominatedNodeName: null, victims: [] };
  }

  /** Runs PreScore plugins (RunPreScorePlugins); Skip marks the plugin's score as skipped. */
  runPreScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status {
    const skipped = new Set<string>();
    try {
      for (const plugin of this.plugins.preScore) {
        const status = plugin.preScore?.(state, pod, nodes) ?? SUCCESS;
        if (status.code === 'Skip') {
          skipped.add(plugin.name);
          continue;
        }
        if (!isSuccess(status)) {
          return errorStatus(plugin.name, `running PreScore plugin "${plugin.name}"`);
        }
      }
    } finally {
      state.skipScorePlugins = skipped;
    }
    return SUCCESS;
  }

  /**
   * Runs Score plugins on every node, then NormalizeScore, checks the 0..100 range, applies weights and sums
   * (RunScorePlugins). Plugins skipped at PreScore score nothing (their column is 0).
   */
  runScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): ScoreOutcome {
    const plugins = this.plugins.score;
    const columns: NodeScore[][] = [];
    for (const plugin of plugins) {
      const scoreNode = plugin.score?.bind(plugin);
      if (scoreNode === undefined || state.skipScorePlugins.has(plugin.name)) {
        columns.push(nodes.map((node) => ({ name: node.name, score: 0 })));
        continue;
      }
      const column = nodes.map((node) => ({ name: node.name, score: scoreNode(state, pod, node) }));
      if (plugin.normalizeScore !== undefined) {
        const status = plugin.normalizeScore(state, pod, column);
        if (!isSuccess(status)) {
          return {
            ok: false,
            status: errorStatus(plugin.name, `running Normalize on Score plugin "${plugin.name}"`),
          };
        }
      }
      for (const entry of column) {
        if (entry.score > MAX_NODE_SCORE || entry.score < MIN_NODE_SCORE || !Number.isFinite(entry.score)) {
          const message = `plugin "${plugin.name}" returns an invalid score ${entry.score}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`;
          return { ok: false, status: errorStatus(plugin.name, message) };
        }
      }
      columns.push(column);
    }
    const weights = plugins.map((plugin) => this.plugins.scoreWeights.get(plugin.name) ?? 1);
    const result: NodePluginScores[] = nodes.map((node, index) => {
      let total = 0;
      const scores = columns.map((column, pluginIndex) => {
        const weighted = (column[index]?.score ?? 0) * (weights[pluginIndex] ?? 1);
        total += weighted;
        return weighted;
      });
      return { name: node.name, total, scores };
    });
    return { ok: true, scores: result };
  }

  /** A fresh cycle state for one pod. */
  newCycleState(): CycleState {
    return new CycleState();
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
