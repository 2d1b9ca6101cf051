/**
 * Rollout arithmetic, in one place: maxSurge / maxUnavailable as each
 * controller resolves them, and the size of each wave of a Deployment's rolling update. Pure functions over plain
 * numbers, so the deployment controller and the tests share them.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/deployment/util/deployment_util.go
 *   (ResolveFenceposts, MaxSurge, MaxUnavailable, NewRSNewReplicas)
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/deployment/rolling.go
 *   (reconcileOldReplicaSets, cleanupUnhealthyReplicas, scaleDownOldReplicaSetsForRollingUpdate)
 * IntOrString values and their scaling are model/int-or-percent.ts (intstr's GetScaledValueFromIntOrPercent).
 */
import type { IntOrPercent } from '../model/int-or-percent';
import { intValue, percentValue, scaledValue } from '../model/int-or-percent';

/** The two fenceposts of a rolling update, resolved against the desired replicas. */
interface Fenceposts {
  readonly maxSurge: number;
  readonly maxUnavailable: number;
}

/**
 * ResolveFenceposts: surge rounds up, unavailable rounds down; when both come to zero, unavailable becomes 1 (a
 * percentage can round to 0 even though validation forbids two explicit zeros). An absent value counts as 0.
 */
export function resolveFenceposts(
  maxSurge: IntOrPercent | undefined,
  maxUnavailable: IntOrPercent | undefined,
  desired: number,
): Fenceposts {
  const surge = scaledValue(maxSurge ?? intValue(0), desired, true);
  let unavailable = scaledValue(maxUnavailable ?? intValue(0), desired, false);
  if (surge === 0 && unavailable === 0) {
    unavailable = 1;
  }
  return { maxSurge: surge, maxUnavailable: unavailable };
}

/** A Deployment's strategy as its controller reads it (API defaults applied). */
export interface DeploymentStrategy {
  readonly type: 'RollingUpdate' | 'Recreate';
  /** RollingUpdate only; the API default is 25% for both. */
  readonly maxSurge: IntOrPercent;
  readonly maxUnavailable: IntOrPercent;
}

/** The API server's default strategy: RollingUpdate, maxSurge 25%, maxUnavailable 25%. */
export const DEFAULT_DEPLOYMENT_STRATEGY: DeploymentStrategy = {
  type: 'RollingUpdate',
  maxSurge: percentValue(25),
  maxUnavailable: percentValue(25),
};

/** MaxSurge: 0 for Recreate, else the resolved surge. */
export function deploymentMaxSurge(strategy: DeploymentStrategy, replicas: number): number {
  if (strategy.type !== 'RollingUpdate') {
    return 0;
  }
  return resolveFenceposts(strategy.maxSurge, strategy.maxUnavailable, replicas).maxSurge;
}

/** MaxUnavailable: 0 for Recreate or 0 replicas, else the resolved value capped at the replicas. */
export function deploymentMaxUnavailable(strategy: DeploymentStrategy, replicas: number): number {
  if (strategy.type !== 'RollingUpdate' || replicas === 0) {
    return 0;
  }
  const { maxUnavailable } = resolveFenceposts(strategy.maxSurge, strategy.maxUnavailable, replicas);
  return Math.min(maxUnavailable, replicas);
}

/**
 * NewRSNewReplicas: how big the new ReplicaSet may grow now. Recreate: the full replicas. RollingUpdate: up to
 * replicas + maxSurge pods in all ReplicaSets together, never more than the replicas in the new one. Note that
 * upstream scales maxSurge here with GetValueFromIntOrPercent directly (no fencepost adjustment), as done here.
 */
export function newReplicaSetReplicas(
  strategy: DeploymentStrategy,
  replicas: number,
  allReplicaSetsReplicas: number,
  newReplicaSetSize: number,
): number {
  if (strategy.type === 'Recreate') {
    return replicas;
  }
  const maxSurge = scaledValue(strategy.maxSurge, replicas, true);
  const maxTotalPods = replicas + maxSurge;
  if (allReplicaSetsReplicas >= maxTotalPods) {
    return newReplicaSetSize;
  }
  const scaleUpCount = Math.min(maxTotalPods - allReplicaSetsReplicas, replicas - newReplicaSetSize);
  return newReplicaSetSize + scaleUpCount;
}

/** A ReplicaSet as the rolling-update arithmetic sees it. */
interface ReplicaSetCounts {
  /** spec.replicas. */
  readonly replicas: number;
  /** status.availableReplicas. */
  readonly available: number;
}

