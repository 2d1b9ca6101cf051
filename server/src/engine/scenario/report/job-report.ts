/**
 * The report's `jobs`: what each Job of the apply, the cluster file and the CronJobs did over the timeline (its
 * counts, its Complete or Failed condition, its times), and the same as text for a person.
 */
import type { ClusterState } from '../../apiserver/cluster-state';
import { finishedCondition } from '../../apiserver/job-objects';

/** A Job at the end of the timeline. */
export interface ReportJob {
  readonly namespace: string;
  readonly name: string;
  /** The CronJob that created it, or null. */
  readonly cronJob: string | null;
  readonly completionMode: 'NonIndexed' | 'Indexed';
  readonly completions: number | null;
  readonly parallelism: number;
  readonly active: number;
  readonly succeeded: number;
  readonly failed: number;
  /** status.completedIndexes of an Indexed Job, else null. */
  readonly completedIndexes: string | null;
  /** Its Complete or Failed condition, with reason and message; null while it runs (or never started). */
  readonly condition: 'Complete' | 'Failed' | null;
  readonly reason: string | null;
  readonly message: string | null;
  /** Simulated seconds: created (0 for the apply's and the cluster's), started, finished, deleted. */
  readonly createdAt: number;
  readonly startTime: number | null;
  readonly finishedAt: number | null;
  readonly deletedAt: number | null;
}

/** Every Job, in creation order. */
export function reportJobs(state: ClusterState): ReportJob[] {
  return [...state.jobs.values()].map((job): ReportJob => {
    const finished = finishedCondition(job);
    return {
      namespace: job.namespace,
      name: job.name,
      cronJob: job.cronJob,
      completionMode: job.spec.completionMode,
      completions: job.spec.completions,
      parallelism: job.spec.parallelism,
      active: job.status.active,
      succeeded: job.status.succeeded,
      failed: job.status.failed,
      completedIndexes: job.spec.completionMode === 'Indexed' ? job.status.completedIndexes : null,
      condition: finished?.type === 'Complete' || finished?.type === 'Failed' ? finished.type : null,
      reason: finished?.reason ?? null,
      message: finished?.message ?? null,
      createdAt: job.createdAt,
      startTime: job.status.startTime,
      finishedAt: finished?.time ?? null,
      deletedAt: job.deletedAt,
    };
  });
}

/** How many Jobs are listed by name before a count. */
const MAX_LISTED = 20;

/** The Jobs as text lines (empty without Jobs). */
export function formatJobs(jobs: readonly ReportJob[]): string[] {
  if (jobs.length === 0) {
    return [];
  }
  const lines = ['', 'Jobs'];
  for (const job of jobs.slice(0, MAX_LISTED)) {
    const origin = job.cronJob === null ? '' : ` (CronJob ${job.cronJob})`;
    const wanted = job.completions === null ? '' : `/${job.completions}`;
    const counts = `${job.succeeded}${wanted} succeeded, ${job.failed} failed, ${job.active} active`;
    const state =
      job.condition === null
        ? job.startTime === null
          ? 'not started'
          : `running since ${job.startTime}s`
        : `${job.condition} at ${job.finishedAt ?? 0}s${job.condition === 'Failed' ? ` (${job.reason ?? ''}: ${job.message ?? ''})` : ''}`;
    const deleted = job.deletedAt === null ? '' : `; deleted at ${job.deletedAt}s`;
    lines.push(`  ${job.namespace}/${job.name}${origin}: ${state}; ${counts}${deleted}`);
  }
  if (jobs.length > MAX_LISTED) {
    lines.push(`  and ${jobs.length - MAX_LISTED} more Jobs`);
  }
  return lines;
}
