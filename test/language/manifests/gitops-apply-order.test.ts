import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inGitopsOrder } from '../../../server/src/language/manifests/gitops-apply-order';
import type { GitopsController } from '../../../server/src/language/manifests/gitops-apply-order';

// The order Argo CD and Flux apply a unit's objects in. Each row follows an upstream test or the upstream sort it
// names; the input is given in file order and the expected list is the apply order.

interface Item {
  readonly object: {
    readonly apiVersion: string;
    readonly kind: string;
    readonly name: string | undefined;
    readonly namespace: string | undefined;
    readonly value: Record<string, unknown>;
    readonly node: undefined;
    readonly path: readonly [];
  };
  readonly label: string;
}

/** An object "apiVersion Kind namespace/name" with optional annotations and spec. */
function item(
  text: string,
  annotations: Record<string, string> = {},
  spec: Record<string, unknown> | undefined = undefined,
): Item {
  const [apiVersion = '', kind = '', where = ''] = text.split(' ');
  const [namespace, name] = where.includes('/') ? where.split('/') : [undefined, where];
  const metadata = {
    ...(name === undefined || name === '' ? {} : { name }),
    ...(namespace === undefined ? {} : { namespace }),
    ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
  };
  return {
    object: {
      apiVersion,
      kind,
      name: name === '' ? undefined : name,
      namespace,
      value: { apiVersion, kind, metadata, ...(spec === undefined ? {} : { spec }) },
      node: undefined,
      path: [],
    },
    label: text,
  };
}

const wave = (value: string): Record<string, string> => ({ 'argocd.argoproj.io/sync-wave': value });

