/**
 * The deployment controller's status side (progress.go syncRolloutStatus): DeploymentStatus from the ReplicaSets,
 * the Progressing condition (NewReplicaSetCreated, ReplicaSetUpdated on progress, NewReplicaSetAvailable once
 * complete, ProgressDeadlineExceeded past the deadline), the rollout's step for the report, and the re-check one
 * second after the deadline (requeueStuckDeployment).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/deployment/progress.go
 */
import type { ControllerContext } from '../controller-context';
import type { ReplicaSetScaler } from './deployment-scale';
import type { DeploymentStatus, SimDeployment, SimReplicaSet } from '../../apiserver/workload-objects';

/** The Progressing condition's messages (util.NewDeploymentCondition callers in progress.go). */
const DEPLOYMENT_MESSAGES = {
  progressed: (replicaSet: string): string => `ReplicaSet "${replicaSet}" has successfully progressed.`,
  timedOut: (replicaSet: string): string => `ReplicaSet "${replicaSet}" has timed out progressing.`,
};

/** syncRolloutStatus: status, the Progressing condition, the rollout's step, and the requeue for the deadline. */
export function syncRolloutStatus(
  context: ControllerContext,
  requeueAfter: (key: string, delay: number) => void,
  deployment: SimDeployment,
  newRS: SimReplicaSet | null,
  old: readonly SimReplicaSet[],
  scaler: ReplicaSetScaler,
): void {
  const { state, rollouts } = context;
  const now = state.sim.now;
  const status = calculateStatus(newRS, old);
  const previous = deployment.status;
  deployment.status = status;
  const record = rollouts.get('Deployment', deployment.namespace, deployment.name);
  // Only a tracked rollout's record reads the counts (most syncs have none): made for it alone.
  const counts =
    record === undefined
      ? null
      : {
          newReplicas: newRS?.replicas ?? 0,
          oldReplicas: old.reduce((total, rs) => total + rs.replicas, 0),
          available: status.availableReplicas,
          unavailable: status.unavailableReplicas,
        };
  if (counts !== null && record !== undefined && scaler.messages.length > 0) {
    rollouts.step(record, counts, scaler.messages.join('; '));
  }
  const isComplete =
    status.updatedReplicas === deployment.replicas &&
    status.replicas === deployment.replicas &&
    status.availableReplicas === deployment.replicas;
  const newName = newRS?.name ?? deployment.name;
  if (isComplete && record !== undefined && counts !== null) {
    rollouts.end(record, 'Complete', DEPLOYMENT_MESSAGES.progressed(newName), counts);
  }
  const deadline = deployment.progressDeadlineSeconds;
  const progress = deployment.progress;
  if (deadline === null || progress === null || progress.reason === 'ProgressDeadlineExceeded') {
    return;
  }
  if (progress.reason === 'NewReplicaSetAvailable' && status.replicas === status.updatedReplicas) {
    return;
  }
  if (isComplete) {
    deployment.progress = { reason: 'NewReplicaSetAvailable', lastUpdate: now };
    return;
  }
  if (isProgressing(previous, status)) {
    deployment.progress = { reason: 'ReplicaSetUpdated', lastUpdate: now };
  } else if (progress.lastUpdate + deadline < now) {
    deployment.progress = { reason: 'ProgressDeadlineExceeded', lastUpdate: now };
    const message = DEPLOYMENT_MESSAGES.timedOut(newName);
    if (record !== undefined && counts !== null) {
      rollouts.end(record, 'ProgressDeadlineExceeded', message, counts);
    }
    return;
  }
  const lastUpdate = deployment.progress?.lastUpdate ?? now;
  requeueAfter(deployment.key, Math.max(lastUpdate + deadline + 1, now + 1) - now);
}

/** calculateStatus: actual and updated pods from the ReplicaSets' status, unavailable from their spec. */
export function calculateStatus(
  newRS: SimReplicaSet | null,
  old: readonly SimReplicaSet[],
): DeploymentStatus {
  // Sums of integer counts over the old sets, then the new one: one loop, no joined array (every pod change
  // syncs the Deployment).
  let replicas = 0;
  let ready = 0;
  let available = 0;
  let specReplicas = 0;
  const add = (rs: SimReplicaSet): void => {
    replicas += rs.status.replicas;
    ready += rs.status.readyReplicas;
    available += rs.status.availableReplicas;
    specReplicas += rs.replicas;
  };
  old.forEach(add);
  if (newRS !== null) {
    add(newRS);
  }
  return {
    replicas,
    updatedReplicas: newRS?.status.replicas ?? 0,
    readyReplicas: ready,
    availableReplicas: available,
    unavailableReplicas: Math.max(0, specReplicas - available),
  };
}

/** DeploymentProgressing: more updated, fewer old, more ready or more available pods than before. */
function isProgressing(previous: DeploymentStatus, next: DeploymentStatus): boolean {
  const oldBefore = previous.replicas - previous.updatedReplicas;
  const oldAfter = next.replicas - next.updatedReplicas;
  return (
    next.updatedReplicas > previous.updatedReplicas ||
    oldAfter < oldBefore ||
    next.readyReplicas > previous.readyReplicas ||
    next.availableReplicas > previous.availableReplicas
  );
}
