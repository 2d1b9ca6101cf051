/**
 * The scheduling record of one pod: per node, the filter outcome (passed, or the failing plugin's reasons) and
 * scores, then the chosen node or why none fit. Detail is cheap by default: statuses of rejected nodes are kept
 * always (the FitError needs them); passed nodes and per-plugin scores only with detail 'full'.
 */
import type { PodInfo } from '../model/snapshot/pod-info';
import type { FitError } from './framework/fit-error';
import type { NodePluginScores } from './framework/framework';
import type { Status } from './framework/status';

/** How much per-node detail to record. */
export type RecordDetail = 'full' | 'compact';

/** Why a pod was not scheduled at all (no cycle ran). */
type NotAttemptedReason =
  | { readonly kind: 'gated'; readonly message: string }
  | { readonly kind: 'no-profile'; readonly message: string }
  | { readonly kind: 'no-nodes'; readonly message: string }
  | { readonly kind: 'node-not-found'; readonly message: string };

/** Per-plugin scores of the feasible nodes ('full' detail only). */
export interface ScoreTable {
  /** Score plugin names: the columns of each node's scores (weighted). */
  readonly plugins: readonly string[];
  readonly nodes: readonly NodePluginScores[];
}

/** The record of one pod's scheduling. */
export interface SchedulingRecord {
  readonly pod: PodInfo;
  /** The node chosen, or null. */
  readonly nodeName: string | null;
  /**
   * Every node that shared the top score, in cluster node order (kube-scheduler picks one at random; the engine
   * picks the first). A single feasible node is its own tie list; empty when the pod was not placed.
   */
  readonly tiedNodes: readonly string[];
  /** Nodes whose filters ran (feasible + rejected), as ScheduleResult.EvaluatedNodes. */
  readonly evaluatedNodes: number;
  /** Nodes found feasible before the search stopped (percentageOfNodesToScore). */
  readonly feasibleNodes: number;
  /** Filter outcome per evaluated node: rejected nodes always; passed ones (SUCCESS) with 'full' detail. */
  readonly filterStatuses: ReadonlyMap<string, Status>;
  /** Scores ('full' detail and more than one feasible node), else null. */
  readonly scores: ScoreTable | null;
  /** Why no node fits (a FitError), or null. */
  readonly fitError: FitError | null;
  /** An unexpected error status from a plugin, or null. */
  readonly error: Status | null;
  /** Why no scheduling cycle ran, or null. */
  readonly notAttempted: NotAttemptedReason | null;
  /** Pods evicted to make room for this one (preemption). */
  readonly preempted: readonly PodInfo[];
}
