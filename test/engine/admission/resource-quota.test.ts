import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import { simulate } from '../../../server/src/engine/simulate/simulate';

// ResourceQuota, the last plugin: counted from the pods the namespace holds, in the order the controllers create
// them; refusals in the quota evaluator's words. Rows follow plugin/pkg/admission/resourcequota/admission_test.go.

const quota = (name: string, hard: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name, namespace: 'default' },
  spec: { hard, ...extra },
});

const deployment = (replicas: number, resources?: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas,
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
  return simulate({
    manifests: manifests.map((object, documentIndex): SourcedObject => ({
      object,
      source: { file: 'm.yaml', documentIndex, path: [] },
    })),
    cluster: null,
  }).report;
}

const reasons = (report: ReturnType<typeof run>): string[] =>
  report.rejected.map((entry) => entry.message.replace(/^pods "[^"]+" is forbidden: /, ''));

describe('ResourceQuota', () => {
  test('a quota of 2 pods lets 2 of 4 replicas be created and refuses the rest (after TestAdmitExceedQuotaLimit)', () => {
    const report = run([quota('pods', { pods: '2' }), deployment(4, { requests: { cpu: '100m' } })]);
    assert.equal(report.pods.length, 2);
    assert.deepEqual(reasons(report), [
      'exceeded quota: pods, requested: pods=1, used: pods=2, limited: pods=2',
    ]);
    assert.equal(report.rejected[0]?.plugin, 'ResourceQuota');
    // The refused pod has no name yet: it is named by its generateName, as the error names it.
    assert.match(report.rejected[0]?.name ?? '', /^web-[a-z0-9]+-$/);
    assert.deepEqual(report.rejected[0]?.replicas, {
      workload: { kind: 'Deployment', name: 'web' },
      desired: 4,
      created: 2,
    });
  });

  test('a workload whose every replica exists at the end carries no count, even if a refusal happened', () => {
    const report = run([quota('pods', { pods: '4' }), deployment(4, { requests: { cpu: '100m' } })]);
    assert.deepEqual(report.rejected, []);
  });

  test('a compute quota counts requests: the third 400m pod exceeds requests.cpu=1 (after TestAdmitBelowQuotaLimit and TestAdmitExceedQuotaLimit)', () => {
    const report = run([
      quota('compute', { 'requests.cpu': '1' }),
      deployment(3, { requests: { cpu: '400m', memory: '64Mi' } }),
    ]);
    assert.equal(report.pods.length, 2);
    assert.deepEqual(reasons(report), [
      'exceeded quota: compute, requested: requests.cpu=400m, used: requests.cpu=800m, limited: requests.cpu=1',
    ]);
  });

  test('a quota on limits needs every container to state them (after TestAdmitEnforceQuotaConstraints)', () => {
    const report = run([
      quota('compute', { 'limits.cpu': '4', 'requests.memory': '1Gi' }),
      deployment(1, { requests: { cpu: '100m' } }),
    ]);
    assert.equal(report.pods.length, 0);
    assert.deepEqual(reasons(report), [
      'failed quota: compute: must specify limits.cpu for: web; requests.memory for: web',
    ]);
  });

  test('a BestEffort-scoped quota counts BestEffort pods only (after TestAdmitBestEffortQuotaLimitIgnoresBurstable)', () => {
    const bestEffort = run([quota('be', { pods: '0' }, { scopes: ['BestEffort'] }), deployment(1)]);
    assert.equal(bestEffort.pods.length, 0);
    assert.deepEqual(reasons(bestEffort), [
      'exceeded quota: be, requested: pods=1, used: pods=0, limited: pods=0',
    ]);
    const burstable = run([
      quota('be', { pods: '0' }, { scopes: ['BestEffort'] }),
      deployment(1, { requests: { cpu: '100m' } }),
    ]);
    assert.equal(burstable.pods.length, 1);
    assert.deepEqual(burstable.rejected, []);
  });

  test('a PriorityClass scope selector counts the pods of that class only', () => {
    const selector = {
      scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] },
    };
    const report = run([
      quota('high', { pods: '0' }, selector),
      deployment(2, { requests: { cpu: '100m' } }),
    ]);
    assert.equal(report.pods.length, 2);
  });

  test('the cluster file’s running workloads are not admitted again: a policy added since removes none of their pods', () => {
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'w1' },
      status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
    };
    const restricted = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'default', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } },
    };
    const report = simulate({
      manifests: [
        {
          object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unrelated' } },
          source: { file: 'm.yaml', documentIndex: 0, path: [] },
        },
      ],
      // A running Deployment exported without its pods: its 3 pods are made as they run, not created anew.
      cluster: [
        node,
        restricted,
        quota('pods', { pods: '1' }),
        deployment(3, { requests: { cpu: '100m' } }),
      ].map((object, documentIndex): SourcedObject => ({
        object,
        source: { file: 'cluster.yaml', documentIndex, path: [] },
      })),
    }).report;
    assert.deepEqual(report.rejected, []);
    assert.equal(report.cluster.nodes[0]?.requested['pods'], '3');
  });
});
