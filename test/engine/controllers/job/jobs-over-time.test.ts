import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TimelineEvent } from '../../../../protocol/timeline';
import type { TimelineResult } from '../../../../server/src/engine/scenario/run-timeline';
import { buildTimelineReport } from '../../../../server/src/engine/scenario/report/timeline-report';
import { container, eventsOf, nodes, run, workload } from '../../../support/timeline-builders';

/** The defaults the expected times are built from: pull 10s, container start 1s, run 30s, sync batch 1s. */
const PULL = 10;
const START = 1;
const RUN = 30;
const BATCH = 1;

function podTemplate(podSpec: Record<string, unknown> = {}): Record<string, unknown> {
  return { spec: { restartPolicy: 'Never', containers: [container('batch:1.0')], ...podSpec } };
}

function job(name: string, spec: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: { template: podTemplate(podSpec), ...spec },
  };
}

function cronJob(name: string, spec: Record<string, unknown>, jobSpec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name, namespace: 'default' },
    spec: { jobTemplate: { spec: { template: podTemplate(), ...jobSpec } }, ...spec },
  };
}

/** "<time> <message>" of each event of these types about objects named with `prefix`. */
function timed(result: TimelineResult, type: TimelineEvent['type'], prefix = ''): string[] {
  return eventsOf(result, type, prefix).map((event) => `${event.time} ${event.object.name}`);
}

function timesOf(result: TimelineResult, type: TimelineEvent['type'], prefix = ''): number[] {
  return eventsOf(result, type, prefix).map((event) => event.time);
}

/** Times a Job's pods reached a phase. */
function phaseTimes(result: TimelineResult, phase: string, prefix: string): number[] {
  return eventsOf(result, 'PodPhaseChanged', prefix)
    .filter((event) => event.details?.phase === phase)
    .map((event) => event.time);
}

