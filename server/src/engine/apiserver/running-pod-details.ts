/**
 * The details of the PodCreated events of the pods running before the simulation (ClusterState.addRunningPod):
 * the owner, the requests and the phase. A capture's 150,000 pods belong to a few thousand workloads whose pods
 * request alike, so one details object serves every event with the same values, as ClusterState already shares
 * the details of a phase change. Timeline events are written once and never changed.
 */
import type { TimelineEventDetails } from '../../../../protocol/timeline';
import type { WorkloadRef } from './sim-pod';

/** Details of initial PodCreated events, shared by the events with equal values (per ClusterState). */
export class RunningPodDetails {
  /** By owner (the same object for a workload's pods), then by "cpu/memory/phase". */
  private readonly byOwner = new Map<WorkloadRef | null, Map<string, TimelineEventDetails>>();

  /** The details of an initial pod's PodCreated event. */
  of(
    owner: WorkloadRef | null,
    requests: { readonly milliCpu: number; readonly memory: number },
    phase: 'Ready' | 'Running',
  ): TimelineEventDetails {
    let byValues = this.byOwner.get(owner);
    if (byValues === undefined) {
      byValues = new Map();
      this.byOwner.set(owner, byValues);
    }
    const key = `${requests.milliCpu}/${requests.memory}/${phase}`;
    let details = byValues.get(key);
    if (details === undefined) {
      details = {
        owner,
        requests: { cpuMilli: requests.milliCpu, memoryBytes: requests.memory },
        phase,
      };
      byValues.set(key, details);
    }
    return details;
  }
}
