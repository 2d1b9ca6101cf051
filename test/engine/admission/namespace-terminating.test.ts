import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import { simulate } from '../../../server/src/engine/simulate/simulate';

// NamespaceLifecycle refuses creations in a namespace whose phase is Terminating (Lifecycle.Admit in
// plugin/pkg/admission/namespace/lifecycle/admission.go). Rows follow admission_test.go
// TestAdmissionNamespaceTerminating: creates are refused, updates pass, Namespaces and cluster-scoped objects are
// never refused; pods and claims controllers create are refused alike.

const NODE = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'w1' },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
};
const namespace = (
  name: string,
  status?: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, ...metadata },
  ...(status === undefined ? {} : { status }),
});
const TERMINATING = { phase: 'Terminating' };
const deployment = (ns: string, replicas = 2) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: ns },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
    },
  },
});
const configMap = (ns: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings', namespace: ns },
});
const priorityClass = {
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name: 'high' },
  value: 1000,
};

function run(cluster: Record<string, unknown>[], manifests: Record<string, unknown>[]) {
  let documentIndex = 0;
  const sourced = (object: Record<string, unknown>, file: string): SourcedObject => ({
    object,
    source: { file, documentIndex: documentIndex++, path: [] },
  });
  const result = simulate({
    manifests: manifests.map((object) => sourced(object, 'm.yaml')),
    cluster: cluster.map((object) => sourced(object, 'cluster.yaml')),
  });
  return {
    rejected: result.report.rejected.map((entry) => [entry.kind, entry.plugin, entry.message]),
    failedCreate: (result.report.events ?? [])
      .filter((event) => event.type === 'FailedCreate')
      .map((event) => event.message.replace(/"web-[a-z0-9]+-"/, '"web-…-"')),
  };
}

const FORBIDDEN = 'unable to create new content in namespace old because it is being terminated';

const rows: {
  name: string;
  cluster: Record<string, unknown>[];
  manifests: Record<string, unknown>[];
  rejected: string[][];
  failedCreate?: string[];
}[] = [
  {
    name: 'TestAdmissionNamespaceTerminating: a create in the terminating namespace is refused as Forbidden',
    cluster: [NODE, namespace('default'), namespace('old', TERMINATING)],
    manifests: [deployment('old'), configMap('old')],
    rejected: [
      ['Deployment', 'NamespaceLifecycle', `deployments.apps "web" is forbidden: ${FORBIDDEN}`],
      ['ConfigMap', 'NamespaceLifecycle', `configmaps "settings" is forbidden: ${FORBIDDEN}`],
    ],
  },
  {
    name: 'TestAdmissionNamespaceTerminating: an update proceeds, but the pods its controller creates are refused',
    cluster: [NODE, namespace('default'), namespace('old', TERMINATING), deployment('old', 0)],
    manifests: [deployment('old', 2)],
    rejected: [['Pod', 'NamespaceLifecycle', `pods "web-…-" is forbidden: ${FORBIDDEN}`]],
    failedCreate: [`Error creating: pods "web-…-" is forbidden: ${FORBIDDEN}`],
  },
  {
    name: 'Lifecycle.Admit allows every operation on Namespaces: applying the terminating Namespace is no refusal',
    cluster: [NODE, namespace('default'), namespace('old', TERMINATING)],
    manifests: [namespace('old')],
    rejected: [],
  },
  {
    name: 'Lifecycle.Admit always allows cluster-scoped resources',
    cluster: [NODE, namespace('default'), namespace('old', TERMINATING)],
    manifests: [priorityClass],
    rejected: [],
  },
  {
    name: 'Lifecycle.Admit reads the phase: a namespace still Active admits',
    cluster: [NODE, namespace('default'), namespace('old', { phase: 'Active' })],
    manifests: [configMap('old')],
    rejected: [],
  },
];

describe('NamespaceLifecycle in a terminating namespace (TestAdmissionNamespaceTerminating)', () => {
  for (const row of rows) {
    test(row.name, () => {
      const outcome = run(row.cluster, row.manifests);
      assert.deepEqual(
        outcome.rejected.map(([kind, plugin, message]) => [
          kind,
          plugin,
          message?.replace(/"web-[a-z0-9]+-"/, '"web-…-"'),
        ]),
        row.rejected,
      );
      assert.deepEqual(outcome.failedCreate, row.failedCreate ?? []);
    });
  }
});