const rows: { name: string; controller: GitopsController; input: Item[]; expected: string[] }[] = [
  {
    name: 'Argo CD: wave, then kind order, then name (gitops-engine sync_tasks_test.go sortedTasks, Sync phase rows)',
    controller: 'Argo CD',
    input: [
      item('v1 ConfigMap x', wave('1')),
      item('example.com/v1 Widget b'),
      item('v1 Pod p'),
      item('example.com/v1 Widget a'),
      item('v1 Service s'),
      item('v1 PersistentVolume v'),
      item('v1 ConfigMap c'),
      item('v1 Secret w', wave('-1')),
    ],
    expected: [
      'v1 Secret w',
      'v1 ConfigMap c',
      'v1 PersistentVolume v',
      'v1 Service s',
      'v1 Pod p',
      'example.com/v1 Widget a',
      'example.com/v1 Widget b',
      'v1 ConfigMap x',
    ],
  },
  {
    name: 'Argo CD: PreSync hooks first, PostSync and SyncFail hooks last, whatever their wave (sync_tasks_test.go sortedTasks, phase rows)',
    controller: 'Argo CD',
    input: [
      item('batch/v1 Job fail', { 'argocd.argoproj.io/hook': 'SyncFail' }),
      item('batch/v1 Job after', { 'argocd.argoproj.io/hook': 'PostSync', ...wave('-5') }),
      item('apps/v1 Deployment web', wave('3')),
      item('batch/v1 Job migrate', { 'argocd.argoproj.io/hook': 'PreSync', ...wave('9') }),
      item('batch/v1 Job both', { 'argocd.argoproj.io/hook': 'PostSync, PreSync' }),
    ],
    expected: [
      'batch/v1 Job both',
      'batch/v1 Job migrate',
      'apps/v1 Deployment web',
      'batch/v1 Job after',
      'batch/v1 Job fail',
    ],
  },
  {
    name: "Argo CD: Helm hooks by phase, then by their weight as a wave (hook/helm/type.go, syncwaves; argocd-example-apps' helm-hooks)",
    controller: 'Argo CD',
    input: [
      item('batch/v1 Job after', { 'helm.sh/hook': 'post-install' }),
      item('apps/v1 Deployment web', { 'helm.sh/hook-weight': '5' }),
      item('v1 ConfigMap b', { 'helm.sh/hook': 'pre-install', 'helm.sh/hook-weight': '-1' }),
      item('v1 Secret a', { 'helm.sh/hook': 'pre-upgrade,pre-install', 'helm.sh/hook-weight': '-2' }),
    ],
    expected: ['v1 Secret a', 'v1 ConfigMap b', 'apps/v1 Deployment web', 'batch/v1 Job after'],
  },
  {
    name: 'Argo CD: a Namespace before a kind it does not list (TestSyncNamespaceAgainstCRD)',
    controller: 'Argo CD',
    input: [item('argoproj.io/v1alpha1 Workflow w'), item('v1 Namespace n')],
    expected: ['v1 Namespace n', 'argoproj.io/v1alpha1 Workflow w'],
  },
  {
    name: 'Argo CD: a Namespace of a later wave is moved before the first object in it (TestSyncTasksSort_NamespaceAndObjectInNamespace)',
    controller: 'Argo CD',
    input: [
      item('batch/v1 Job myNamespace1/mySyncHookJob1'),
      item('batch/v1 Job myNamespace2/mySyncHookJob2'),
      item('v1 Namespace myNamespace1', wave('1')),
      item('v1 Namespace myNamespace2', wave('2')),
    ],
    expected: [
      'v1 Namespace myNamespace1',
      'batch/v1 Job myNamespace1/mySyncHookJob1',
      'v1 Namespace myNamespace2',
      'batch/v1 Job myNamespace2/mySyncHookJob2',
    ],
  },
  {
    name: 'Argo CD: a CustomResourceDefinition of a later wave is moved before its objects (TestSyncTasksSort_CRDAndCR)',
    controller: 'Argo CD',
    input: [
      item('argoproj.io/v1 Workflow w'),
      item('apiextensions.k8s.io/v1 CustomResourceDefinition workflows.argoproj.io', wave('5'), {
        group: 'argoproj.io',
        names: { kind: 'Workflow' },
      }),
    ],
    expected: [
      'apiextensions.k8s.io/v1 CustomResourceDefinition workflows.argoproj.io',
      'argoproj.io/v1 Workflow w',
    ],
  },
  {
    name: "Argo CD: a wave that is not an integer, or past Go's int, counts as 0 (syncwaves: strconv.Atoi fails)",
    controller: 'Argo CD',
    input: [
      item('v1 ConfigMap b', wave('first')),
      item('v1 ConfigMap a', wave('1')),
      item('v1 ConfigMap d', wave('9223372036854775808')),
      item('v1 ConfigMap e', wave('9223372036854775807')),
      item('v1 ConfigMap c'),
    ],
    expected: ['v1 ConfigMap b', 'v1 ConfigMap c', 'v1 ConfigMap d', 'v1 ConfigMap a', 'v1 ConfigMap e'],
  },
  {
    name: 'Flux: cluster definitions, then classes, then the rest, each by ReconcileOrder (ssa ApplyAllStaged, sort.go)',
    controller: 'Flux',
    input: [
      item('admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration hook'),
      item('apps/v1 Deployment web/api'),
      item('example.com/v1 Widget web/w'),
      item('v1 ConfigMap web/settings'),
      item('storage.k8s.io/v1 StorageClass fast'),
      item('rbac.authorization.k8s.io/v1 ClusterRole reader'),
      item('v1 Namespace web'),
      item('apiextensions.k8s.io/v1 CustomResourceDefinition widgets.example.com'),
      item('v1 LimitRange web/limits'),
    ],
    expected: [
      'apiextensions.k8s.io/v1 CustomResourceDefinition widgets.example.com',
      'v1 Namespace web',
      'rbac.authorization.k8s.io/v1 ClusterRole reader',
      'storage.k8s.io/v1 StorageClass fast',
      'v1 ConfigMap web/settings',
      'v1 LimitRange web/limits',
      'apps/v1 Deployment web/api',
      'example.com/v1 Widget web/w',
      'admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration hook',
    ],
  },
  {
    name: 'Flux: one kind by namespace, then name, whatever the input order (sort.go less)',
    controller: 'Flux',
    input: [
      item('apps/v1 Deployment b/web'),
      item('apps/v1 Deployment a/zeta'),
      item('apps/v1 Deployment a/alpha'),
    ],
    expected: ['apps/v1 Deployment a/alpha', 'apps/v1 Deployment a/zeta', 'apps/v1 Deployment b/web'],
  },
  {
    name: 'Flux: kinds it does not list are ordered by API group, then kind (sort.go IsLessThan)',
    controller: 'Flux',
    input: [
      item('b.example.com/v1 Alpha x'),
      item('a.example.com/v1 Zeta x'),
      item('a.example.com/v1 Beta x'),
    ],
    expected: ['a.example.com/v1 Beta x', 'a.example.com/v1 Zeta x', 'b.example.com/v1 Alpha x'],
  },
];

describe('inGitopsOrder', () => {
  for (const row of rows) {
    test(row.name, () => {
      assert.deepEqual(
        inGitopsOrder(row.controller, row.input).map((entry) => entry.label),
        row.expected,
      );
    });
  }
});
