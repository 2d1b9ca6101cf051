import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { expandWorkloads } from '../../../server/src/engine/workloads';
import { appsWorkload, inputs, metadataOf, node, podTemplate, specOf } from './builders';

const NOT_READY = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' };

interface Case {
  readonly name: string;
  readonly templateSpec?: Record<string, unknown>;
  readonly nodes: readonly Record<string, unknown>[];
  /** The nodes that get a pod, in order. */
  readonly nodeNames: readonly string[];
}

const controlPlane = node('cp', { 'node-role.kubernetes.io/control-plane': '' }, [
  { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
]);
const gpu = node('gpu', { accelerator: 'nvidia' }, [
  { key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' },
]);

const CASES: readonly Case[] = [
  {
    name: 'a DaemonSet gets one pod per untainted node',
    nodes: [node('a'), node('b'), node('c')],
    nodeNames: ['a', 'b', 'c'],
  },
  {
    name: 'a DaemonSet skips a node with a NoSchedule taint it does not tolerate',
    nodes: [node('a'), controlPlane],
    nodeNames: ['a'],
  },
  {
    name: 'a DaemonSet that tolerates a taint runs on that node',
    templateSpec: { tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }] },
    nodes: [node('a'), controlPlane],
    nodeNames: ['a', 'cp'],
  },
  {
    name: 'a toleration must match the taint value under the Equal operator',
    templateSpec: {
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Equal', value: 'absent', effect: 'NoSchedule' }],
    },
    nodes: [gpu],
    nodeNames: [],
  },
  {
    name: 'a toleration with an empty operator compares values as Equal',
    templateSpec: { tolerations: [{ key: 'nvidia.com/gpu', value: 'present' }] },
    nodes: [gpu],
    nodeNames: ['gpu'],
  },
  {
    name: 'a PreferNoSchedule taint does not keep daemon pods away',
    nodes: [node('a', {}, [{ key: 'soft', effect: 'PreferNoSchedule' }])],
    nodeNames: ['a'],
  },
  {
    name: 'a NoExecute taint keeps daemon pods away unless tolerated',
    nodes: [node('a', {}, [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }])],
    nodeNames: [],
  },
  {
    name: 'daemon pods tolerate the node condition taints the controller adds tolerations for',
    nodes: [
      node('a', {}, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }]),
      node('b', {}, [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]),
      node('c', {}, [{ key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' }]),
      node('d', {}, [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }]),
    ],
    nodeNames: ['a', 'b', 'c'],
  },
  {
    name: 'a hostNetwork DaemonSet also tolerates network-unavailable',
    templateSpec: { hostNetwork: true },
    nodes: [node('d', {}, [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }])],
    nodeNames: ['d'],
  },
  {
    name: 'a nodeSelector restricts the DaemonSet to matching nodes',
    templateSpec: { nodeSelector: { accelerator: 'nvidia' } },
    nodes: [node('a'), node('gpu2', { accelerator: 'nvidia' })],
    nodeNames: ['gpu2'],
  },
  {
    name: 'required node affinity terms are ORed and their expressions ANDed',
    templateSpec: {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'zone', operator: 'In', values: ['z1'] },
                  { key: 'disk', operator: 'Exists' },
                ],
              },
              { matchExpressions: [{ key: 'role', operator: 'NotIn', values: ['edge', 'infra'] }] },
            ],
          },
        },
      },
    },
    nodes: [
      node('z1-ssd', { zone: 'z1', disk: 'ssd', role: 'edge' }),
      node('z1-nodisk', { zone: 'z1', role: 'infra' }),
      node('worker', { role: 'worker' }),
    ],
    nodeNames: ['z1-ssd', 'worker'],
  },
  {
    name: 'Gt and Lt compare label values as integers',
    templateSpec: {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['8'] }] }],
          },
        },
      },
    },
    nodes: [node('small', { cores: '4' }), node('big', { cores: '16' }), node('odd', { cores: 'many' })],
    nodeNames: ['big'],
  },
  {
    name: 'matchFields on metadata.name selects nodes by name',
    templateSpec: {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['b'] }] },
            ],
          },
        },
      },
    },
    nodes: [node('a'), node('b'), node('c')],
    nodeNames: ['a', 'c'],
  },
  {
    name: 'an empty node selector term matches no node',
    templateSpec: {
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{}] } },
      },
    },
    nodes: [node('a')],
    nodeNames: [],
  },
  {
    name: 'a template nodeName limits the DaemonSet to that node',
    templateSpec: { nodeName: 'b' },
    nodes: [node('a'), node('b')],
    nodeNames: ['b'],
  },
  { name: 'a cluster without nodes gets no daemon pod', nodes: [], nodeNames: [] },
];

