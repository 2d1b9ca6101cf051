/**
 * Pod display phases as small integers, so that the replayed cluster state fits in typed arrays. Index 0 means
 * the pod does not exist (yet) at the playhead.
 */
import type { PodDisplayPhase } from '../../protocol/timeline';

/** The display phases, in the order of their indices (1-based: index 0 is "absent"). */
const POD_PHASES: readonly PodDisplayPhase[] = [
  'Pending',
  'ContainerCreating',
  'CannotStart',
  'Running',
  'Ready',
  'Terminating',
  'Evicted',
  'Failed',
  'Succeeded',
  'Deleted',
];

/** The phase index of a pod that does not exist at the playhead. */
export const ABSENT = 0;

const INDEX = new Map<string, number>(POD_PHASES.map((phase, index) => [phase, index + 1]));

/** The index of a display phase; unknown strings (from a newer engine) read as Pending. */
export function phaseIndex(phase: string): number {
  return INDEX.get(phase) ?? 1;
}

/** The display phase of an index, or null for an absent pod. */
export function phaseName(index: number): PodDisplayPhase | null {
  return POD_PHASES[index - 1] ?? null;
}

/**
 * Whether a pod bound to a node counts against the node's allocatable: every phase until it is gone.
 * kube-scheduler drops terminated pods (Succeeded, Failed) from its cache, and evicted or deleted ones leave;
 * a Terminating pod still holds its requests, and so does one that cannot start (its node reserved them).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/eventhandlers.go
 */
export function holdsResources(index: number): boolean {
  return index >= 1 && index <= 6;
}

/** Whether a pod shows on its node's lane: it exists and has not been deleted. */
export function isShownOnLane(index: number): boolean {
  return index >= 1 && index <= 9;
}

/** The phase index of Pending. */
export const PENDING = 1;
