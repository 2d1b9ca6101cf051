import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { expandWorkloads } from '../../../server/src/engine/workloads';
import { appsWorkload, inputs, metadataOf, podTemplate, specOf } from './builders';

interface Case {
  readonly name: string;
  readonly spec: Record<string, unknown>;
  readonly names: readonly string[];
}

const CASES: readonly Case[] = [
  { name: 'a StatefulSet without replicas creates <set>-0', spec: {}, names: ['db-0'] },
  {
    name: 'a StatefulSet with three replicas creates ordinals 0 to 2',
    spec: { replicas: 3 },
    names: ['db-0', 'db-1', 'db-2'],
  },
  { name: 'a StatefulSet with zero replicas creates no pod', spec: { replicas: 0 }, names: [] },
  {
    name: 'a StatefulSet with ordinals.start begins counting there',
    spec: { replicas: 2, ordinals: { start: 5 } },
    names: ['db-5', 'db-6'],
  },
  { name: 'a StatefulSet with negative replicas is rejected', spec: { replicas: -1 }, names: [] },
  {
    name: 'a StatefulSet whose selector does not match its template is rejected',
    spec: { selector: { matchLabels: { app: 'x' } } },
    names: [],
  },
];

void describe('StatefulSets', () => {
  for (const testCase of CASES) {
    void test(testCase.name, () => {
      const { pods } = expandWorkloads(inputs(appsWorkload('StatefulSet', 'db', testCase.spec)));
      assert.deepEqual(
        pods.map((p) => metadataOf(p.pod).name),
        testCase.names,
      );
    });
  }

  void test('stateful pods carry their name, index and revision labels, hostname and subdomain', () => {
    const { pods } = expandWorkloads(
      inputs(appsWorkload('StatefulSet', 'db', { replicas: 2, serviceName: 'db-headless' })),
    );
    const second = pods[1]!;
    const metadata = metadataOf(second.pod);
    const revision = metadata.labels['controller-revision-hash'];
    assert.match(revision ?? '', /^db-[bcdfghjklmnpqrstvwxz2456789]{9,10}$/);
    assert.deepEqual(metadata.labels, {
      app: 'db',
      'statefulset.kubernetes.io/pod-name': 'db-1',
      'apps.kubernetes.io/pod-index': '1',
      'controller-revision-hash': revision,
    });
    assert.equal(metadata.generateName, undefined);
    assert.equal(specOf(second.pod)['hostname'], 'db-1');
    assert.equal(specOf(second.pod)['subdomain'], 'db-headless');
    assert.deepEqual(metadata.ownerReferences[0]?.kind, 'StatefulSet');
    assert.equal(second.replicaIndex, 1);
  });

  void test('a StatefulSet without serviceName sets no subdomain', () => {
    const { pods } = expandWorkloads(inputs(appsWorkload('StatefulSet', 'db')));
    assert.equal(specOf(pods[0]!.pod)['subdomain'], undefined);
  });

  void test('volume claim templates become per-pod claims that replace same-named volumes', () => {
    const template = podTemplate(
      { app: 'db' },
      {
        volumes: [
          { name: 'data', emptyDir: {} },
          { name: 'config', configMap: { name: 'db-config' } },
        ],
      },
    );
    const { pods } = expandWorkloads(
      inputs(
        appsWorkload('StatefulSet', 'db', {
          replicas: 2,
          template,
          volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
        }),
      ),
    );
    assert.deepEqual(specOf(pods[1]!.pod)['volumes'], [
      { name: 'data', persistentVolumeClaim: { claimName: 'data-db-1' } },
      { name: 'config', configMap: { name: 'db-config' } },
    ]);
  });

  void test('the template itself is left untouched by the expansion', () => {
    const object = appsWorkload('StatefulSet', 'db', { replicas: 2 });
    const before = JSON.stringify(object);
    expandWorkloads(inputs(object));
    assert.equal(JSON.stringify(object), before);
  });
});
