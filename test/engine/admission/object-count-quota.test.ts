import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import { objectUsage, resourceOf } from '../../../server/src/engine/admission/plugins/object-count-quota';
import { simulate } from '../../../server/src/engine/simulate/simulate';

// ResourceQuota on the apply's objects other than pods. Rows follow plugin/pkg/admission/resourcequota/
// admission_test.go (TestAdmitBelowBestEffortQuotaLimit's services count, TestAdmitExceedQuotaLimit on
// services.loadbalancers and nodeports, TestAdmitRejectIncreaseUsageWithoutCoveringQuota's storage) and
// pkg/quota/v1/evaluator/core/services_test.go, persistent_volume_claims_test.go (usage).

const sourced = (objects: Record<string, unknown>[], file: string): SourcedObject[] =>
  objects.map((object, documentIndex) => ({ object, source: { file, documentIndex, path: [] } }));

const quota = (hard: Record<string, string>, used?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'objects', namespace: 'default' },
  spec: { hard },
  ...(used === undefined ? {} : { status: { hard, used } }),
});
const service = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'default' },
  spec: { ports: [{ port: 80 }], ...spec },
});
const claim = (name: string, storage: string, storageClassName?: string) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: {
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage } },
    ...(storageClassName === undefined ? {} : { storageClassName }),
  },
});

function refusals(manifests: Record<string, unknown>[], cluster: Record<string, unknown>[] | null = null) {
  return simulate({
    manifests: sourced(manifests, 'm.yaml'),
    cluster: cluster === null ? null : sourced(cluster, 'cluster.yaml'),
  }).report.rejected.map((entry) => [entry.kind, entry.name, entry.plugin, entry.message]);
}

describe('ResourceQuota object counts', () => {
  test('a quota of 2 services refuses the third, in the evaluator’s words', () => {
    assert.deepEqual(refusals([quota({ services: '2' }), service('a'), service('b'), service('c')]), [
      [
        'Service',
        'c',
        'ResourceQuota',
        'services "c" is forbidden: exceeded quota: objects, requested: services=1, used: services=2, limited: services=2',
      ],
    ]);
  });

  test('count/<resource>.<group> counts the kind of that group; a ConfigMap also counts as configmaps', () => {
    const deployment = (name: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      },
    });
    const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    assert.deepEqual(
      refusals([
        quota({ 'count/deployments.apps': '1', configmaps: '1' }),
        deployment('a'),
        deployment('b'),
        configMap('x'),
        configMap('y'),
      ]).map((row) => row[3]),
      [
        'deployments.apps "b" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1',
        'configmaps "y" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=1, limited: configmaps=1',
      ],
    );
  });

  test('a LoadBalancer uses a load balancer and a node port per port (services_test.go)', () => {
    const balancer = service('lb', { type: 'LoadBalancer', ports: [{ port: 80 }, { port: 443 }] });
    assert.deepEqual(Object.fromEntries(objectUsage(balancer)), {
      'count/services': 1,
      services: 1,
      'services.loadbalancers': 1,
      'services.nodeports': 2,
    });
    assert.equal(
      objectUsage(service('lb2', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false })).get(
        'services.nodeports',
      ),
      0,
    );
    assert.deepEqual(
      refusals([quota({ 'services.nodeports': '2' }), service('np', { type: 'NodePort' }), balancer]).map(
        (row) => row[3],
      ),
      [
        'services "lb" is forbidden: exceeded quota: objects, requested: services.nodeports=2, used: services.nodeports=1, limited: services.nodeports=2',
      ],
    );
  });

  test('claims count their storage, in total and per storage class (persistent_volume_claims_test.go)', () => {
    assert.deepEqual(
      refusals([
        quota({ 'requests.storage': '15Gi', 'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1' }),
        claim('a', '10Gi'),
        claim('b', '10Gi'),
        claim('c', '1Gi', 'gold'),
        claim('d', '1Gi', 'gold'),
      ]).map((row) => row[3]),
      [
        'persistentvolumeclaims "b" is forbidden: exceeded quota: objects, requested: requests.storage=10Gi, used: requests.storage=10Gi, limited: requests.storage=15Gi',
        'persistentvolumeclaims "d" is forbidden: exceeded quota: objects, requested: gold.storageclass.storage.k8s.io/persistentvolumeclaims=1, used: gold.storageclass.storage.k8s.io/persistentvolumeclaims=1, limited: gold.storageclass.storage.k8s.io/persistentvolumeclaims=1',
      ],
    );
  });

  test('a captured quota’s status.used is where counting starts; an object the cluster holds is an update', () => {
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'w1' },
      status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
    };
    // The capture lists one service, but the quota says 2 are in use (one lives in a list not captured).
    const cluster = [node, quota({ services: '3' }, { services: '2' }), service('a')];
    assert.deepEqual(
      refusals([service('a'), service('b'), service('c')], cluster).map((row) => row[1]),
      ['c'],
    );
  });

  test('a scoped quota counts pods only: it refuses no service', () => {
    const scoped = { ...quota({ services: '0' }), spec: { hard: { services: '0' }, scopes: ['BestEffort'] } };
    assert.deepEqual(refusals([scoped, service('a')]), []);
  });

  test('the resource of a kind is guessed as the REST mapper does', () => {
    assert.deepEqual(['Service', 'Ingress', 'NetworkPolicy', 'Endpoints', 'StorageClass'].map(resourceOf), [
      'services',
      'ingresses',
      'networkpolicies',
      'endpoints',
      'storageclasses',
    ]);
  });
});