/** The outcome of reconcileOldReplicaSets: each old ReplicaSet's new size (same order), and how many went. */
interface OldScaleDown {
  readonly sizes: readonly number[];
  /** Pods removed by cleaning up unhealthy replicas first. */
  readonly cleanedUp: number;
  /** Pods removed by the availability-bounded scale-down after. */
  readonly scaledDown: number;
}

/**
 * reconcileOldReplicaSets for one sync. Old ReplicaSets come oldest first (ReplicaSetsByCreationTimestamp).
 *   maxScaledDown = allPods - (replicas - maxUnavailable) - (new RS replicas - new RS available)
 * first removes unavailable old replicas (cleanupUnhealthyReplicas), then, while more pods are available than
 * replicas - maxUnavailable, removes available ones (scaleDownOldReplicaSetsForRollingUpdate).
 */
export function planOldReplicaSetsScaleDown(
  replicas: number,
  maxUnavailable: number,
  newReplicaSet: ReplicaSetCounts,
  oldReplicaSets: readonly ReplicaSetCounts[],
): OldScaleDown {
  const sizes = oldReplicaSets.map((rs) => rs.replicas);
  const oldPods = sum(sizes);
  if (oldPods === 0) {
    return { sizes, cleanedUp: 0, scaledDown: 0 };
  }
  const allPods = oldPods + newReplicaSet.replicas;
  const minAvailable = replicas - maxUnavailable;
  const newUnavailable = newReplicaSet.replicas - newReplicaSet.available;
  const maxScaledDown = allPods - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) {
    return { sizes, cleanedUp: 0, scaledDown: 0 };
  }
  let cleanedUp = 0;
  oldReplicaSets.forEach((rs, index) => {
    const size = sizes[index] ?? 0;
    if (cleanedUp >= maxScaledDown || size === 0 || size === rs.available) {
      return;
    }
    const count = Math.min(maxScaledDown - cleanedUp, size - rs.available);
    sizes[index] = size - count;
    cleanedUp += count;
  });
  // scaleDownOldReplicaSetsForRollingUpdate reads availability from the ReplicaSets' status, which the cleanup
  // (a spec change) leaves as it was; the cleanup only removed unavailable replicas anyway.
  const available = newReplicaSet.available + sum(oldReplicaSets.map((rs) => rs.available));
  let scaledDown = 0;
  if (available > minAvailable) {
    const totalScaleDown = available - minAvailable;
    oldReplicaSets.forEach((_, index) => {
      const size = sizes[index] ?? 0;
      if (scaledDown >= totalScaleDown || size === 0) {
        return;
      }
      const count = Math.min(size, totalScaleDown - scaledDown);
      sizes[index] = size - count;
      scaledDown += count;
    });
  }
  return { sizes, cleanedUp, scaledDown };
}

/**
 * A DaemonSet's maxSurge and maxUnavailable over the nodes that should run its pod (updatedDesiredNodeCounts):
 * both round up; with neither (only possible after rounding) unavailable is 1. API defaults: maxUnavailable 1,
 * maxSurge 0. OnDelete updates nothing on its own.
 */
export function daemonSetFenceposts(
  maxSurge: IntOrPercent | undefined,
  maxUnavailable: IntOrPercent | undefined,
  desiredNumberScheduled: number,
): Fenceposts {
  const surge = scaledValue(maxSurge ?? intValue(0), desiredNumberScheduled, true);
  let unavailable = scaledValue(maxUnavailable ?? intValue(1), desiredNumberScheduled, true);
  if (desiredNumberScheduled > 0 && surge === 0 && unavailable === 0) {
    unavailable = 1;
  }
  return { maxSurge: surge, maxUnavailable: unavailable };
}

/**
 * A StatefulSet's maxUnavailable during a rolling update: 1 unless the MaxUnavailableStatefulSet feature gate is on
 * (beta and on by default from 1.35); then the value scaled against the replicas rounding down, at least 1.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/statefulset/stateful_set_control.go
 */
export function statefulSetMaxUnavailable(
  maxUnavailable: IntOrPercent | undefined,
  replicas: number,
  isGateEnabled: boolean,
): number {
  if (!isGateEnabled) {
    return 1;
  }
  const value = scaledValue(maxUnavailable ?? intValue(1), replicas, false);
  return value === 0 ? 1 : value;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
