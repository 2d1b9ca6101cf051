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
    (spec?.schedulingGates ?? []).length === 0 &&
    (spec?.nodeName ?? '') === '' &&
    profiles.some((profile) => profile.schedulerName === schedulerName)
  );
}
