import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readLimitRange } from '../../../server/src/engine/admission/plugins/limit-ranger';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import { simulate } from '../../../server/src/engine/simulate/simulate';

// LimitRanger: defaults first (they change the QoS class and what fits), then min / max / maxLimitRequestRatio in
// the plugin's own words. Rows follow plugin/pkg/admission/limitranger/admission_test.go where named.

const limitRange = (limits: Record<string, unknown>[], namespace = 'default') => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'limits', namespace },
  spec: { limits },
});

const deployment = (resources: Record<string, unknown> | undefined) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [{ name: 'web', image: 'nginx', ...(resources === undefined ? {} : { resources }) }],
      },
    },
  },
});

function run(manifests: Record<string, unknown>[]) {
  const result = simulate({
    manifests: manifests.map((object, documentIndex): SourcedObject => ({
      object,
      source: { file: 'm.yaml', documentIndex, path: [] },
    })),
    cluster: null,
  });
  return result.report;
}

describe('a LimitRange as the API server stores it (SetDefaults_LimitRangeItem)', () => {
  const cases: { name: string; item: Record<string, unknown>; defaults: unknown; requests: unknown }[] = [
    {
      name: 'max alone becomes the default limit and the default request',
      item: { type: 'Container', max: { cpu: '2' } },
      defaults: { cpu: '2' },
      requests: { cpu: '2' },
    },
    {
      name: 'a default limit alone is also the default request',
      item: { type: 'Container', default: { memory: '256Mi' } },
      defaults: { memory: '256Mi' },
      requests: { memory: '256Mi' },
    },
    {
      name: 'min gives the default request when nothing else does',
      item: { type: 'Container', min: { cpu: '100m' } },
      defaults: {},
      requests: { cpu: '100m' },
    },
    {
      name: 'a Pod item gets no defaults',
      item: { type: 'Pod', max: { cpu: '4' } },
      defaults: {},
      requests: {},
    },
  ];
  for (const entry of cases) {
    test(entry.name, () => {
      const [item] = readLimitRange(limitRange([entry.item]));
      assert.deepEqual(item?.default, entry.defaults);
      assert.deepEqual(item?.defaultRequest, entry.requests);
    });
  }
});

describe('LimitRanger on pods', () => {
  test('defaults turn a BestEffort container Burstable, and Guaranteed when request equals limit (TestMergePodResourceRequirements)', () => {
    const burstable = run([
      limitRange([
        {
          type: 'Container',
          default: { cpu: '1', memory: '512Mi' },
          defaultRequest: { cpu: '100m', memory: '128Mi' },
        },
      ]),
      deployment(undefined),
    ]);
    assert.deepEqual(
      burstable.pods.map((pod) => pod.qosClass),
      ['Burstable'],
    );
    const guaranteed = run([
      limitRange([{ type: 'Container', default: { cpu: '500m', memory: '256Mi' } }]),
      deployment(undefined),
    ]);
    assert.deepEqual(
      guaranteed.pods.map((pod) => pod.qosClass),
      ['Guaranteed'],
    );
    const without = run([deployment(undefined)]);
    assert.deepEqual(
      without.pods.map((pod) => pod.qosClass),
      ['BestEffort'],
    );
  });

  test('a container’s own limit stands for its request: the default request does not replace it', () => {
    const report = run([
      limitRange([
        {
          type: 'Container',
          default: { cpu: '1', memory: '1Gi' },
          defaultRequest: { cpu: '100m', memory: '64Mi' },
        },
      ]),
      deployment({ limits: { cpu: '2', memory: '2Gi' } }),
    ]);
    assert.deepEqual(
      report.pods.map((pod) => pod.qosClass),
      ['Guaranteed'],
    );
  });

  const refusals: {
    name: string;
    item: Record<string, unknown>;
    resources: Record<string, unknown>;
    init?: Record<string, unknown>;
    message: string;
  }[] = [
    {
      name: 'a limit above max is refused (TestPodLimitFunc, max)',
      item: { type: 'Container', max: { cpu: '1' } },
      resources: { limits: { cpu: '2' } },
      message: 'maximum cpu usage per Container is 1, but limit is 2',
    },
    {
      name: 'a request below min is refused (TestPodLimitFunc, min)',
      item: { type: 'Container', min: { memory: '128Mi' } },
      resources: { requests: { memory: '64Mi' } },
      message: 'minimum memory usage per Container is 128Mi, but request is 64Mi',
    },
    {
      name: 'a limit to request ratio above maxLimitRequestRatio is refused',
      item: { type: 'Container', maxLimitRequestRatio: { cpu: '2' } },
      resources: { requests: { cpu: '250m' }, limits: { cpu: '1' } },
      message: 'cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000',
    },
    {
      name: 'an init container is held to the Container items too (validateContainerLimits over init containers)',
      item: { type: 'Container', max: { memory: '256Mi' } },
      resources: { limits: { memory: '128Mi' } },
      init: { limits: { memory: '1Gi' } },
      message: 'maximum memory usage per Container is 256Mi, but limit is 1Gi',
    },
    {
      name: 'the pod’s total above a Pod max is refused',
      item: { type: 'Pod', max: { cpu: '500m' } },
      resources: { requests: { cpu: '1' }, limits: { cpu: '1' } },
      message: 'maximum cpu usage per Pod is 500m, but limit is 1', // the sum as resource.NewMilliQuantity writes it
    },
  ];
  for (const entry of refusals) {
    test(entry.name, () => {
      const workload = deployment(entry.resources);
      if (entry.init !== undefined) {
        workload.spec.template.spec = {
          ...workload.spec.template.spec,
          initContainers: [{ name: 'init', image: 'busybox', resources: entry.init }],
        } as typeof workload.spec.template.spec;
      }
      const report = run([limitRange([entry.item]), workload]);
      assert.equal(report.pods.length, 0);
      assert.equal(report.rejected.length, 1);
      assert.equal(report.rejected[0]?.plugin, 'LimitRanger');
      assert.match(report.rejected[0]?.message ?? '', /^pods "web-[a-z0-9]+-" is forbidden: /);
      assert.equal(report.rejected[0]?.message.replace(/^pods "[^"]+" is forbidden: /, ''), entry.message);
    });
  }
});

describe('LimitRanger on claims (PersistentVolumeClaimValidateLimitFunc)', () => {
  const claim = (storage?: string) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data' },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: storage === undefined ? {} : { requests: { storage } },
    },
  });
  const item = { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } };
  for (const [storage, message] of [
    ['100Gi', 'maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 100Gi'],
    ['500Mi', 'minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi'],
    [
      undefined,
      '[minimum storage usage per PersistentVolumeClaim is 1Gi.  No request is specified, maximum storage usage per PersistentVolumeClaim is 10Gi.  No request is specified]',
    ],
    ['5Gi', null],
  ] as const) {
    test(`a claim requesting ${storage ?? 'nothing'} ${message === null ? 'is admitted' : 'is refused'}`, () => {
      const report = run([limitRange([item]), claim(storage)]);
      assert.deepEqual(
        report.rejected.map((entry) => [entry.plugin, entry.message]),
        message === null ? [] : [['LimitRanger', `persistentvolumeclaims "data" is forbidden: ${message}`]],
      );
    });
  }
});
