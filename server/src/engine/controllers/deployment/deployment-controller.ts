/**
 * The deployment controller: on every change of its ReplicaSets it syncs the Deployment as syncDeployment does —
 * a scaling event scales proportionally (deployment-scale.ts); otherwise RollingUpdate (rolling.go: scale the new
 * ReplicaSet up within maxSurge, then the old ones down within maxUnavailable, unhealthy replicas first) or
 * Recreate (recreate.go: old ReplicaSets to zero, wait until their pods are gone, then the new one at full size).
 * Progress (progress.go): the Progressing condition's lastUpdateTime moves whenever pods are updated, become
 * ready or available, or old ones go; past progressDeadlineSeconds without progress the rollout times out
 * (the controller re-checks one second after the deadline, as requeueStuckDeployment does).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/deployment/rolling.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/deployment/recreate.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/deployment/progress.go
 */
import { PRIORITY } from '../../sim/priorities';
import { seededUid } from '../../workloads/hash';
import { asObject, cloneJson } from '../../model/json';
import { POD_TEMPLATE_HASH_LABEL } from '../../workloads/replica-set';
import type { ControllerContext } from '../controller-context';
import { ReplicaSetScaler, scaleDeployment } from './deployment-scale';
import { syncRolloutStatus } from './deployment-progress';
import {
  deploymentMaxSurge,
  deploymentMaxUnavailable,
  newReplicaSetReplicas,
  planOldReplicaSetsScaleDown,
} from '../rollout-arithmetic';
import type { RolloutRecord } from '../rollout-log';
import { SyncQueue } from '../sync-queue';
import type { SimDeployment, SimReplicaSet } from '../../apiserver/workload-objects';
import { maxOf } from '../../../../../protocol/collections';

/** Syncs Deployments. */
export class DeploymentController {
  private readonly queue: SyncQueue;

  constructor(private readonly context: ControllerContext) {
    const { state } = context;
    this.queue = new SyncQueue(state.sim, PRIORITY.controller, (key) => this.sync(key));
    state.onReplicaSet((replicaSet) => {
      if (replicaSet.deploymentKey !== null) {
        this.queue.enqueue(replicaSet.deploymentKey);
      }
    });
    state.onPod((pod, change) => {
      if (change === 'gone' && pod.controllerRef?.kind === 'ReplicaSet') {
        const owner = state.replicaSets.get(`${pod.namespace}/${pod.controllerRef.name}`)?.deploymentKey;
        if (owner !== undefined && owner !== null) {
          this.queue.enqueue(owner);
        }
      }
    });
  }

  /** Syncs one Deployment now (at start, or after a scenario scaled it). */
  enqueue(key: string): void {
    this.queue.enqueue(key);
  }

  private sync(key: string): void {
    const deployment = this.context.state.deployments.get(key);
    if (deployment === undefined) {
      return;
    }
    const all = this.replicaSetsOf(deployment);
    const existingNew = all.find((rs) => rs.templateHash === deployment.templateHash) ?? null;
    const old = all.filter((rs) => rs !== existingNew);
    const scaler = new ReplicaSetScaler(this.context.state, deployment);
    if (deployment.paused || this.isScalingEvent(deployment, existingNew, old)) {
      scaleDeployment(deployment, existingNew, old, scaler);
      this.syncStatus(deployment, existingNew, old, scaler);
      return;
    }
    if (deployment.isTracked) {
      this.trackRollout(
        deployment,
        old.some((rs) => rs.replicas > 0),
      );
    }
    if (deployment.strategy.type === 'Recreate') {
      this.rolloutRecreate(deployment, existingNew, old, scaler);
    } else {
      this.rolloutRolling(deployment, existingNew, old, scaler);
    }
  }

  private rolloutRolling(
    deployment: SimDeployment,
    existingNew: SimReplicaSet | null,
    old: readonly SimReplicaSet[],
    scaler: ReplicaSetScaler,
  ): void {
    const newRS = existingNew ?? this.createNewReplicaSet(deployment, old, scaler);
    const allReplicas = newRS.replicas + old.reduce((total, rs) => total + rs.replicas, 0);
    if (newRS.replicas !== deployment.replicas) {
      const size =
        newRS.replicas > deployment.replicas
          ? deployment.replicas
          : newReplicaSetReplicas(deployment.strategy, deployment.replicas, allReplicas, newRS.replicas);
      if (scaler.scale(newRS, size)) {
        this.syncStatus(deployment, newRS, old, scaler);
        return;
      }
    }
    const activeOld = old.filter((rs) => rs.replicas > 0);
    // The plan is a pure function whose sizes only the active old sets read: with none (no rollout under way, the
    // usual sync), nothing is planned or scaled.
    if (activeOld.length > 0) {
      const plan = planOldReplicaSetsScaleDown(
        deployment.replicas,
        deploymentMaxUnavailable(deployment.strategy, deployment.replicas),
        { replicas: newRS.replicas, available: newRS.status.availableReplicas },
        activeOld.map((rs) => ({ replicas: rs.replicas, available: rs.status.availableReplicas })),
      );
      activeOld.forEach((rs, index) => {
        const size = plan.sizes[index] ?? rs.replicas;
        if (size !== rs.replicas) {
          scaler.scale(rs, size, 'down');
        }
      });
    }
    this.syncStatus(deployment, newRS, old, scaler);
  }

