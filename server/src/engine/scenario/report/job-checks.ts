/**
 * Findings about Jobs at the end of the timeline (`job-fails`): each Job of the apply or the cluster file that
 * failed, with its Failed condition's reason and message, on the field behind the reason; and per CronJob, the
 * Jobs it created that failed.
 */
import type { ClusterState } from '../../apiserver/cluster-state';
import type { SimJob } from '../../apiserver/job-objects';
import { jobCondition } from '../../apiserver/job-objects';
import type { Finding } from '../../../../../protocol/finding';
import { engineFinding } from '../../model/findings';

/** The JobSpec field behind each failure reason. */
const FIELD_OF_REASON: Readonly<Record<string, string>> = {
  BackoffLimitExceeded: 'backoffLimit',
  DeadlineExceeded: 'activeDeadlineSeconds',
  PodFailurePolicy: 'podFailurePolicy',
  MaxFailedIndexesExceeded: 'maxFailedIndexes',
  FailedIndexes: 'backoffLimitPerIndex',
};

/** One finding per failed Job, and one per CronJob whose Jobs failed. */
export function checkJobs(state: ClusterState, findings: Finding[]): void {
  const failedByCronJob = new Map<string, SimJob[]>();
  const createdByCronJob = new Map<string, number>();
  for (const job of state.jobs.values()) {
    const cronJobKey = job.cronJob === null ? null : `${job.namespace}/${job.cronJob}`;
    if (cronJobKey !== null) {
      createdByCronJob.set(cronJobKey, (createdByCronJob.get(cronJobKey) ?? 0) + 1);
    }
    if (jobCondition(job, 'Failed') === undefined) {
      continue;
    }
    if (cronJobKey === null) {
      findings.push(failureFinding(job, `Job "${job.name}" fails: ${describeFailure(job)}`));
    } else {
      failedByCronJob.set(cronJobKey, [...(failedByCronJob.get(cronJobKey) ?? []), job]);
    }
  }
  for (const [key, failed] of failedByCronJob) {
    const first = failed[0];
    const cronJob = state.cronJobs.get(key);
    if (first === undefined || cronJob === undefined) {
      continue;
    }
    const created = createdByCronJob.get(key) ?? failed.length;
    const message = `CronJob "${cronJob.name}": ${failed.length} of the ${created} Job${created === 1 ? '' : 's'} it created fail (${first.name}: ${describeFailure(first)})`;
    findings.push(failureFinding(first, message));
  }
}

function describeFailure(job: SimJob): string {
  const failed = jobCondition(job, 'Failed');
  const pods = `${job.status.failed} failed pod${job.status.failed === 1 ? '' : 's'}`;
  return `${failed?.reason ?? ''}: ${failed?.message ?? ''} (${pods}, at t=${failed?.time ?? 0}s)`;
}

function failureFinding(job: SimJob, message: string): Finding {
  const reason = jobCondition(job, 'Failed')?.reason ?? '';
  const field = FIELD_OF_REASON[reason];
  return engineFinding(
    'job-fails',
    job.source,
    field === undefined ? [] : [...job.specPath, field],
    message,
    { reason },
  );
}
