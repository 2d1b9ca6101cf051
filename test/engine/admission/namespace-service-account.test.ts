import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import { simulate } from '../../../server/src/engine/simulate/simulate';

// NamespaceLifecycle and ServiceAccount: what exists is what the cluster file has and the apply creates; absence
// is only certain when the cluster file lists such objects. Rows follow the plugins' own tests where named.

let documentIndex = 0;
const sourced = (object: Record<string, unknown>, file = 'm.yaml'): SourcedObject => ({
  object,
  source: { file, documentIndex: documentIndex++, path: [] },
});

const NODE = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'w1' },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
};
const namespace = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const account = (name: string, ns = 'default') => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace: ns },
});
const deployment = (ns: string, serviceAccountName?: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: ns },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        ...(serviceAccountName === undefined ? {} : { serviceAccountName }),
        containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '100m' } } }],
      },
    },
  },
});

function run(cluster: Record<string, unknown>[] | null, manifests: Record<string, unknown>[]) {
  const result = simulate({
    manifests: manifests.map((object) => sourced(object)),
    cluster: cluster === null ? null : cluster.map((object) => sourced(object, 'cluster.yaml')),
  });
  return {
    pods: result.report.pods.length,
    rejected: result.report.rejected.map((entry) => [entry.kind, entry.plugin, entry.message]),
    codes: result.findings.map((finding) => finding.code),
    events: (result.report.events ?? [])
      .filter((event) => event.type === 'FailedCreate')
      .map((event) => event.message),
  };
}

describe('NamespaceLifecycle', () => {
  test('a cluster file that lists Namespaces refuses an object in one it lacks (TestAdmissionNamespaceDoesNotExist)', () => {
    const outcome = run([NODE, namespace('default')], [deployment('shop')]);
    assert.equal(outcome.pods, 0);
    assert.deepEqual(outcome.rejected, [['Deployment', 'NamespaceLifecycle', 'namespaces "shop" not found']]);
  });

  test('the same apply creating the Namespace admits the object', () => {
    const outcome = run([NODE, namespace('default')], [namespace('shop'), deployment('shop')]);
    assert.equal(outcome.pods, 2);
    assert.deepEqual(outcome.rejected, []);
  });

  test('on the embedded default cluster an unknown namespace is assumed, with a warning', () => {
    const outcome = run(null, [deployment('shop')]);
    assert.equal(outcome.pods, 2);
    assert.deepEqual(outcome.rejected, []);
    assert.ok(outcome.codes.includes('namespace-not-found'), outcome.codes.join(', '));
  });

  test('a capture without Namespaces cannot say: the namespace of what runs there exists, others are assumed', () => {
    const running = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'shop' } };
    const outcome = run([NODE, running], [deployment('shop')]);
    assert.equal(outcome.pods, 2);
    assert.ok(!outcome.codes.includes('namespace-not-found'));
  });
});

describe('ServiceAccount', () => {
  test('a cluster file that lists ServiceAccounts refuses pods naming one it lacks (TestDeniesInvalidServiceAccount)', () => {
    const outcome = run([NODE, account('default')], [deployment('default', 'builder')]);
    assert.equal(outcome.pods, 0);
    assert.equal(outcome.rejected.length, 1);
    const [[kind, plugin, message] = []] = outcome.rejected;
    assert.equal(kind, 'Pod');
    assert.equal(plugin, 'ServiceAccount');
    assert.match(
      String(message),
      /^pods "web-[a-z0-9]+-" is forbidden: error looking up service account default\/builder: serviceaccount "builder" not found$/,
    );
    assert.deepEqual(outcome.events, [`Error creating: ${String(message)}`]);
  });

  test('the service account created by the same apply admits the pods', () => {
    const outcome = run([NODE, account('default')], [account('builder'), deployment('default', 'builder')]);
    assert.equal(outcome.pods, 2);
  });

  test('"default" exists in every namespace, even when the cluster lists other service accounts', () => {
    const outcome = run([NODE, account('other')], [deployment('default')]);
    assert.equal(outcome.pods, 2);
    assert.deepEqual(outcome.rejected, []);
  });

  test('on the embedded default cluster a service account not in the manifests is assumed, with a note', () => {
    const outcome = run(null, [deployment('default', 'builder')]);
    assert.equal(outcome.pods, 2);
    assert.ok(outcome.codes.includes('service-account-assumed'), outcome.codes.join(', '));
  });
});