  private rolloutRecreate(
    deployment: SimDeployment,
    existingNew: SimReplicaSet | null,
    old: readonly SimReplicaSet[],
    scaler: ReplicaSetScaler,
  ): void {
    for (const rs of old.filter((candidate) => candidate.replicas > 0)) {
      scaler.scale(rs, 0, 'down');
    }
    if (scaler.messages.length > 0 || this.oldPodsRunning(old)) {
      this.syncStatus(deployment, existingNew, old, scaler);
      return;
    }
    const newRS = existingNew ?? this.createNewReplicaSet(deployment, old, scaler);
    if (newRS.replicas !== deployment.replicas) {
      scaler.scale(newRS, deployment.replicas, 'up');
    }
    this.syncStatus(deployment, newRS, old, scaler);
  }

  /** oldPodsRunning: old ReplicaSets still have pods, terminating ones included. */
  private oldPodsRunning(old: readonly SimReplicaSet[]): boolean {
    const { state } = this.context;
    return old.some(
      (rs) => rs.status.replicas > 0 || state.podsOf('ReplicaSet', rs.namespace, rs.name).length > 0,
    );
  }

  /** getNewReplicaSet with createIfNotExisted: "<deployment>-<hash>" at NewRSNewReplicas. */
  private createNewReplicaSet(
    deployment: SimDeployment,
    old: readonly SimReplicaSet[],
    scaler: ReplicaSetScaler,
  ): SimReplicaSet {
    const { state } = this.context;
    const name = `${deployment.name}-${deployment.templateHash}`;
    const template = cloneJson(deployment.template);
    const metadata = asObject(template['metadata']);
    metadata['labels'] = {
      ...asObject(metadata['labels']),
      [POD_TEMPLATE_HASH_LABEL]: deployment.templateHash,
    };
    template['metadata'] = metadata;
    const oldReplicas = old.reduce((total, rs) => total + rs.replicas, 0);
    const replicaSet: SimReplicaSet = {
      key: `${deployment.namespace}/${name}`,
      namespace: deployment.namespace,
      name,
      uid: seededUid(`ReplicaSet/${deployment.namespace}/${name}`),
      deploymentKey: deployment.key,
      template,
      templateHash: deployment.templateHash,
      source: { ...deployment.source, path: [...deployment.source.path, 'spec', 'template'] },
      createdSeq: state.nextSeq(),
      minReadySeconds: deployment.minReadySeconds,
      replicas: 0,
      desiredReplicas: null,
      maxReplicas: null,
      revision:
        maxOf(
          old.map((rs) => rs.revision),
          0,
        ) + 1,
      status: { replicas: 0, readyReplicas: 0, availableReplicas: 0 },
      podsCreated: 0,
    };
    state.addReplicaSet(replicaSet);
    deployment.progress = { reason: 'NewReplicaSetCreated', lastUpdate: state.sim.now };
    const size = newReplicaSetReplicas(deployment.strategy, deployment.replicas, oldReplicas, 0);
    scaler.scale(replicaSet, size, 'up');
    return replicaSet;
  }

  private isScalingEvent(
    deployment: SimDeployment,
    newRS: SimReplicaSet | null,
    old: readonly SimReplicaSet[],
  ): boolean {
    // The old sets, then the new one, without joining them in a new array (the sync runs on every pod change).
    const isScaled = (rs: SimReplicaSet): boolean =>
      rs.replicas > 0 && rs.desiredReplicas !== null && rs.desiredReplicas !== deployment.replicas;
    return old.some(isScaled) || (newRS !== null && isScaled(newRS));
  }

  private replicaSetsOf(deployment: SimDeployment): SimReplicaSet[] {
    return this.context.state.replicaSetsOf(deployment.key);
  }

  private trackRollout(deployment: SimDeployment, isUpdate: boolean): RolloutRecord {
    const { rollouts } = this.context;
    const existing = rollouts.get('Deployment', deployment.namespace, deployment.name);
    if (existing !== undefined) {
      return existing;
    }
    return rollouts.start({
      kind: 'Deployment',
      namespace: deployment.namespace,
      name: deployment.name,
      strategy: deployment.strategy.type,
      maxSurge: deploymentMaxSurge(deployment.strategy, deployment.replicas),
      maxUnavailable: deploymentMaxUnavailable(deployment.strategy, deployment.replicas),
      replicas: deployment.replicas,
      isUpdate,
    });
  }

  private syncStatus(
    deployment: SimDeployment,
    newRS: SimReplicaSet | null,
    old: readonly SimReplicaSet[],
    scaler: ReplicaSetScaler,
  ): void {
    syncRolloutStatus(
      this.context,
      (key, delay) => this.queue.enqueueAfter(key, delay),
      deployment,
      newRS,
      old,
      scaler,
    );
  }
}
