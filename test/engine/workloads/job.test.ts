import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CRONJOB_PLACEHOLDER_TIME, expandWorkloads } from '../../../server/src/engine/workloads';
import { inputs, job, metadataOf, podTemplate, specOf } from './builders';

const SUFFIX = '[bcdfghjklmnpqrstvwxz2456789]{5}';

interface Case {
  readonly name: string;
  readonly object: Record<string, unknown>;
  readonly count: number;
  readonly namePattern?: RegExp;
  readonly findingCodes?: readonly string[];
}

const cronJob = (spec: Record<string, unknown> = {}, jobSpec: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'report' },
  spec: {
    schedule: '0 * * * *',
    jobTemplate: {
      spec: { template: podTemplate({ app: 'report' }, { restartPolicy: 'OnFailure' }), ...jobSpec },
    },
    ...spec,
  },
});

const CASES: readonly Case[] = [
  {
    name: 'a Job with no counts starts one pod named <job>-<suffix>',
    object: job('pi'),
    count: 1,
    namePattern: new RegExp(`^pi-${SUFFIX}$`),
  },
  {
    name: 'a Job starts parallelism pods when completions is unset',
    object: job('pi', { parallelism: 3 }),
    count: 3,
  },
  {
    name: 'a Job starts min(parallelism, completions) pods',
    object: job('pi', { parallelism: 5, completions: 2 }),
    count: 2,
  },
  {
    name: 'a Job with completions and default parallelism starts one pod',
    object: job('pi', { completions: 4 }),
    count: 1,
  },
  { name: 'a Job with parallelism 0 starts no pod', object: job('pi', { parallelism: 0 }), count: 0 },
  {
    name: 'a suspended Job starts no pod',
    object: job('pi', { suspend: true, parallelism: 2 }),
    count: 0,
    findingCodes: [],
  },
  {
    name: 'an Indexed Job names its pods <job>-<index>-<suffix>',
    object: job('work', { completionMode: 'Indexed', completions: 3, parallelism: 3 }),
    count: 3,
    namePattern: new RegExp(`^work-[0-2]-${SUFFIX}$`),
  },
  {
    name: 'an Indexed Job without completions is rejected',
    object: job('work', { completionMode: 'Indexed', parallelism: 2 }),
    count: 0,
    findingCodes: ['job-indexed-without-completions'],
  },
  {
    name: 'a Job with negative parallelism is rejected',
    object: job('pi', { parallelism: -1 }),
    count: 0,
    findingCodes: ['workload-negative-count'],
  },
  {
    name: 'a Job that sets a selector without manualSelector is rejected',
    object: job('pi', { selector: { matchLabels: { app: 'pi' } } }),
    count: 0,
    findingCodes: ['job-selector-not-auto-generated'],
  },
  {
    name: 'a Job with manualSelector and a matching selector is accepted',
    object: job('pi', { manualSelector: true, selector: { matchLabels: { app: 'pi' } } }),
    count: 1,
    findingCodes: [],
  },
  {
    name: 'a Job with manualSelector and a mismatching selector is rejected',
    object: job('pi', { manualSelector: true, selector: { matchLabels: { app: 'other' } } }),
    count: 0,
    findingCodes: ['workload-selector-mismatch'],
  },
  {
    name: 'a Job whose pods would restart in place (restartPolicy unset) is rejected',
    object: { ...job('pi'), spec: { template: podTemplate({ app: 'pi' }) } },
    count: 0,
    findingCodes: ['job-invalid-restart-policy'],
  },
  {
    name: 'a Job without a template is rejected',
    object: { ...job('pi'), spec: {} },
    count: 0,
    findingCodes: ['workload-missing-template'],
  },
  {
    name: 'a CronJob creates the pods of one Job named after the placeholder schedule time',
    object: cronJob({}, { parallelism: 2 }),
    count: 2,
    namePattern: new RegExp(`^report-28928160-${SUFFIX}$`),
  },
  { name: 'a suspended CronJob creates no pod', object: cronJob({ suspend: true }), count: 0 },
  {
    name: 'a CronJob whose job template restarts in place is rejected, with the path inside jobTemplate',
    object: cronJob({}, { template: podTemplate({ app: 'report' }, { restartPolicy: 'Always' }) }),
    count: 0,
    findingCodes: ['job-invalid-restart-policy'],
  },
  {
    name: 'a CronJob without a job template is rejected',
    object: { ...cronJob(), spec: { schedule: '* * * * *' } },
    count: 0,
    findingCodes: ['workload-missing-template'],
  },
];

