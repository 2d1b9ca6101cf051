import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getAnalysisContext } from '../../support/language-service';
import { analyzeText } from '../../../server/src/language/analyzer';
import { readManifests } from '../../../server/src/language/manifests/read-manifests';
import { namespaceMismatchMessage } from '../../../server/src/language/manifests/apply-namespace';

// `kubectl apply -n NS`: cli-runtime's RequireNamespace visitor (staging/src/k8s.io/cli-runtime/pkg/resource/
// visitor.go) over the one manifest reader's objects.

const context = getAnalysisContext('1.35', 8 * 2 ** 20);

function read(text: string, namespace = 'shop'): ReturnType<typeof readManifests> {
  return readManifests([{ id: 'a.yaml', analysis: analyzeText(text, context) }], { namespace });
}

const placed = (result: ReturnType<typeof readManifests>): string[] =>
  result.objects.map(({ object }) => {
    const { kind, metadata } = object as { kind: string; metadata: { name?: string; namespace?: string } };
    return `${kind}/${metadata.namespace ?? '-'}/${metadata.name ?? '-'}`;
  });

const object = (apiVersion: string, kind: string, name: string, namespace?: string): string =>
  `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${name}\n` +
  (namespace === undefined ? '' : `  namespace: ${namespace}\n`);

const CART_CRD = (scope: string): string =>
  'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: carts.shop.example.com\n' +
  `spec:\n  group: shop.example.com\n  names: {kind: Cart, plural: carts}\n  scope: ${scope}\n` +
  '  versions:\n    - name: v1\n      served: true\n      storage: true\n' +
  '      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}\n';

describe('kubectl apply -n: RequireNamespace', () => {
  const cases: { name: string; text: string; objects: string[]; refused: string[] }[] = [
    {
      name: 'a namespaced object without a namespace is put in the namespace of -n (UpdateObjectNamespace)',
      text: object('apps/v1', 'Deployment', 'web'),
      objects: ['Deployment/shop/web'],
      refused: [],
    },
    {
      name: 'an object naming the namespace of -n is applied as written',
      text: object('v1', 'ConfigMap', 'web', 'shop'),
      objects: ['ConfigMap/shop/web'],
      refused: [],
    },
    {
      name: 'an object naming another namespace is refused with kubectl error and left out; the rest is applied',
      text: `${object('v1', 'ConfigMap', 'web', 'default')}---\n${object('v1', 'Secret', 'key')}`,
      objects: ['Secret/shop/key'],
      refused: ['default'],
    },
    {
      name: 'a cluster-scoped object is unaffected, whatever namespace it names (!info.Namespaced())',
      text: `${object('rbac.authorization.k8s.io/v1', 'ClusterRole', 'view')}---\n${object('v1', 'Namespace', 'x', 'other')}`,
      objects: ['ClusterRole/-/view', 'Namespace/other/x'],
      refused: [],
    },
    {
      name: 'items of a List are visited one by one',
      text: `apiVersion: v1\nkind: List\nitems:\n  - ${object('v1', 'ConfigMap', 'a').replace(/\n(?=.)/g, '\n    ')}  - ${object('v1', 'ConfigMap', 'b', 'other').replace(/\n(?=.)/g, '\n    ')}`,
      objects: ['ConfigMap/shop/a'],
      refused: ['other'],
    },
    {
      name: 'a custom kind whose CRD in the input says Namespaced is put in the namespace',
      text: `${CART_CRD('Namespaced')}---\n${object('shop.example.com/v1', 'Cart', 'c')}`,
      objects: ['CustomResourceDefinition/-/carts.shop.example.com', 'Cart/shop/c'],
      refused: [],
    },
    {
      name: 'a custom kind whose CRD says Cluster is unaffected',
      text: `${CART_CRD('Cluster')}---\n${object('shop.example.com/v1', 'Cart', 'c', 'other')}`,
      objects: ['CustomResourceDefinition/-/carts.shop.example.com', 'Cart/other/c'],
      refused: [],
    },
    {
      name: 'a custom kind of a k8s.io group served by CRDs (Gateway API) with no CRD in the input is read as written',
      text: object('gateway.networking.k8s.io/v1', 'GatewayClass', 'internal'),
      objects: ['GatewayClass/-/internal'],
      refused: [],
    },
  ];
  for (const entry of cases) {
    test(entry.name, () => {
      const result = read(entry.text);
      assert.deepEqual(placed(result), entry.objects);
      assert.deepEqual(
        result.findings.map((finding) => [finding.code, finding.severity, finding.path, finding.message]),
        entry.refused.map((namespace) => [
          'namespace-mismatch',
          'error',
          ['metadata', 'namespace'],
          namespaceMismatchMessage(namespace, 'shop'),
        ]),
      );
    });
  }

  test('the message is kubectl’s, word for word (RequireNamespace, as cmdutil.CheckErr prints it)', () => {
    assert.equal(
      namespaceMismatchMessage('argocd', 'default'),
      `error: the namespace from the provided object "argocd" does not match the namespace "default". You must pass '--namespace=argocd' to perform this operation.`,
    );
  });

  test('an object without a namespace and one naming the namespace of -n are the same object', () => {
    const result = read(
      `${object('v1', 'ConfigMap', 'web')}---\n${object('v1', 'ConfigMap', 'web', 'shop')}`,
    );
    assert.deepEqual(placed(result), ['ConfigMap/shop/web']);
    assert.deepEqual(
      result.findings.map((finding) => finding.code),
      ['duplicate-object'],
    );
  });

  test('without -n nothing is changed: no namespace is read as written', () => {
    const result = readManifests([
      { id: 'a.yaml', analysis: analyzeText(object('v1', 'ConfigMap', 'web', 'other'), context) },
    ]);
    assert.deepEqual(placed(result), ['ConfigMap/other/web']);
    assert.deepEqual(result.findings, []);
  });
});