describe('the Job controller over time', () => {
  test('completions 5, parallelism 2: three waves, each started one sync after the last finished', () => {
    const result = run({ cluster: nodes(2), manifests: [job('batch', { completions: 5, parallelism: 2 })] });
    const firstDone = PULL + START + RUN;
    const wave = BATCH + START + RUN;
    const complete = firstDone + 2 * wave + BATCH;
    assert.deepEqual(timesOf(result, 'PodCreated', 'batch-'), [
      0,
      0,
      firstDone + BATCH,
      firstDone + BATCH,
      firstDone + wave + BATCH,
    ]);
    assert.deepEqual(timesOf(result, 'JobComplete', 'batch'), [complete]);
    const status = result.state.jobs.get('default/batch')?.status;
    assert.deepEqual(
      status?.conditions.map((condition) => `${condition.type} ${condition.reason} ${condition.time}`),
      [`SuccessCriteriaMet CompletionsReached ${complete}`, `Complete CompletionsReached ${complete}`],
    );
    assert.equal(status?.succeeded, 5);
    assert.equal(status?.completionTime, complete);
    const [reported] = buildTimelineReport(result).jobs;
    assert.equal(reported?.condition, 'Complete');
    assert.equal(reported?.finishedAt, complete);
    assert.equal(reported?.succeeded, 5);
  });

  test('a failing Job is replaced after 10s, 20s, 40s, then fails with BackoffLimitExceeded', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [job('migrate', { backoffLimit: 3 })],
      timing: { jobPodFailures: { 'default/migrate': { count: null, exitCode: 1 } } },
    });
    const failed = phaseTimes(result, 'Failed', 'migrate-');
    const created = timesOf(result, 'PodCreated', 'migrate-');
    assert.deepEqual(
      created.slice(1).map((time, index) => time - (failed[index] ?? 0)),
      [10, 20, 40],
      'each replacement waits the back-off after the failure before it',
    );
    assert.equal(failed.length, 4);
    const [event] = eventsOf(result, 'JobFailed', 'migrate');
    assert.equal(event?.time, (failed[3] ?? 0) + BATCH);
    assert.equal(event?.message, 'Job has reached the specified backoff limit');
    assert.equal(event?.details?.reason, 'BackoffLimitExceeded');
    assert.equal(result.state.jobs.get('default/migrate')?.status.failed, 4);
    const finding = result.findings.find((entry) => entry.code === 'job-fails');
    assert.deepEqual(finding?.path, ['spec', 'backoffLimit']);
    assert.match(
      finding?.message ?? '',
      /^Job "migrate" fails: BackoffLimitExceeded: .*\(4 failed pods, at t=/,
    );
  });

  test('pods that fail twice (jobPodFailures count 2) are replaced, then the third succeeds', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [job('flaky')],
      timing: { jobPodFailures: { 'default/flaky': { count: 2, exitCode: 3 } } },
    });
    const status = result.state.jobs.get('default/flaky')?.status;
    assert.equal(status?.failed, 2);
    assert.equal(status?.succeeded, 1);
    assert.equal(eventsOf(result, 'JobComplete', 'flaky').length, 1);
    assert.deepEqual(
      eventsOf(result, 'PodPhaseChanged', 'flaky-')
        .filter((event) => event.details?.phase === 'Failed')
        .map((event) => event.message),
      ['Container app terminated: Error (exit code 3)', 'Container app terminated: Error (exit code 3)'],
    );
    assert.equal(result.findings.filter((entry) => entry.code === 'job-fails').length, 0);
  });

  test('activeDeadlineSeconds: the running pod is deleted and the Job fails once it is gone', () => {
    const result = run({ cluster: nodes(1), manifests: [job('slow', { activeDeadlineSeconds: 20 })] });
    const deleted = timesOf(result, 'PodDeleted', 'slow-');
    assert.deepEqual(phaseTimes(result, 'Terminating', 'slow-'), [20]);
    const [event] = eventsOf(result, 'JobFailed', 'slow');
    assert.equal(event?.details?.reason, 'DeadlineExceeded');
    assert.equal(event?.message, 'Job was active longer than specified deadline');
    assert.equal(deleted[0], 20 + 1, 'the pod stops within appStopSeconds');
    assert.equal(
      event?.time,
      deleted[0],
      'Failed comes with the sync after the deletion, once the pod is gone',
    );
    const conditions = result.state.jobs.get('default/slow')?.status.conditions;
    assert.deepEqual(
      conditions?.map((condition) => `${condition.type}@${condition.time}`),
      ['FailureTarget@20', `Failed@${event?.time ?? 0}`],
    );
  });

  test('an Indexed Job names its pods "<job>-<index>-", sets hostname and the completion index', () => {
    const result = run({
      cluster: nodes(2),
      manifests: [job('idx', { completionMode: 'Indexed', completions: 3, parallelism: 3 })],
    });
    const pods = eventsOf(result, 'PodCreated', 'idx-').map((event) => event.object.name);
    assert.deepEqual(
      pods.map((name) => name.replace(/-[a-z0-9]{5}$/, '-')),
      ['idx-0-', 'idx-1-', 'idx-2-'],
    );
    const created = [...result.state.jobs.values()][0];
    assert.equal(created?.status.completedIndexes, '0-2');
    const first = [...result.events].find((event) => event.type === 'PodCreated')?.object.name ?? '';
    const annotated = result.state.pods.get(`default/${first}`)?.object;
    assert.equal(annotated?.metadata?.annotations?.['batch.kubernetes.io/job-completion-index'], '0');
    assert.equal(annotated?.metadata?.labels?.['batch.kubernetes.io/job-completion-index'], '0');
    assert.equal((annotated?.spec as { hostname?: string } | undefined)?.hostname, 'idx-0');
  });

  test('backoffLimitPerIndex 1: each index is retried once, then the Job fails with FailedIndexes', () => {
    const result = run({
      cluster: nodes(2),
      manifests: [
        job('perindex', {
          completionMode: 'Indexed',
          completions: 2,
          parallelism: 2,
          backoffLimitPerIndex: 1,
        }),
      ],
      timing: { jobPodFailures: { 'default/perindex': { count: null, exitCode: 1 } } },
    });
    assert.equal(eventsOf(result, 'PodCreated', 'perindex-0-').length, 2);
    assert.equal(eventsOf(result, 'PodCreated', 'perindex-1-').length, 2);
    const status = result.state.jobs.get('default/perindex')?.status;
    assert.equal(status?.failedIndexes, '0,1');
    assert.deepEqual(
      eventsOf(result, 'JobFailed', 'perindex').map((event) => event.message),
      ['Job has failed indexes'],
    );
  });

  test('a podFailurePolicy FailJob rule on the exit code fails the Job at the first such failure', () => {
    const rules = [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }];
    const result = run({
      cluster: nodes(1),
      manifests: [job('policy', { backoffLimit: 6, podFailurePolicy: { rules } })],
      timing: { jobPodFailures: { 'default/policy': { count: null, exitCode: 42 } } },
    });
    const [event] = eventsOf(result, 'JobFailed', 'policy');
    const pod = eventsOf(result, 'PodCreated', 'policy-')[0]?.object.name ?? '';
    assert.equal(event?.details?.reason, 'PodFailurePolicy');
    assert.equal(
      event?.message,
      `Container app for pod default/${pod} failed with exit code 42 matching FailJob rule at index 0`,
    );
    assert.equal(eventsOf(result, 'PodCreated', 'policy-').length, 1, 'no replacement');
  });

  test('restartPolicy OnFailure restarts the container in place; restarts count toward backoffLimit', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [job('retry', { backoffLimit: 2 }, { restartPolicy: 'OnFailure' })],
      timing: { jobPodFailures: { 'default/retry': { count: null, exitCode: 1 } } },
    });
    assert.equal(eventsOf(result, 'PodCreated', 'retry-').length, 1, 'one pod, restarted in place');
    const restarts = eventsOf(result, 'PodPhaseChanged', 'retry-').filter((event) =>
      event.message.startsWith('Restarting container'),
    );
    const firstExit = PULL + START + RUN;
    const secondExit = firstExit + 10 + START + RUN;
    assert.deepEqual(
      restarts.map((event) => event.time),
      [firstExit + 10, secondExit + 20],
      'the kubelet waits 10s, then 20s',
    );
    // The second restart reaches backoffLimit 2 at the next sync; the pod is deleted, Failed once it is gone.
    const appStop = 1;
    const [failed] = eventsOf(result, 'JobFailed', 'retry');
    assert.equal(failed?.details?.reason, 'BackoffLimitExceeded');
    assert.equal(failed?.time, secondExit + 20 + BATCH + appStop);
  });

  test('a suspended Job creates no pod and says so in its Suspended condition', () => {
    const result = run({ cluster: nodes(1), manifests: [job('paused', { suspend: true })] });
    assert.equal(eventsOf(result, 'PodCreated', 'paused-').length, 0);
    const conditions = result.state.jobs.get('default/paused')?.status.conditions;
    assert.deepEqual(
      conditions?.map((condition) => `${condition.type} ${condition.reason}`),
      ['Suspended JobSuspended'],
    );
    assert.equal(result.state.jobs.get('default/paused')?.status.startTime, null);
  });

  test('ttlSecondsAfterFinished deletes the Job and its pods that long after it completed', () => {
    const result = run({ cluster: nodes(1), manifests: [job('short', { ttlSecondsAfterFinished: 100 })] });
    const complete = eventsOf(result, 'JobComplete', 'short')[0]?.time ?? -1;
    assert.deepEqual(timesOf(result, 'JobDeleted', 'short'), [complete + 100]);
    assert.deepEqual(timesOf(result, 'PodDeleted', 'short-'), [complete + 100]);
    assert.equal(result.state.jobs.get('default/short')?.deletedAt, complete + 100);
  });

  test("a finished pod frees its node: a pod waiting for the room is placed when the Job's pod ends", () => {
    const requests = { resources: { requests: { cpu: '3', memory: '1Gi' } } };
    const result = run({
      cluster: nodes(1),
      manifests: [
        job('hog', {}, { containers: [container('batch:1.0', requests)] }),
        workload(
          'Deployment',
          'later',
          'web:1.0',
          { replicas: 0 },
          { containers: [container('web:1.0', requests)] },
        ),
      ],
      steps: [
        {
          at: 5,
          action: { type: 'scale', kind: 'Deployment', namespace: 'default', name: 'later', replicas: 1 },
        },
      ],
    });
    const jobPodEnd = phaseTimes(result, 'Succeeded', 'hog-')[0];
    assert.equal(jobPodEnd, PULL + START + RUN);
    assert.equal(eventsOf(result, 'PodUnschedulable', 'later-')[0]?.time, 5);
    assert.deepEqual(timesOf(result, 'PodScheduled', 'later-'), [jobPodEnd]);
  });
});

