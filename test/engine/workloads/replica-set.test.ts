import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { expandWorkloads } from '../../../server/src/engine/workloads';
import { appsWorkload, inputs, metadataOf, podTemplate } from './builders';

const HASH = '[bcdfghjklmnpqrstvwxz2456789]{9,10}';
const SUFFIX = '[bcdfghjklmnpqrstvwxz2456789]{5}';

interface Case {
  readonly name: string;
  readonly objects: readonly unknown[];
  /** How many pods; each name must match `namePattern`. */
  readonly count: number;
  readonly namePattern?: RegExp;
  readonly ownerKind?: string;
  readonly findingCodes?: readonly string[];
}

const hpa = (
  target: string,
  minReplicas: number | undefined,
  maxReplicas: number,
  apiVersion = 'autoscaling/v2',
) => ({
  apiVersion,
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: `${target}-hpa` },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target },
    minReplicas,
    maxReplicas,
  },
});

const CASES: readonly Case[] = [
  {
    name: 'a Deployment without replicas creates one pod named <deployment>-<hash>-<suffix>',
    objects: [appsWorkload('Deployment', 'web')],
    count: 1,
    namePattern: new RegExp(`^web-${HASH}-${SUFFIX}$`),
    ownerKind: 'ReplicaSet',
  },
  {
    name: 'a Deployment with three replicas creates three pods',
    objects: [appsWorkload('Deployment', 'web', { replicas: 3 })],
    count: 3,
    namePattern: new RegExp(`^web-${HASH}-${SUFFIX}$`),
  },
  {
    name: 'a Deployment scaled to zero creates no pod',
    objects: [appsWorkload('Deployment', 'web', { replicas: 0 })],
    count: 0,
    findingCodes: [],
  },
  {
    name: 'a Deployment with negative replicas is rejected and creates no pod',
    objects: [appsWorkload('Deployment', 'web', { replicas: -1 })],
    count: 0,
    findingCodes: ['workload-negative-count'],
  },
  {
    name: 'a Deployment whose replicas is a string is rejected',
    objects: [appsWorkload('Deployment', 'web', { replicas: '3' })],
    count: 0,
    findingCodes: ['workload-invalid-field'],
  },
  {
    name: 'a Deployment whose selector does not match its template labels is rejected',
    objects: [appsWorkload('Deployment', 'web', { selector: { matchLabels: { app: 'other' } } })],
    count: 0,
    findingCodes: ['workload-selector-mismatch'],
  },
  {
    name: 'a Deployment without a selector is rejected',
    objects: [appsWorkload('Deployment', 'web', { selector: undefined })],
    count: 0,
    findingCodes: ['workload-missing-selector'],
  },
  {
    name: 'a Deployment with an empty selector is rejected',
    objects: [appsWorkload('Deployment', 'web', { selector: {} })],
    count: 0,
    findingCodes: ['workload-empty-selector'],
  },
  {
    name: 'a Deployment with a malformed match expression is rejected',
    objects: [
      appsWorkload('Deployment', 'web', { selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }),
    ],
    count: 0,
    findingCodes: ['workload-invalid-selector'],
  },
  {
    name: 'a Deployment selecting with match expressions that hold creates its pods',
    objects: [
      appsWorkload('Deployment', 'web', {
        selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] },
      }),
    ],
    count: 1,
  },
  {
    name: 'a Deployment without a template is rejected and every problem is reported',
    objects: [appsWorkload('Deployment', 'web', { template: undefined, replicas: -2 })],
    count: 0,
    findingCodes: ['workload-missing-template', 'workload-negative-count'],
  },
  {
    name: 'a paused Deployment creates no ReplicaSet and says so',
    objects: [appsWorkload('Deployment', 'web', { paused: true, replicas: 2 })],
    count: 0,
    findingCodes: ['deployment-paused'],
  },
  {
    name: 'a Deployment without a name is reported and skipped',
    objects: [{ ...appsWorkload('Deployment', 'web'), metadata: {} }],
    count: 0,
    findingCodes: ['workload-missing-name'],
  },
  {
    name: 'an HPA with minReplicas above the replicas raises the starting replicas',
    objects: [appsWorkload('Deployment', 'web', { replicas: 1 }), hpa('web', 3, 10)],
    count: 3,
  },
  {
    name: 'an HPA with maxReplicas below the replicas lowers the starting replicas',
    objects: [appsWorkload('Deployment', 'web', { replicas: 8 }), hpa('web', 2, 5, 'autoscaling/v1')],
    count: 5,
  },
  {
    name: 'an HPA without minReplicas keeps a Deployment at its default single replica',
    objects: [hpa('web', undefined, 4), appsWorkload('Deployment', 'web')],
    count: 1,
  },
  {
    name: 'an HPA does not scale up a Deployment set to zero replicas',
    objects: [appsWorkload('Deployment', 'web', { replicas: 0 }), hpa('web', 2, 4)],
    count: 0,
  },
  {
    name: 'an HPA in another namespace leaves the Deployment alone',
    objects: [
      appsWorkload('Deployment', 'web', { replicas: 1 }),
      { ...hpa('web', 3, 5), metadata: { name: 'web-hpa', namespace: 'other' } },
    ],
    count: 1,
  },
  {
    name: 'a ReplicaSet creates <replicaset>-<suffix> pods it owns itself',
    objects: [appsWorkload('ReplicaSet', 'front', { replicas: 2 })],
    count: 2,
    namePattern: new RegExp(`^front-${SUFFIX}$`),
    ownerKind: 'ReplicaSet',
  },
  {
    name: 'a ReplicationController without a selector defaults it to the template labels',
    objects: [
      {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'legacy' },
        spec: { replicas: 2, template: podTemplate({ app: 'legacy' }) },
      },
    ],
    count: 2,
    namePattern: new RegExp(`^legacy-${SUFFIX}$`),
    ownerKind: 'ReplicationController',
  },
  {
    name: 'a ReplicationController whose map selector misses the template labels is rejected',
    objects: [
      {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'legacy' },
        spec: { selector: { app: 'x' }, template: podTemplate({ app: 'legacy' }) },
      },
    ],
    count: 0,
    findingCodes: ['workload-selector-mismatch'],
  },
];

