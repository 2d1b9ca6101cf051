/**
 * The pods added to and removed from a cluster's nodes, in order: an append-only log that indexes kept by
 * plugins (pods matching a selector per topology domain, existing pods' affinity terms) replay from where they
 * left off instead of walking every pod of the cluster for every pod scheduled. It plays the part of the
 * scheduler cache's event stream; kube-scheduler itself recomputes from its snapshot in parallel.
 *
 * Only the live cluster's nodes write here; the copies made for what-if evaluations (NodeInfo.clone) do not.
 */
import type { NodeInfo } from './node-info';
import type { PodInfo } from './pod-info';

/** One change: a pod added to (+1) or removed from (-1) a node. */
export interface PodLogEntry {
  readonly node: NodeInfo;
  readonly pod: PodInfo;
  readonly sign: 1 | -1;
}

/** The log of a cluster. */
export class PodChangeLog {
  private readonly changes: PodLogEntry[] = [];

  /** How many changes were recorded: the position a reader resumes from. */
  get length(): number {
    return this.changes.length;
  }

  /** Records a change (NodeInfo.addPod / removePod call this). */
  record(node: NodeInfo, pod: PodInfo, sign: 1 | -1): void {
    this.changes.push({ node, pod, sign });
  }

  /** The change at a position (0 ≤ position < length). */
  at(position: number): PodLogEntry {
    return this.changes[position] as PodLogEntry;
  }

  /** Calls `visit` for every change from `position` on, in order; returns the new position. */
  replay(position: number, visit: (change: PodLogEntry) => void): number {
    const end = this.changes.length;
    for (let i = position; i < end; i++) {
      visit(this.changes[i] as PodLogEntry);
    }
    return end;
  }
}
