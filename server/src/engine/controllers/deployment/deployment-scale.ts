/**
 * The deployment controller's scaling helpers: scaleReplicaSet (stamping the desired/max replicas annotations) and
 * the proportional scaling of a Deployment whose replicas change in the middle of a rollout (sync.go's scale).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/deployment/sync.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/deployment/util/deployment_util.go
 */
import type { ClusterState } from '../../apiserver/cluster-state';
import { deploymentMaxSurge } from '../rollout-arithmetic';
import type { SimDeployment, SimReplicaSet } from '../../apiserver/workload-objects';
import { EVENT_COMPONENT } from '../../model/kubernetes-events';

/** The ScalingReplicaSet event message of the deployment controller. */
export function scalingMessage(
  replicaSet: string,
  from: number,
  to: number,
  operation?: 'up' | 'down',
): string {
  const direction = operation ?? (to > from ? 'up' : 'down');
  return `Scaled ${direction} replica set ${replicaSet} from ${from} to ${to}`;
}

/** Scales ReplicaSets for one sync, collecting the event messages of what it changed. */
export class ReplicaSetScaler {
  /** Messages of this sync's scaling, in order. */
  readonly messages: string[] = [];

  constructor(
    private readonly state: ClusterState,
    private readonly deployment: SimDeployment,
  ) {}

  /** scaleReplicaSet: sets spec.replicas and the annotations; returns whether the size changed. */
  scale(replicaSet: SimReplicaSet, size: number, operation?: 'up' | 'down'): boolean {
    const deployment = this.deployment;
    const maxReplicas = deployment.replicas + deploymentMaxSurge(deployment.strategy, deployment.replicas);
    const sizeChanged = replicaSet.replicas !== size;
    const annotationsChanged =
      replicaSet.desiredReplicas !== deployment.replicas || replicaSet.maxReplicas !== maxReplicas;
    if (!sizeChanged && !annotationsChanged) {
      return false;
    }
    const from = replicaSet.replicas;
    replicaSet.replicas = size;
    replicaSet.desiredReplicas = deployment.replicas;
    replicaSet.maxReplicas = maxReplicas;
    if (sizeChanged) {
      const message = scalingMessage(replicaSet.name, from, size, operation);
      this.messages.push(message);
      // scaleReplicaSet's ScalingReplicaSet event, on the Deployment, for every scaling (the rollout's or not).
      const involvedObject = { kind: 'Deployment', namespace: deployment.namespace, name: deployment.name };
      this.state.recordEvent(
        { reason: 'ScalingReplicaSet', component: EVENT_COMPONENT.deployment, involvedObject },
        message,
        null,
      );
      this.state.replicaSetChanged(replicaSet, 'spec');
    }
    return sizeChanged;
  }
}

/** FindActiveOrLatest: the only ReplicaSet with replicas, the newest when none has any, null when several have. */
export function findActiveOrLatest(
  newReplicaSet: SimReplicaSet | null,
  oldReplicaSets: readonly SimReplicaSet[],
): SimReplicaSet | null {
  const newestFirst = [...oldReplicaSets].sort((a, b) => b.createdSeq - a.createdSeq);
  const active = [...newestFirst, ...(newReplicaSet === null ? [] : [newReplicaSet])].filter(
    (rs) => rs.replicas > 0,
  );
  if (active.length === 0) {
    return newReplicaSet ?? newestFirst[0] ?? null;
  }
  return active.length === 1 ? (active[0] ?? null) : null;
}

/** IsSaturated: the new ReplicaSet has all the replicas, believes so (annotation), and all are available. */
function isSaturated(deployment: SimDeployment, replicaSet: SimReplicaSet | null): boolean {
  return (
    replicaSet !== null &&
    replicaSet.replicas === deployment.replicas &&
    replicaSet.desiredReplicas === deployment.replicas &&
    replicaSet.status.availableReplicas === deployment.replicas
  );
}

/**
 * sync.go scale(): a scaling event. One active ReplicaSet takes the new size; a saturated new one sends the old
 * ones to zero; during a rolling update the difference is spread over the active ReplicaSets in proportion to
 * their size (GetProportion, leftovers to the largest).
 */
export function scaleDeployment(
  deployment: SimDeployment,
  newReplicaSet: SimReplicaSet | null,
  oldReplicaSets: readonly SimReplicaSet[],
  scaler: ReplicaSetScaler,
): void {
  const activeOrLatest = findActiveOrLatest(newReplicaSet, oldReplicaSets);
  if (activeOrLatest !== null) {
    if (activeOrLatest.replicas !== deployment.replicas) {
      scaler.scale(activeOrLatest, deployment.replicas);
    }
    return;
  }
  if (isSaturated(deployment, newReplicaSet)) {
    for (const old of oldReplicaSets.filter((rs) => rs.replicas > 0)) {
      scaler.scale(old, 0);
    }
    return;
  }
  if (deployment.strategy.type !== 'RollingUpdate') {
    return;
  }
  const all = [...oldReplicaSets, ...(newReplicaSet === null ? [] : [newReplicaSet])].filter(
    (rs) => rs.replicas > 0,
  );
  const current = all.reduce((total, rs) => total + rs.replicas, 0);
  const allowed =
    deployment.replicas > 0
      ? deployment.replicas + deploymentMaxSurge(deployment.strategy, deployment.replicas)
      : 0;
  const toAdd = allowed - current;
  if (toAdd > 0) {
    all.sort((a, b) => b.replicas - a.replicas || b.createdSeq - a.createdSeq);
  } else if (toAdd < 0) {
    all.sort((a, b) => b.replicas - a.replicas || a.createdSeq - b.createdSeq);
  }
  const sizes = new Map<SimReplicaSet, number>();
  let added = 0;
  for (const rs of all) {
    if (toAdd !== 0) {
      const proportion = getProportion(rs, deployment, toAdd, added);
      sizes.set(rs, rs.replicas + proportion);
      added += proportion;
    } else {
      sizes.set(rs, rs.replicas);
    }
  }
  const operation = toAdd > 0 ? 'up' : 'down';
  all.forEach((rs, index) => {
    let size = sizes.get(rs) ?? rs.replicas;
    if (index === 0 && toAdd !== 0) {
      size = Math.max(0, size + (toAdd - added));
    }
    scaler.scale(rs, size, operation);
  });
}

/** GetProportion: this ReplicaSet's share of the replicas to add (or remove), bounded by what is left. */
function getProportion(
  replicaSet: SimReplicaSet,
  deployment: SimDeployment,
  toAdd: number,
  added: number,
): number {
  if (replicaSet.replicas === 0 || toAdd === 0 || toAdd === added) {
    return 0;
  }
  const fraction = replicaSetFraction(replicaSet, deployment);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

function replicaSetFraction(replicaSet: SimReplicaSet, deployment: SimDeployment): number {
  if (deployment.replicas === 0) {
    return -replicaSet.replicas;
  }
  const deploymentReplicas =
    deployment.replicas + deploymentMaxSurge(deployment.strategy, deployment.replicas);
  const annotated = replicaSet.maxReplicas ?? deployment.status.replicas;
  if (annotated === 0) {
    return 0;
  }
  return Math.round((replicaSet.replicas * deploymentReplicas) / annotated) - replicaSet.replicas;
}
