/**
 * ScoreCache: a resource scorer's remembered node scores, per pod request vector. A resource score is a pure
 * function of the pod's request vector and the node's sums (allocatable, requested), and between two scheduling
 * cycles only the nodes that gained or lost a pod change their sums, so pods of one template (a ReplicaSet's
 * replicas request the same) find almost every node's score already known. Exact by construction: a score is
 * reused only while the node's row of the cluster's NodeColumns has not been written since (its stamp), and
 * scalar resources, read from the node itself, change only together with that row (NodeInfo.update).
 *
 * Upstream has no such cache (kube-scheduler scores every feasible node in parallel instead); it changes no
 * result, only how often the same arithmetic is repeated.
 */
import type { NodeColumns } from '../../../model/snapshot/node-columns';

/** How many request vectors are remembered at once; past this the cache starts afresh (a workload mix churns). */
const MAX_ENTRIES = 16;

/** The scores of one request vector, by node row, with the stamp of the row each was computed from. */
export interface ScoreCacheEntry {
  /** Score by node row (valid where stamps[row] equals the columns' stamp). */
  readonly scores: Float64Array;
  /** The row's stamp when its score was computed; 0 (never a stamp) when none is known. */
  readonly stamps: Float64Array;
}

/** Remembered scores of one scorer for one cluster's columns, keyed by the pod's request vector. */
export class ScoreCache {
  private columns: NodeColumns | null = null;
  /**
   * The entries with their request vectors, compared number by number (a handful of short vectors: cheaper than
   * a text key made twice per cycle).
   */
  private readonly entries: { readonly vector: readonly number[]; readonly entry: ScoreCacheEntry }[] = [];

  /** The entry for this request vector on these columns (created empty when new). */
  entryFor(columns: NodeColumns, podRequests: readonly number[]): ScoreCacheEntry {
    if (columns !== this.columns) {
      // Another cluster (a new simulation with the same framework): nothing remembered applies.
      this.columns = columns;
      this.entries.length = 0;
    }
    for (const known of this.entries) {
      if (sameVector(known.vector, podRequests)) {
        return known.entry;
      }
    }
    if (this.entries.length >= MAX_ENTRIES) {
      this.entries.length = 0;
    }
    const size = columns.stamp.length;
    const entry = { scores: new Float64Array(size), stamps: new Float64Array(size) };
    this.entries.push({ vector: [...podRequests], entry });
    return entry;
  }
}

/** Whether two request vectors hold the same amounts (NaN never matches: such a vector is scored afresh). */
function sameVector(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) {
    return false;
  }
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      return false;
    }
  }
  return true;
}