void describe('Jobs and CronJobs', () => {
  for (const testCase of CASES) {
    void test(testCase.name, () => {
      const result = expandWorkloads(inputs(testCase.object));
      assert.equal(result.pods.length, testCase.count);
      if (testCase.namePattern !== undefined) {
        for (const expanded of result.pods) {
          assert.match(metadataOf(expanded.pod).name, testCase.namePattern);
        }
      }
      if (testCase.findingCodes !== undefined) {
        assert.deepEqual(
          result.findings.map((f) => f.code),
          testCase.findingCodes,
        );
      }
    });
  }

  void test('Job pods carry the generated job labels, the tracking finalizer and the Job as owner', () => {
    const [pod] = expandWorkloads(inputs(job('pi'))).pods;
    const metadata = metadataOf(pod!.pod);
    const uid = metadata.ownerReferences[0]?.uid ?? '';
    assert.deepEqual(metadata.labels, {
      app: 'pi',
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': 'pi',
      'controller-uid': uid,
      'job-name': 'pi',
    });
    assert.deepEqual(metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
    assert.equal(metadata.ownerReferences[0]?.kind, 'Job');
    assert.equal(metadata.generateName, 'pi-');
    assert.deepEqual(pod?.owner, { kind: 'Job', name: 'pi', namespace: 'default' });
  });

  void test('a Job with manualSelector gets no generated labels', () => {
    const [pod] = expandWorkloads(
      inputs(job('pi', { manualSelector: true, selector: { matchLabels: { app: 'pi' } } })),
    ).pods;
    assert.deepEqual(metadataOf(pod!.pod).labels, { app: 'pi' });
  });

  void test('an exported Job keeps its own uid in the controller-uid labels', () => {
    const object = { ...job('pi'), metadata: { name: 'pi', uid: '0f3c0a4e-1111-4222-8333-444455556666' } };
    const [pod] = expandWorkloads(inputs(object)).pods;
    assert.equal(metadataOf(pod!.pod).labels['controller-uid'], '0f3c0a4e-1111-4222-8333-444455556666');
  });

  void test('Indexed Job pods carry the completion index as annotation, label, hostname and environment', () => {
    const { pods } = expandWorkloads(
      inputs(job('work', { completionMode: 'Indexed', completions: 4, parallelism: 2 })),
    );
    assert.equal(pods.length, 2);
    const second = pods[1]!;
    const metadata = metadataOf(second.pod);
    assert.equal(metadata.annotations?.['batch.kubernetes.io/job-completion-index'], '1');
    assert.equal(metadata.labels['batch.kubernetes.io/job-completion-index'], '1');
    assert.equal(metadata.generateName, 'work-1-');
    assert.equal(specOf(second.pod)['hostname'], 'work-1');
    const containers = specOf(second.pod)['containers'] as { env: unknown[] }[];
    assert.deepEqual(containers[0]?.env, [
      {
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: {
          fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" },
        },
      },
    ]);
    assert.equal(second.replicaIndex, 1);
  });

  void test('a long Indexed Job name is cut so that the generated prefix stays within 58 characters', () => {
    const name = 'a'.repeat(60);
    const [pod] = expandWorkloads(inputs(job(name, { completionMode: 'Indexed', completions: 1 }))).pods;
    const metadata = metadataOf(pod!.pod);
    assert.equal(metadata.generateName, `${'a'.repeat(55)}-0-`);
    assert.equal(metadata.name.length, 63);
  });

  void test('CronJob pods are owned by the generated Job but attributed to the CronJob, from its job template', () => {
    const [pod] = expandWorkloads(inputs(cronJob())).pods;
    const metadata = metadataOf(pod!.pod);
    assert.equal(metadata.ownerReferences[0]?.kind, 'Job');
    assert.equal(metadata.ownerReferences[0]?.name, 'report-28928160');
    assert.equal(metadata.labels['job-name'], 'report-28928160');
    assert.deepEqual(pod?.owner, { kind: 'CronJob', name: 'report', namespace: 'default' });
    assert.deepEqual(pod?.source.path, ['spec', 'jobTemplate', 'spec', 'template']);
  });

  void test('the CronJob placeholder time is the start of 2025 in UTC, matching the Job name suffix', () => {
    assert.equal(CRONJOB_PLACEHOLDER_TIME, '2025-01-01T00:00:00Z');
    assert.equal(Date.parse(CRONJOB_PLACEHOLDER_TIME) / 60_000, 28928160);
  });

  void test('a restart policy finding quotes the API server with the field path inside the job template', () => {
    const result = expandWorkloads(
      inputs(cronJob({}, { template: podTemplate({ app: 'report' }, { restartPolicy: 'Always' }) })),
    );
    assert.equal(
      result.findings[0]?.message,
      'CronJob "report": a Job\'s pods must not restart in place, so the API server rejects it: ' +
        'spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
    );
    assert.deepEqual(result.findings[0]?.path, [
      'spec',
      'jobTemplate',
      'spec',
      'template',
      'spec',
      'restartPolicy',
    ]);
  });
});