function daemonSet(templateSpec: Record<string, unknown> = {}): Record<string, unknown> {
  return appsWorkload('DaemonSet', 'agent', { template: podTemplate({ app: 'agent' }, templateSpec) });
}

function pinnedNode(spec: Record<string, unknown>): unknown {
  const affinity = spec['affinity'] as {
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: unknown };
  };
  const required = affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution as {
    nodeSelectorTerms: { matchFields: { values: string[] }[] }[];
  };
  return required.nodeSelectorTerms[0]?.matchFields[0]?.values[0];
}

void describe('DaemonSets', () => {
  for (const testCase of CASES) {
    void test(testCase.name, () => {
      const { pods } = expandWorkloads(inputs(daemonSet(testCase.templateSpec)), { nodes: testCase.nodes });
      assert.deepEqual(
        pods.map((p) => pinnedNode(specOf(p.pod))),
        testCase.nodeNames,
      );
    });
  }

  void test('daemon pods get the controller tolerations, in order, after the template’s own', () => {
    const own = { key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' };
    const { pods } = expandWorkloads(inputs(daemonSet({ tolerations: [own] })), { nodes: [node('a')] });
    assert.deepEqual(specOf(pods[0]!.pod)['tolerations'], [
      own,
      NOT_READY,
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });

  void test('a template toleration equal but for tolerationSeconds is replaced in place', () => {
    const timed = { ...NOT_READY, tolerationSeconds: 300 };
    const { pods } = expandWorkloads(inputs(daemonSet({ tolerations: [timed] })), { nodes: [node('a')] });
    const tolerations = specOf(pods[0]!.pod)['tolerations'] as unknown[];
    assert.deepEqual(tolerations[0], NOT_READY);
    assert.equal(tolerations.length, 6);
  });

  void test('the pinning replaces the template’s required node affinity but keeps preferences', () => {
    const preferred = [
      { weight: 1, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1'] }] } },
    ];
    const templateSpec = {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] },
            ],
          },
          preferredDuringSchedulingIgnoredDuringExecution: preferred,
        },
      },
    };
    const { pods } = expandWorkloads(inputs(daemonSet(templateSpec)), {
      nodes: [node('a', { 'kubernetes.io/os': 'linux' })],
    });
    assert.deepEqual(specOf(pods[0]!.pod)['affinity'], {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a'] }] }],
        },
        preferredDuringSchedulingIgnoredDuringExecution: preferred,
      },
    });
  });

  void test('daemon pods are named <daemonset>-<suffix> and labelled with the revision hash and generation', () => {
    const { pods } = expandWorkloads(inputs(daemonSet()), { nodes: [node('a'), node('b')] });
    const metadata = metadataOf(pods[0]!.pod);
    assert.match(metadata.name, /^agent-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(metadata.generateName, 'agent-');
    assert.match(metadata.labels['controller-revision-hash'] ?? '', /^[bcdfghjklmnpqrstvwxz2456789]{9,10}$/);
    assert.equal(metadata.labels['pod-template-generation'], '1');
    assert.equal(metadata.ownerReferences[0]?.kind, 'DaemonSet');
    assert.deepEqual(
      pods.map((p) => p.replicaIndex),
      [0, 1],
    );
    assert.equal(specOf(pods[0]!.pod)['nodeName'], undefined);
  });

  void test('a DaemonSet that no node takes is explained, naming the refused nodes', () => {
    const result = expandWorkloads(inputs(daemonSet()), { nodes: [controlPlane] });
    assert.equal(result.findings[0]?.code, 'daemonset-no-eligible-node');
    assert.equal(result.findings[0]?.severity, 'information');
    assert.equal(
      result.findings[0]?.message,
      'DaemonSet "agent" creates no pod: none of the 1 node(s) is eligible ' +
        '(cp: the taint node-role.kubernetes.io/control-plane:NoSchedule is not tolerated)',
    );
  });

  void test('a DaemonSet with a selector mismatch is rejected before nodes are considered', () => {
    const object = appsWorkload('DaemonSet', 'agent', { selector: { matchLabels: { app: 'x' } } });
    const result = expandWorkloads(inputs(object), { nodes: [node('a')] });
    assert.equal(result.pods.length, 0);
    assert.deepEqual(
      result.findings.map((f) => f.code),
      ['workload-selector-mismatch'],
    );
  });
});