describe('the CronJob controller over time', () => {
  test('"*/5 * * * *" with --until 1200 creates 4 Jobs named after their minute since the epoch', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [cronJob('tick', { schedule: '*/5 * * * *' })],
      until: 1200,
    });
    assert.deepEqual(timed(result, 'CronJobScheduled', 'tick'), [
      '300 tick',
      '600 tick',
      '900 tick',
      '1200 tick',
    ]);
    assert.deepEqual(
      eventsOf(result, 'CronJobScheduled', 'tick').map((event) => event.message),
      [
        'Created job tick-29453765',
        'Created job tick-29453770',
        'Created job tick-29453775',
        'Created job tick-29453780',
      ],
    );
    assert.deepEqual(
      buildTimelineReport(result).jobs.map((entry) => `${entry.name} ${entry.cronJob ?? ''}`),
      ['tick-29453765 tick', 'tick-29453770 tick', 'tick-29453775 tick', 'tick-29453780 tick'],
    );
  });

  test('without an end time, only the Jobs due within cronJobHorizonSeconds are created and the run ends', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [cronJob('tick', { schedule: '*/5 * * * *' })],
      timing: { cronJobHorizonSeconds: 900 },
    });
    assert.deepEqual(timesOf(result, 'CronJobScheduled', 'tick'), [300, 600, 900]);
  });

  test('concurrencyPolicy Forbid skips a scheduled time while a Job runs, and runs the missed one when it ends', () => {
    const schedule = { schedule: '* * * * *' };
    const timing = { jobPodRunSeconds: 90 };
    const forbid = run({
      cluster: nodes(1),
      manifests: [cronJob('once', { ...schedule, concurrencyPolicy: 'Forbid' })],
      timing,
      until: 300,
    });
    // As upstream: without startingDeadlineSeconds the skipped time is still unmet when the Job finishes.
    assert.deepEqual(timesOf(forbid, 'CronJobScheduled', 'once'), [60, 162, 254]);
    assert.deepEqual(
      eventsOf(forbid, 'CronJobScheduled', 'once').map((event) => event.message),
      ['Created job once-29453761', 'Created job once-29453762', 'Created job once-29453764'],
    );
    assert.deepEqual(
      eventsOf(forbid, 'CronJobSkipped', 'once').map(
        (event) => `${event.time} ${event.details?.reason ?? ''}`,
      ),
      ['120 JobAlreadyActive', '180 JobAlreadyActive', '240 JobAlreadyActive', '300 JobAlreadyActive'],
    );
    assert.equal(
      eventsOf(forbid, 'CronJobSkipped', 'once')[0]?.message,
      'Not starting job because prior execution is running and concurrency policy is Forbid',
    );
    const deadline = run({
      cluster: nodes(1),
      manifests: [cronJob('late', { ...schedule, concurrencyPolicy: 'Forbid', startingDeadlineSeconds: 10 })],
      timing,
      until: 300,
    });
    assert.deepEqual(timesOf(deadline, 'CronJobScheduled', 'late'), [60, 180, 300]);
    const allow = run({ cluster: nodes(1), manifests: [cronJob('many', schedule)], timing, until: 300 });
    assert.deepEqual(timesOf(allow, 'CronJobScheduled', 'many'), [60, 120, 180, 240, 300]);
  });

  test('concurrencyPolicy Replace deletes the running Job before it creates the next one', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [cronJob('swap', { schedule: '* * * * *', concurrencyPolicy: 'Replace' })],
      timing: { jobPodRunSeconds: 90 },
      until: 180,
    });
    assert.deepEqual(timed(result, 'JobDeleted', 'swap'), ['120 swap-29453761', '180 swap-29453762']);
  });

  test('successfulJobsHistoryLimit 1 keeps only the last completed Job', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [cronJob('keep', { schedule: '*/5 * * * *', successfulJobsHistoryLimit: 1 })],
      until: 1000,
    });
    const live = [...result.state.jobs.values()].filter((entry) => entry.deletedAt === null);
    assert.deepEqual(
      live.map((entry) => entry.name),
      ['keep-29453775'],
    );
    assert.deepEqual(timed(result, 'JobDeleted', 'keep'), ['632 keep-29453765', '932 keep-29453770']);
  });

  test('startingDeadlineSeconds and suspend: a suspended CronJob creates nothing', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [cronJob('off', { schedule: '*/5 * * * *', suspend: true })],
      until: 1200,
    });
    assert.equal(eventsOf(result, 'CronJobScheduled', 'off').length, 0);
  });

  test('applyTime moves the schedule: applied at 00:04, "*/5" first fires a minute later', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [cronJob('tick', { schedule: '*/5 * * * *' })],
      timing: { applyTime: '2026-01-01T00:04:00Z' },
      until: 400,
    });
    assert.deepEqual(timesOf(result, 'CronJobScheduled', 'tick'), [60, 360]);
  });

  test('a time zone with daylight saving rules is not simulated: no Job, and an event says why', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [cronJob('rome', { schedule: '*/5 * * * *', timeZone: 'Europe/Rome' })],
      until: 600,
    });
    assert.equal(eventsOf(result, 'CronJobScheduled', 'rome').length, 0);
    assert.deepEqual(
      eventsOf(result, 'CronJobSkipped', 'rome').map((event) => event.details?.reason),
      ['UnsupportedTimeZone'],
    );
  });

  test("a CronJob's failing Jobs make one job-fails finding on the CronJob", () => {
    const result = run({
      cluster: nodes(1),
      manifests: [cronJob('nightly', { schedule: '*/5 * * * *' }, { backoffLimit: 0 })],
      timing: { jobPodFailures: { 'default/nightly': { count: null, exitCode: 2 } } },
      until: 600,
    });
    const findings = result.findings.filter((entry) => entry.code === 'job-fails');
    assert.equal(findings.length, 1);
    assert.deepEqual(findings[0]?.path, ['spec', 'jobTemplate', 'spec', 'backoffLimit']);
    assert.match(
      findings[0]?.message ?? '',
      /^CronJob "nightly": 1 of the 2 Jobs it created fail \(nightly-29453765: BackoffLimitExceeded/,
    );
  });
});
