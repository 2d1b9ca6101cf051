/**
 * PodDisruptionBudget status, computed exactly as the disruption controller does (disruption.go):
 *   expectedPods   minAvailable as an integer: the number of selected pods; otherwise (a percentage, or
 *                  maxUnavailable) the sum of the scales of the pods' controllers (getExpectedScale)
 *   desiredHealthy minAvailable (an integer, or its percentage of expectedPods rounded up), or expectedPods minus
 *                  maxUnavailable (its percentage rounded up), never below 0
 *   currentHealthy selected pods that are Ready, not being deleted and not just evicted (DisruptedPods, for up to
 *                  two minutes)
 *   disruptionsAllowed  currentHealthy - desiredHealthy, 0 when negative or when expectedPods is 0
 * When a pod's controller has no scale (a DaemonSet or a Job under a percentage), the sync fails and the
 * controller fails safe: no disruption is allowed.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/disruption/disruption.go
 */
import type { ControllerRef } from '../../apiserver/sim-pod';
import type { IntOrPercent } from '../../model/int-or-percent';
import { scaledValue } from '../../model/int-or-percent';

/** DeletionTimeout: how long an evicted pod is kept out of currentHealthy while its deletion is awaited. */
export const DELETION_TIMEOUT_SECONDS = 120;

/** A PodDisruptionBudget's status. */
export interface BudgetStatus {
  readonly expectedPods: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  disruptionsAllowed: number;
  /** Pods evicted and not yet seen deleting: name → eviction time. */
  readonly disruptedPods: Map<string, number>;
  /** Why the last sync failed (the SyncFailed condition), or null. */
  readonly syncError: string | null;
  /** Selected pods without a controller (the UnmanagedPods warning event). */
  readonly unmanagedPods: readonly string[];
  /** How many pods the selector matched. */
  readonly matchedPods: number;
}

/** The parts of a budget's spec the computation reads. */
export interface BudgetSpec {
  readonly minAvailable: IntOrPercent | undefined;
  readonly maxUnavailable: IntOrPercent | undefined;
}

/** The parts of a selected pod the computation reads. */
export interface BudgetPod {
  readonly name: string;
  readonly isReady: boolean;
  readonly isDeleting: boolean;
  readonly controllerRef: ControllerRef | null;
}

/** A controller's scale, or why there is none. */
export type ScaleLookup =
  | { readonly kind: 'scale'; readonly controllerKey: string; readonly scale: number }
  | { readonly kind: 'error'; readonly message: string };

/** Finds the scale of a pod's controller (the controller finders: RC, Deployment, ReplicaSet, StatefulSet, scale). */
export type ScaleFinder = (controllerRef: ControllerRef) => ScaleLookup;

/** The empty status of a budget the controller has not synced. */
export function emptyBudgetStatus(): BudgetStatus {
  return {
    expectedPods: 0,
    currentHealthy: 0,
    desiredHealthy: 0,
    disruptionsAllowed: 0,
    disruptedPods: new Map(),
    syncError: null,
    unmanagedPods: [],
    matchedPods: 0,
  };
}

/** trySync: the budget's new status at `now`, from its selected pods and the previous DisruptedPods. */
export function computeBudgetStatus(
  spec: BudgetSpec,
  pods: readonly BudgetPod[],
  findScale: ScaleFinder,
  previousDisrupted: ReadonlyMap<string, number>,
  now: number,
): BudgetStatus {
  const expected = expectedPodCount(spec, pods, findScale);
  const disruptedPods = new Map<string, number>();
  for (const pod of pods) {
    const evictedAt = previousDisrupted.get(pod.name);
    if (!pod.isDeleting && evictedAt !== undefined && evictedAt + DELETION_TIMEOUT_SECONDS >= now) {
      disruptedPods.set(pod.name, evictedAt);
    }
  }
  if ('error' in expected) {
    return { ...emptyBudgetStatus(), disruptedPods, syncError: expected.error, matchedPods: pods.length };
  }
  let currentHealthy = 0;
  for (const pod of pods) {
    const evictedAt = disruptedPods.get(pod.name);
    const isExpectedGone = evictedAt !== undefined && evictedAt + DELETION_TIMEOUT_SECONDS > now;
    if (!pod.isDeleting && !isExpectedGone && pod.isReady) {
      currentHealthy++;
    }
  }
  let disruptionsAllowed = currentHealthy - expected.desiredHealthy;
  if (expected.expectedCount <= 0 || disruptionsAllowed <= 0) {
    disruptionsAllowed = 0;
  }
  return {
    expectedPods: expected.expectedCount,
    currentHealthy,
    desiredHealthy: expected.desiredHealthy,
    disruptionsAllowed,
    disruptedPods,
    syncError: null,
    unmanagedPods: expected.unmanagedPods,
    matchedPods: pods.length,
  };
}

type ExpectedCount =
  | { readonly expectedCount: number; readonly desiredHealthy: number; readonly unmanagedPods: string[] }
  | { readonly error: string };

/** getExpectedPodCount. */
function expectedPodCount(
  spec: BudgetSpec,
  pods: readonly BudgetPod[],
  findScale: ScaleFinder,
): ExpectedCount {
  if (spec.maxUnavailable !== undefined) {
    const scale = expectedScale(pods, findScale);
    if ('error' in scale) {
      return scale;
    }
    const maxUnavailable = scaledValue(spec.maxUnavailable, scale.expectedCount, true);
    return { ...scale, desiredHealthy: Math.max(0, scale.expectedCount - maxUnavailable) };
  }
  if (spec.minAvailable !== undefined) {
    if (spec.minAvailable.kind === 'int') {
      return { expectedCount: pods.length, desiredHealthy: spec.minAvailable.value, unmanagedPods: [] };
    }
    const scale = expectedScale(pods, findScale);
    if ('error' in scale) {
      return scale;
    }
    return { ...scale, desiredHealthy: scaledValue(spec.minAvailable, scale.expectedCount, true) };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

/** getExpectedScale: the sum of the scales of the selected pods' controllers, each counted once. */
function expectedScale(
  pods: readonly BudgetPod[],
  findScale: ScaleFinder,
): { readonly expectedCount: number; readonly unmanagedPods: string[] } | { readonly error: string } {
  const scales = new Map<string, number>();
  const unmanagedPods: string[] = [];
  for (const pod of pods) {
    if (pod.controllerRef === null) {
      unmanagedPods.push(pod.name);
      continue;
    }
    const lookup = findScale(pod.controllerRef);
    if (lookup.kind === 'error') {
      return { error: lookup.message };
    }
    scales.set(lookup.controllerKey, lookup.scale);
  }
  let expectedCount = 0;
  for (const scale of scales.values()) {
    expectedCount += scale;
  }
  return { expectedCount, unmanagedPods };
}

/** The message of the scale finder when a controller kind has no scale subresource (getScaleController). */
export function noScaleSubresourceMessage(kind: string): string {
  const resources: Readonly<Record<string, string>> = {
    DaemonSet: 'daemonsets.apps',
    Job: 'jobs.batch',
    CronJob: 'cronjobs.batch',
  };
  const resource = resources[kind] ?? `${kind.toLowerCase()}s`;
  return `${resource} does not implement the scale subresource`;
}

/** The finders' error for a pod whose controller cannot be found. */
export function noControllerMessage(podName: string): string {
  return `found no controllers for pod "${podName}"`;
}
