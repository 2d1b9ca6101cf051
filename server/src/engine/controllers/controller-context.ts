/**
 * What every controller of the simulation shares: the simulated API server, the timing settings, the Kubernetes
 * version, the pod factory and the rollout log. Controllers talk through the API objects only.
 */
import type { KubernetesMinor } from '../version';
import type { ClusterState } from '../apiserver/cluster-state';
import type { PodFactory } from '../apiserver/pod-factory';
import type { RolloutLog } from './rollout-log';
import type { TimingSettings } from '../sim/timing-settings';
import type { VolumeController } from './volume/volume-controller';
import type { Finding } from '../../../../protocol/finding';

/** The shared context of the controllers. */
export interface ControllerContext {
  readonly state: ClusterState;
  readonly settings: TimingSettings;
  readonly version: KubernetesMinor;
  readonly pods: PodFactory;
  readonly rollouts: RolloutLog;
  readonly findings: Finding[];
  /** Claims and their binding (a StatefulSet creates its claims through it); absent in tests without storage. */
  readonly volumes?: VolumeController;
}
