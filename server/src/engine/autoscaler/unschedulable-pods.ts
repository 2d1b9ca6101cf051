/**
 * Which Pending pods the cluster autoscaler considers: those the scheduler tried and marked unschedulable
 * (PodScheduled False, reason Unschedulable; upstream lists them with the unschedulable-pods lister). A pod with
 * scheduling gates, one for a scheduler no profile serves, or one naming its node was never tried, and is left
 * alone, as upstream leaves it.
 */
import type { SimPod } from '../apiserver/sim-pod';
import { DEFAULT_SCHEDULER_NAME } from '../scheduler/profile';
import type { SchedulerProfile } from '../scheduler/profile';

/** Whether the scheduler tried the pod and found no node for it. */
export function isUnschedulable(pod: SimPod, profiles: readonly SchedulerProfile[]): boolean {
  const spec = pod.object.spec;
  const schedulerName = spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME;
  return (
    pod.nodeName === null &&
    !pod.isGone &&
    pod.deletionTime === null &&
    pod.terminal === null &&
    pod.lastUnschedulableMessage !== null &&
    (spec?.schedulingGates?.length ?? 0) === 0 &&
    (spec?.nodeName ?? '') === '' &&
    isServed(schedulerName, profiles)
  );
}

/** Whether a profile serves the scheduler name (a loop: a scan asks it of every unschedulable pod). */
function isServed(schedulerName: string, profiles: readonly SchedulerProfile[]): boolean {
  for (const profile of profiles) {
    if (profile.schedulerName === schedulerName) {
      return true;
    }
  }
  return false;
}

/**
 * The unschedulable pods in the order a scan tries them: highest priority first, then creation order. While they
 * are the very pods of the last list, the last list itself is returned (the same array), so a cluster whose
 * Pending pods wait while others start (one scan every --scan-interval for many minutes) neither sorts them again
 * nor names them again in the scan's input key (scan-inputs.ts keys the list by identity). Given the generation of
 * the pods' source (apiserver/unschedulable-marks.ts), a scan whose source has the last scan's generation does not
 * even read the pods.
 */
export class UnschedulablePods {
  private last: {
    readonly source: Iterable<SimPod>;
    readonly generation: number | undefined;
    readonly found: readonly SimPod[];
    readonly sorted: readonly SimPod[];
  } | null = null;

  constructor(private readonly profiles: readonly SchedulerProfile[]) {}

  /**
   * The unschedulable pods among `pods` (those the API server saw marked unschedulable, or all of its pods), in
   * the scan's order: priority and creation order decide it, whatever order `pods` come in. `generation`: the
   * source's (ClusterState.unschedulableGeneration), which changes whenever the answer may.
   */
  list(pods: Iterable<SimPod>, generation?: number): readonly SimPod[] {
    const last = this.last;
    if (last !== null && generation !== undefined && last.source === pods && last.generation === generation) {
      return last.sorted;
    }
    // Compared with the last list as they are found: while they match, nothing is copied (most scans of a
    // still cluster find the very pods of the last one, hundreds of them).
    const previous = last?.found ?? [];
    let found: SimPod[] | null = null;
    let count = 0;
    for (const pod of pods) {
      if (!isUnschedulable(pod, this.profiles)) {
        continue;
      }
      if (found === null && previous[count] !== pod) {
        found = previous.slice(0, count);
      }
      found?.push(pod);
      count++;
    }
    if (last !== null && found === null && count === previous.length) {
      this.last = { ...last, source: pods, generation };
      return last.sorted;
    }
    found ??= previous.slice(0, count);
    // Priority and creation order are fixed at creation, so the same pods sort the same way.
    const sorted = found
      .slice()
      .sort((a, b) => b.info.priority - a.info.priority || a.createdSeq - b.createdSeq);
    this.last = { source: pods, generation, found, sorted };
    return sorted;
  }
}
