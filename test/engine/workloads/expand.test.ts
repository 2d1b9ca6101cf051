import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { expandWorkloads } from '../../../server/src/engine/workloads';
import type { WorkloadInput } from '../../../server/src/engine/workloads';
import { appsWorkload, inputs, job, metadataOf, node, sourceOf } from './builders';

const barePod = (name: string | undefined, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { ...(name === undefined ? {} : { name }), ...metadata },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
});

void describe('expandWorkloads', () => {
  void test('a bare Pod is itself, in the default namespace, owned by nobody, sourced at the object', () => {
    const { pods } = expandWorkloads(inputs(barePod('solo')));
    assert.equal(pods.length, 1);
    assert.equal(metadataOf(pods[0]!.pod).name, 'solo');
    assert.equal(metadataOf(pods[0]!.pod).namespace, 'default');
    assert.equal(pods[0]!.owner, null);
    assert.deepEqual(pods[0]!.source, sourceOf('app.yaml', 0));
  });

  void test('a bare Pod keeps its namespace and is not mutated', () => {
    const object = barePod('solo', { namespace: 'shop' });
    const before = JSON.stringify(object);
    const { pods } = expandWorkloads(inputs(object));
    assert.equal(metadataOf(pods[0]!.pod).namespace, 'shop');
    assert.equal(JSON.stringify(object), before);
  });

  void test('a bare Pod with only generateName gets a generated name', () => {
    const { pods } = expandWorkloads(inputs(barePod(undefined, { generateName: 'scratch-' })));
    assert.match(metadataOf(pods[0]!.pod).name, /^scratch-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  void test('kinds that create no pods are ignored without findings', () => {
    const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: {} };
    const result = expandWorkloads(
      inputs(service, { apiVersion: 'v1', kind: 'ConfigMap' }, 'text', null, 42),
    );
    assert.deepEqual(result, { pods: [], findings: [] });
  });

  void test('a kind: List is unwrapped and each item keeps a source path into the list', () => {
    const list = { apiVersion: 'v1', kind: 'List', items: [barePod('a'), appsWorkload('Deployment', 'web')] };
    const { pods } = expandWorkloads(inputs(list));
    assert.equal(pods.length, 2);
    assert.deepEqual(pods[0]!.source.path, ['items', 0]);
    assert.deepEqual(pods[1]!.source.path, ['items', 1, 'spec', 'template']);
  });

  void test('items of a typed list inherit its kind', () => {
    const list = {
      apiVersion: 'v1',
      kind: 'PodList',
      items: [{ metadata: { name: 'a' }, spec: { containers: [] } }],
    };
    const { pods } = expandWorkloads(inputs(list));
    assert.equal(metadataOf(pods[0]!.pod).name, 'a');
  });

  void test('pods come out in input order, each workload’s pods together', () => {
    const { pods } = expandWorkloads(
      inputs(barePod('first'), appsWorkload('StatefulSet', 'db', { replicas: 2 }), barePod('last')),
    );
    assert.deepEqual(
      pods.map((p) => metadataOf(p.pod).name),
      ['first', 'db-0', 'db-1', 'last'],
    );
  });

  void test('the same input gives identical output, names and findings included', () => {
    const build = (): WorkloadInput[] =>
      inputs(
        appsWorkload('Deployment', 'web', { replicas: 4 }),
        appsWorkload('DaemonSet', 'agent'),
        job('pi', { parallelism: 2 }),
        appsWorkload('Deployment', 'bad', { replicas: -1 }),
      );
    const options = { nodes: [node('a'), node('b')] };
    assert.deepEqual(expandWorkloads(build(), options), expandWorkloads(build(), options));
  });

  void test('generated names are unique across a large expansion', () => {
    const { pods } = expandWorkloads(inputs(appsWorkload('Deployment', 'web', { replicas: 3000 })));
    const names = new Set(pods.map((p) => metadataOf(p.pod).name));
    assert.equal(names.size, 3000);
  });

  void test('findings of several workloads are all reported, each with its own source', () => {
    const result = expandWorkloads(
      inputs(
        appsWorkload('Deployment', 'a', { replicas: -1 }),
        appsWorkload('StatefulSet', 'b', { replicas: -2 }),
      ),
    );
    assert.deepEqual(
      result.findings.map((f) => [f.code, f.object?.documentIndex]),
      [
        ['workload-negative-count', 0],
        ['workload-negative-count', 1],
      ],
    );
  });

  void test('the same Deployment in two namespaces yields distinct pods in each', () => {
    const { pods } = expandWorkloads(
      inputs(
        appsWorkload('Deployment', 'web', {}, { namespace: 'a' }),
        appsWorkload('Deployment', 'web', {}, { namespace: 'b' }),
      ),
    );
    assert.deepEqual(
      pods.map((p) => metadataOf(p.pod).namespace),
      ['a', 'b'],
    );
    assert.notEqual(
      metadataOf(pods[0]!.pod).ownerReferences[0]?.uid,
      metadataOf(pods[1]!.pod).ownerReferences[0]?.uid,
    );
  });
});
