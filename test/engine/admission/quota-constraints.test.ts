import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resourceQuotaPlugin } from '../../../server/src/engine/admission/plugins/resource-quota';

// A quota on cpu or memory makes every container state them (podEvaluator.Constraints). The refusal names, for each
// missing resource, the containers that lack it (kubernetes PR #107210). Rows follow TestPodConstraintsFunc in
// pkg/quota/v1/evaluator/core/pods_test.go, each named after its case; the quota's hard list is the test's
// `required`.

const CPU_ONLY = { requests: { cpu: '1m' }, limits: { cpu: '2m' } };

function container(name: string, resources: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, image: 'busybox', resources };
}

const rows: {
  name: string;
  required: readonly string[];
  spec: Record<string, unknown>;
  expected: string | null;
}[] = [
  {
    name: 'init container resource missing',
    required: ['memory'],
    spec: { initContainers: [container('dummy', CPU_ONLY)], containers: [] },
    expected: 'failed quota: q: must specify memory for: dummy',
  },
  {
    name: 'multiple init container resource missing',
    required: ['memory'],
    spec: { initContainers: [container('foo', CPU_ONLY), container('bar', CPU_ONLY)], containers: [] },
    expected: 'failed quota: q: must specify memory for: bar,foo',
  },
  {
    name: 'container resource missing',
    required: ['memory'],
    spec: { containers: [container('dummy', CPU_ONLY)] },
    expected: 'failed quota: q: must specify memory for: dummy',
  },
  {
    name: 'multiple container resource missing',
    required: ['memory'],
    spec: { containers: [container('foo', CPU_ONLY), container('bar', CPU_ONLY)] },
    expected: 'failed quota: q: must specify memory for: bar,foo',
  },
  {
    name: 'container resource missing multiple',
    required: ['memory', 'cpu'],
    spec: { containers: [container('foo'), container('bar')] },
    expected: 'failed quota: q: must specify cpu for: bar,foo; memory for: bar,foo',
  },
  {
    name: 'pod-level resource set, container-level required resources missing',
    required: ['memory', 'cpu'],
    spec: { resources: { requests: { cpu: '1m' } }, containers: [container('foo'), container('bar')] },
    expected: null,
  },
  {
    name: 'a limit alone stands for the request (defaulted before admission), not the other way round',
    required: ['requests.cpu', 'limits.cpu'],
    spec: {
      containers: [container('app', { limits: { cpu: '1' } }), container('side', { requests: { cpu: '1' } })],
    },
    expected: 'failed quota: q: must specify limits.cpu for: side',
  },
];

describe('ResourceQuota constraints (TestPodConstraintsFunc)', () => {
  for (const row of rows) {
    test(row.name, () => {
      const hard = Object.fromEntries(row.required.map((name) => [name, '10']));
      const plugin = resourceQuotaPlugin(
        new Map([['default', [{ name: 'q', hard, selectors: [] }]]]),
        () => [],
        true,
      );
      const refusal = plugin.validate?.({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: 'default' },
        spec: row.spec,
      });
      assert.equal(refusal?.reason ?? null, row.expected);
    });
  }
});
