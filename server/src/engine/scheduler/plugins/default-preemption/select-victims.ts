/**
 * SelectVictimsOnNode (default_preemption.go), on a copy of the node and of the cycle state: remove every pod of
 * lower priority than the preemptor; if the preemptor still does not pass the filters, the node cannot help.
 * Otherwise give pods back, most important first, those that would violate a PodDisruptionBudget before the
 * others, keeping each one the preemptor still fits beside; the pods that could not be given back are the victims.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
 *
 * Importance is priority, then start time (util.MoreImportantPod: status.startTime of a captured pod, the bind
 * time of a simulated one); remaining ties keep the order the pods were placed on the node in.
 */
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import type { CycleState } from '../../framework/cycle-state';
import type { FrameworkHandle } from '../../framework/plugin';
import { isSuccess, unresolvable } from '../../framework/status';
import type { Reason, Status } from '../../framework/status';
import type { PodDisruptionBudgetInfo } from '../../../model/snapshot/cluster-objects';
import { splitByBudgetViolation } from './disruption-budgets';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
export const DEFAULT_PREEMPTION = PLUGIN_NAMES.DefaultPreemption;

/** No pod on the node has a lower priority than the preemptor. */
export const REASON_NO_VICTIMS: Reason = {
  code: 'DefaultPreemption/NoVictims',
  message: 'No preemption victims found for incoming pod',
};

/** What one node offers. */
type NodeVictims =
  | { readonly ok: true; readonly victims: readonly PodInfo[]; readonly pdbViolations: number }
  | { readonly ok: false; readonly status: Status };

/** Budgets with their allowed disruptions. */
export interface Budgets {
  readonly budgets: readonly PodDisruptionBudgetInfo[];
  readonly allowed: readonly number[];
}

/**
 * Finds the fewest, least important victims on `node` for `pod`. `node` and `state` are changed in place when the
 * node runs a pod of lower priority (the caller passes copies then); without one, neither is touched.
 */
export function selectVictimsOnNode(
  handle: FrameworkHandle,
  state: CycleState,
  pod: PodInfo,
  node: NodeInfo,
  budgets: Budgets,
): NodeVictims {
  const potential: PodInfo[] = [];
  for (const candidate of [...node.pods]) {
    if (candidate.priority < pod.priority) {
      potential.push(candidate);
      const removed = remove(handle, state, pod, node, candidate);
      if (!isSuccess(removed)) {
        return { ok: false, status: removed };
      }
    }
  }
  if (potential.length === 0) {
    return { ok: false, status: unresolvable(DEFAULT_PREEMPTION, REASON_NO_VICTIMS) };
  }
  const fitsWithout = handle.runFilterPlugins(state, pod, node);
  if (!isSuccess(fitsWithout)) {
    return { ok: false, status: fitsWithout };
  }
  const placed = new Map(potential.map((victim, index) => [victim, index]));
  sortByImportance(potential, placed);
  const { violating, nonViolating } = splitByBudgetViolation(potential, budgets.budgets, budgets.allowed);
  const victims: PodInfo[] = [];
  let pdbViolations = 0;
  const reprieve = (victim: PodInfo): boolean | Status => {
    node.addPod(victim);
    const added = handle.runPreFilterExtensionAddPod(state, pod, victim, node);
    if (!isSuccess(added)) {
      return added;
    }
    if (isSuccess(handle.runFilterPlugins(state, pod, node))) {
      return true;
    }
    const removed = remove(handle, state, pod, node, victim);
    if (!isSuccess(removed)) {
      return removed;
    }
    victims.push(victim);
    return false;
  };
  for (const victim of violating) {
    const fits = reprieve(victim);
    if (typeof fits !== 'boolean') {
      return { ok: false, status: fits };
    }
    if (!fits) {
      pdbViolations++;
    }
  }
  for (const victim of nonViolating) {
    const fits = reprieve(victim);
    if (typeof fits !== 'boolean') {
      return { ok: false, status: fits };
    }
  }
  if (violating.length > 0 && nonViolating.length > 0) {
    sortByImportance(victims, placed);
  }
  return { ok: true, victims, pdbViolations };
}

/**
 * MoreImportantPod: descending priority, then the earlier start time; pods without one (not started) after, then
 * the order they were placed in (`placed`: position).
 */
function sortByImportance(pods: PodInfo[], placed: ReadonlyMap<PodInfo, number>): void {
  pods.sort(
    (a, b) =>
      b.priority - a.priority ||
      (a.startTime ?? Number.POSITIVE_INFINITY) - (b.startTime ?? Number.POSITIVE_INFINITY) ||
      (placed.get(a) ?? 0) - (placed.get(b) ?? 0),
  );
}

function remove(
  handle: FrameworkHandle,
  state: CycleState,
  pod: PodInfo,
  node: NodeInfo,
  victim: PodInfo,
): Status {
  node.removePod(victim);
  return handle.runPreFilterExtensionRemovePod(state, pod, victim, node);
}