void describe('Deployments, ReplicaSets and ReplicationControllers', () => {
  for (const testCase of CASES) {
    void test(testCase.name, () => {
      const result = expandWorkloads(inputs(...testCase.objects));
      assert.equal(result.pods.length, testCase.count);
      for (const expanded of result.pods) {
        const metadata = metadataOf(expanded.pod);
        if (testCase.namePattern !== undefined) {
          assert.match(metadata.name, testCase.namePattern);
        }
        if (testCase.ownerKind !== undefined) {
          assert.equal(metadata.ownerReferences[0]?.kind, testCase.ownerKind);
        }
      }
      if (testCase.findingCodes !== undefined) {
        assert.deepEqual(
          result.findings.map((finding) => finding.code),
          testCase.findingCodes,
        );
      }
    });
  }

  void test('a Deployment’s pods carry the template labels plus pod-template-hash, shared with the ReplicaSet name', () => {
    const { pods } = expandWorkloads(inputs(appsWorkload('Deployment', 'web', { replicas: 2 })));
    const names = pods.map((p) => metadataOf(p.pod).name);
    const hash = metadataOf(pods[0]!.pod).labels['pod-template-hash'];
    assert.ok(hash !== undefined);
    assert.deepEqual(metadataOf(pods[0]!.pod).labels, { app: 'web', 'pod-template-hash': hash });
    assert.equal(metadataOf(pods[0]!.pod).ownerReferences[0]?.name, `web-${hash}`);
    assert.equal(metadataOf(pods[0]!.pod).generateName, `web-${hash}-`);
    assert.notEqual(names[0], names[1]);
  });

  void test('the owner of a Deployment’s pods is the Deployment, and their source points at its template', () => {
    const [pod] = expandWorkloads(inputs(appsWorkload('Deployment', 'web', {}, { namespace: 'shop' }))).pods;
    assert.deepEqual(pod?.owner, { kind: 'Deployment', name: 'web', namespace: 'shop' });
    assert.deepEqual(pod?.source, { file: 'app.yaml', documentIndex: 0, path: ['spec', 'template'] });
    assert.equal(metadataOf(pod.pod).namespace, 'shop');
    assert.equal(pod?.replicaIndex, 0);
  });

  void test('pods without a namespace land in default', () => {
    const [pod] = expandWorkloads(inputs(appsWorkload('Deployment', 'web'))).pods;
    assert.equal(metadataOf(pod!.pod).namespace, 'default');
  });

  void test('changing the template changes the pod-template-hash, and the same template keeps it', () => {
    const hashOf = (image: string) =>
      metadataOf(
        expandWorkloads(
          inputs(
            appsWorkload('Deployment', 'web', {
              template: { ...podTemplate({ app: 'web' }), spec: { containers: [{ name: 'a', image }] } },
            }),
          ),
        ).pods[0]!.pod,
      ).labels['pod-template-hash'];
    assert.equal(hashOf('nginx:1'), hashOf('nginx:1'));
    assert.notEqual(hashOf('nginx:1'), hashOf('nginx:2'));
  });

  void test('a selector mismatch finding points at the template labels and quotes the API server', () => {
    const result = expandWorkloads(
      inputs(appsWorkload('Deployment', 'web', { selector: { matchLabels: { app: 'other' } } })),
    );
    const [finding] = result.findings;
    assert.deepEqual(finding?.path, ['spec', 'template', 'metadata', 'labels']);
    assert.equal(finding?.severity, 'error');
    assert.equal(
      finding?.message,
      'Deployment "web": spec.selector does not select the pod template\'s labels, so the API server rejects it: ' +
        'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    );
  });

  void test('a negative replicas finding quotes the API server', () => {
    const result = expandWorkloads(inputs(appsWorkload('Deployment', 'web', { replicas: -1 })));
    assert.equal(
      result.findings[0]?.message,
      'Deployment "web": spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    assert.deepEqual(result.findings[0]?.path, ['spec', 'replicas']);
  });
});
