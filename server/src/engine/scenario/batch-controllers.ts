/**
 * The batch controllers of the timeline: the Job controller, the CronJob controller (scheduling against the apply
 * time, up to the end time or cronJobHorizonSeconds) and the TTL-after-finished controller, started on the Jobs and
 * CronJobs of the apply and the cluster file; the cluster file's Job pods that already run go on to their end.
 */
import type { ControllerContext } from '../controllers/controller-context';
import { CronJobController } from '../controllers/cronjob/cron-job-controller';
import { JobController } from '../controllers/job/job-controller';
import type { Kubelets } from '../kubelet/kubelet';
import { applyEpochSeconds } from '../sim/timing-settings';
import { TtlAfterFinishedController } from '../controllers/ttlafterfinished/ttl-after-finished';

/** Starts the batch controllers; `until` is the simulation's end time, if it has one. */
export function startBatchControllers(
  context: ControllerContext,
  kubelets: Kubelets,
  until: number | null,
): void {
  const horizon = until ?? context.settings.cronJobHorizonSeconds;
  const jobs = new JobController(context);
  const cronJobs = new CronJobController(context, applyEpochSeconds(context.settings), horizon);
  const ttl = new TtlAfterFinishedController(context.state);
  kubelets.resumeJobPods();
  jobs.syncAll();
  cronJobs.syncAll();
  ttl.syncAll();
}
