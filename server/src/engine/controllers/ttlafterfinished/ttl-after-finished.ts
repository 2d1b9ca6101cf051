/**
 * The TTL-after-finished controller: a Job with ttlSecondsAfterFinished is deleted (with its pods, by the garbage
 * collector) that many seconds after its Complete or Failed condition.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/ttlafterfinished/ttlafterfinished_controller.go
 */
import { PRIORITY } from '../../sim/priorities';
import type { ClusterState } from '../../apiserver/cluster-state';
import type { SimJob } from '../../apiserver/job-objects';
import { deleteJob, finishedCondition } from '../../apiserver/job-objects';

/** Deletes finished Jobs once their TTL passed. */
export class TtlAfterFinishedController {
  /** Jobs whose deletion is planned, by uid. */
  private readonly planned = new Set<string>();

  constructor(private readonly state: ClusterState) {
    state.onJob((job, change) => {
      if (change === 'status') {
        this.plan(job);
      }
    });
  }

  /** Plans the deletion of Jobs that finished before the simulation (the cluster file's). */
  syncAll(): void {
    for (const job of this.state.jobs.values()) {
      this.plan(job);
    }
  }

  private plan(job: SimJob): void {
    const ttl = job.spec.ttlSecondsAfterFinished;
    const finished = finishedCondition(job);
    if (ttl === null || finished === undefined || job.deletedAt !== null || this.planned.has(job.uid)) {
      return;
    }
    this.planned.add(job.uid);
    this.state.sim.at(finished.time + ttl, PRIORITY.controller, () => {
      deleteJob(
        this.state,
        job,
        `Deleted job ${job.name}: ttlSecondsAfterFinished (${ttl}s) passed since it finished`,
      );
    });
  }
}
