/**
 * The pods the scheduler marked unschedulable since they were last bound, in the order first marked (what the
 * cluster autoscaler lists every scan, instead of every pod of the cluster), and a generation that changes
 * whenever that list may: a pod marked or unmarked (bound, replaced, gone), or a marked pod whose deletion starts
 * or whose containers finish. Everything else a scan's list reads of a pod is its spec, which never changes. Equal
 * generations, equal lists: the autoscaler's scans of a still cluster skip reading hundreds of Pending pods
 * (autoscaler/unschedulable-pods.ts).
 */
import type { SimPod } from './sim-pod';

/** The marked pods and their generation. */
export class UnschedulableMarks {
  private readonly marked = new Set<SimPod>();
  private changes = 0;

  /** Changes whenever the marked pods, or what the autoscaler's list reads of them, may have changed. */
  get generation(): number {
    return this.changes;
  }

  /** The marked pods, in the order first marked. */
  pods(): ReadonlySet<SimPod> {
    return this.marked;
  }

  /** The scheduler found no node for the pod (a pod marked already keeps its place). */
  mark(pod: SimPod): void {
    if (!this.marked.has(pod)) {
      this.marked.add(pod);
      this.changes++;
    }
  }

  /** The pod was bound, replaced or is gone. */
  unmark(pod: SimPod): void {
    if (this.marked.delete(pod)) {
      this.changes++;
    }
  }

  /** The pod's deletion started or its containers finished: if marked, the list reads it anew. */
  touch(pod: SimPod): void {
    if (this.marked.has(pod)) {
      this.changes++;
    }
  }
}
