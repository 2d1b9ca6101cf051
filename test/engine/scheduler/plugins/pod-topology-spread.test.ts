import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../../server/src/engine/model/snapshot/cluster';
import { ClusterObjects } from '../../../../server/src/engine/model/snapshot/cluster-objects';
import type { NodeInfo } from '../../../../server/src/engine/model/snapshot/node-info';
import { loadPod } from '../../../../server/src/engine/model/load/pod-load';
import type { PodInfo } from '../../../../server/src/engine/model/snapshot/pod-info';
import { systemPriorityClasses } from '../../../../server/src/engine/model/load/priority';
import { CycleState } from '../../../../server/src/engine/scheduler/framework/cycle-state';
import type { NodeScore, SchedulerPlugin } from '../../../../server/src/engine/scheduler/framework/plugin';
import { SUCCESS } from '../../../../server/src/engine/scheduler/framework/status';
import {
  REASON_CONSTRAINTS_NOT_MATCH,
  REASON_NODE_LABEL_NOT_MATCH,
  createPodTopologySpread,
} from '../../../../server/src/engine/scheduler/plugins/pod-topology-spread';
import { simulate } from '../../../../server/src/engine/simulate/simulate';
import { makeNode, withPods } from '../builders';
import type { Finding } from '../../../../protocol/finding';

// Cases of upstream TestSingleConstraint, TestMultipleConstraints, TestPreFilterStateRemovePod and
// TestPodTopologySpreadScore (pkg/scheduler/framework/plugins/podtopologyspread/*_test.go), with their expected
// statuses and scores. Nodes carry the labels the upstream cases give them (plus kubernetes.io/hostname).

type Labels = Record<string, string>;

const FOO = { matchExpressions: [{ key: 'foo', operator: 'Exists' }] };
const BAR = { matchExpressions: [{ key: 'bar', operator: 'Exists' }] };
const TAINT = [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }];

function constraint(
  maxSkew: number,
  topologyKey: string,
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway',
  labelSelector: unknown,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { maxSkew, topologyKey, whenUnsatisfiable, labelSelector, ...extra };
}

/** A pod with labels, a namespace and a spec; `ownerReferences` in `metadata` when given. */
function pod(
  name: string,
  labels: Labels,
  spec: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): PodInfo {
  const findings: Finding[] = [];
  const object = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels, ...metadata },
    spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
  };
  const context = { version: '1.35' as const, priorityClasses: systemPriorityClasses(), findings };
  const info = loadPod(object, { file: 'test', documentIndex: 0, path: [] }, null, context, true);
  assert.ok(info !== null && findings.length === 0);
  return info;
}

/** Nodes from [name, labels] and existing pods from [name, node, labels, namespace?]. */
function cluster(
  nodes: readonly (readonly [string, Labels, boolean?])[],
  pods: readonly (readonly [string, string, Labels, string?])[] = [],
  objects: ClusterObjects = new ClusterObjects(),
): Cluster {
  const infos = nodes.map(([name, labels, tainted]) =>
    makeNode(name, { labels, taints: tainted ? TAINT : [] }),
  );
  for (const [name, nodeName, labels, namespace] of pods) {
    const node = infos.find((info) => info.name === nodeName) as NodeInfo;
    withPods(node, [pod(name, labels, {}, namespace === undefined ? {} : { namespace })]);
  }
  return new Cluster(infos, systemPriorityClasses(), new Map(), 'test', objects);
}

function plugin(on: Cluster, args?: unknown): SchedulerPlugin {
  return createPodTopologySpread({
    args,
    version: '1.35',
    handle: {
      cluster: on,
      runFilterPlugins: () => SUCCESS,
      runPreFilterExtensionAddPod: () => SUCCESS,
      runPreFilterExtensionRemovePod: () => SUCCESS,
    },
    reportArgsProblem: (message) => assert.fail(message),
  });
}

/** Filter outcome per node: 'fits', or the status code and messages. */
function filterAll(on: Cluster, incoming: PodInfo, args?: unknown): Record<string, string> {
  const spread = plugin(on, args);
  const state = new CycleState();
  const preFilter = spread.preFilter?.(state, incoming, on.nodes);
  const outcome: Record<string, string> = {};
  for (const node of on.nodes) {
    if (preFilter?.status.code === 'Skip') {
      outcome[node.name] = 'skip';
      continue;
    }
    const status = spread.filter?.(state, incoming, node) ?? SUCCESS;
    outcome[node.name] =
      status.code === 'Success'
        ? 'fits'
        : `${status.code}: ${status.reasons.map((r) => r.message).join(', ')}`;
  }
  return outcome;
}

const SKEW = `Unschedulable: ${REASON_CONSTRAINTS_NOT_MATCH.message}`;
const MISSING = `UnschedulableAndUnresolvable: ${REASON_NODE_LABEL_NOT_MATCH.message}`;

const ZONES: readonly (readonly [string, Labels])[] = [
  ['node-a', { zone: 'zone1', node: 'node-a' }],
  ['node-b', { zone: 'zone1', node: 'node-b' }],
  ['node-x', { zone: 'zone2', node: 'node-x' }],
  ['node-y', { zone: 'zone2', node: 'node-y' }],
];
const FOO_2_1_0_3: readonly (readonly [string, string, Labels])[] = [
  ['p-a1', 'node-a', { foo: '' }],
  ['p-a2', 'node-a', { foo: '' }],
  ['p-b1', 'node-b', { foo: '' }],
  ['p-y1', 'node-y', { foo: '' }],
  ['p-y2', 'node-y', { foo: '' }],
  ['p-y3', 'node-y', { foo: '' }],
];

describe('PodTopologySpread reasons', () => {
  test('the reasons carry kube-scheduler exact wording', () => {
    assert.equal(
      REASON_CONSTRAINTS_NOT_MATCH.message,
      "node(s) didn't match pod topology spread constraints",
    );
    assert.equal(
      REASON_NODE_LABEL_NOT_MATCH.message,
      "node(s) didn't match pod topology spread constraints (missing required label)",
    );
  });
});

describe('PodTopologySpread Filter (DoNotSchedule)', () => {
  const CASES: readonly {
    name: string;
    nodes: readonly (readonly [string, Labels, boolean?])[];
    pods: readonly (readonly [string, string, Labels, string?])[];
    incoming: PodInfo;
    want: Record<string, string>;
  }[] = [
    {
      name: 'with no existing pods every node fits',
      nodes: ZONES,
      pods: [],
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, 'zone', 'DoNotSchedule', FOO)] },
      ),
      want: { 'node-a': 'fits', 'node-b': 'fits', 'node-x': 'fits', 'node-y': 'fits' },
    },
    {
      name: 'existing pods of other namespaces do not count',
      nodes: ZONES,
      pods: [
        ['p-a1', 'node-a', { foo: '' }, 'ns1'],
        ['p-b1', 'node-a', { foo: '' }, 'ns2'],
        ['p-x1', 'node-x', { foo: '' }],
        ['p-y1', 'node-y', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, 'zone', 'DoNotSchedule', FOO)] },
      ),
      want: { 'node-a': 'fits', 'node-b': 'fits', 'node-x': SKEW, 'node-y': SKEW },
    },
    {
      name: 'a null labelSelector matches no existing pod',
      nodes: ZONES,
      pods: [
        ['p-x1', 'node-x', { foo: '' }],
        ['p-y1', 'node-y', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, 'zone', 'DoNotSchedule', null)] },
      ),
      want: { 'node-a': 'fits', 'node-b': 'fits', 'node-x': 'fits', 'node-y': 'fits' },
    },
    {
      name: 'pods spread 3/3 over two zones: every node fits',
      nodes: ZONES,
      pods: FOO_2_1_0_3,
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, 'zone', 'DoNotSchedule', FOO)] },
      ),
      want: { 'node-a': 'fits', 'node-b': 'fits', 'node-x': 'fits', 'node-y': 'fits' },
    },
    {
      name: 'a node without the topology key is unresolvable and its pods are not counted (1/2)',
      nodes: [
        ['node-a', { zone: 'zone1', node: 'node-a' }],
        ['node-b', { zon: 'zone1', node: 'node-b' }],
        ['node-x', { zone: 'zone2', node: 'node-x' }],
        ['node-y', { zone: 'zone2', node: 'node-y' }],
      ],
      pods: [
        ['p-a1', 'node-a', { foo: '' }],
        ['p-b1', 'node-b', { foo: '' }],
        ['p-x1', 'node-x', { foo: '' }],
        ['p-y1', 'node-y', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, 'zone', 'DoNotSchedule', FOO)] },
      ),
      want: { 'node-a': 'fits', 'node-b': MISSING, 'node-x': SKEW, 'node-y': SKEW },
    },
    {
      name: 'no node has the key "rack": every node is unresolvable',
      nodes: [ZONES[0] as [string, Labels], ZONES[2] as [string, Labels]],
      pods: [],
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, 'rack', 'DoNotSchedule', FOO)] },
      ),
      want: { 'node-a': MISSING, 'node-x': MISSING },
    },
    {
      name: 'pods spread 2/1/0/3 over nodes with maxSkew 1: only the empty node fits',
      nodes: ZONES,
      pods: FOO_2_1_0_3,
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, 'node', 'DoNotSchedule', FOO)] },
      ),
      want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': 'fits', 'node-y': SKEW },
    },
    {
      name: 'pods spread 2/1/0/3 with maxSkew 2: node-b and node-x fit',
      nodes: ZONES,
      pods: FOO_2_1_0_3,
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(2, 'node', 'DoNotSchedule', FOO)] },
      ),
      want: { 'node-a': SKEW, 'node-b': 'fits', 'node-x': 'fits', 'node-y': SKEW },
    },
    {
      name: 'a pod that does not match its own selector adds nothing to the skew',
      nodes: ZONES,
      pods: FOO_2_1_0_3,
      incoming: pod(
        'p',
        { bar: '' },
        { topologySpreadConstraints: [constraint(1, 'node', 'DoNotSchedule', FOO)] },
      ),
      want: { 'node-a': SKEW, 'node-b': 'fits', 'node-x': 'fits', 'node-y': SKEW },
    },
    {
      name: 'with node affinity to node-a and node-y only those count (2/~1~/~0~/3): node-a fits',
      nodes: ZONES,
      pods: FOO_2_1_0_3,
      incoming: pod(
        'p',
        { foo: '' },
        {
          affinity: nodeAffinityIn('node', ['node-a', 'node-y']),
          topologySpreadConstraints: [constraint(1, 'node', 'DoNotSchedule', FOO)],
        },
      ),
      want: { 'node-a': 'fits', 'node-b': 'fits', 'node-x': 'fits', 'node-y': SKEW },
    },
    {
      name: 'fewer domains (3) than minDomains (4) make the global minimum 0: only the node with 1 pod fits maxSkew 2',
      nodes: [
        ['node-a', { node: 'node-a' }],
        ['node-b', { node: 'node-b' }],
        ['node-c', { node: 'node-c' }],
      ],
      pods: [
        ['p-a1', 'node-a', { foo: '' }],
        ['p-a2', 'node-a', { foo: '' }],
        ['p-b1', 'node-b', { foo: '' }],
        ['p-b2', 'node-b', { foo: '' }],
        ['p-c1', 'node-c', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        {
          topologySpreadConstraints: [constraint(2, 'node', 'DoNotSchedule', FOO, { minDomains: 4 })],
        },
      ),
      want: { 'node-a': SKEW, 'node-b': SKEW, 'node-c': 'fits' },
    },
    {
      name: 'more domains than minDomains keep the real global minimum: every node fits maxSkew 2',
      nodes: [
        ['node-a', { node: 'node-a' }],
        ['node-b', { node: 'node-b' }],
        ['node-c', { node: 'node-c' }],
      ],
      pods: [
        ['p-a1', 'node-a', { foo: '' }],
        ['p-a2', 'node-a', { foo: '' }],
        ['p-b1', 'node-b', { foo: '' }],
        ['p-b2', 'node-b', { foo: '' }],
        ['p-c1', 'node-c', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        {
          topologySpreadConstraints: [constraint(2, 'node', 'DoNotSchedule', FOO, { minDomains: 2 })],
        },
      ),
      want: { 'node-a': 'fits', 'node-b': 'fits', 'node-c': 'fits' },
    },
    {
      name: 'nodeAffinityPolicy Honor leaves nodes outside the nodeSelector out of the counts (1/1/0/~1~)',
      nodes: [
        ['node-a', { node: 'node-a', foo: '' }],
        ['node-b', { node: 'node-b', foo: '' }],
        ['node-x', { node: 'node-x', foo: '' }],
        ['node-y', { node: 'node-y' }],
      ],
      pods: [
        ['p-b1', 'node-a', { foo: '' }],
        ['p-b2', 'node-b', { foo: '' }],
        ['p-y1', 'node-y', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        {
          nodeSelector: { foo: '' },
          topologySpreadConstraints: [constraint(1, 'node', 'DoNotSchedule', FOO)],
        },
      ),
      want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': 'fits', 'node-y': 'fits' },
    },
    {
      name: 'nodeAffinityPolicy Ignore counts every node (1/1/0/1)',
      nodes: [
        ['node-a', { node: 'node-a', foo: '' }],
        ['node-b', { node: 'node-b', foo: '' }],
        ['node-x', { node: 'node-x', foo: '' }],
        ['node-y', { node: 'node-y' }],
      ],
      pods: [
        ['p-b1', 'node-a', { foo: '' }],
        ['p-b2', 'node-b', { foo: '' }],
        ['p-y1', 'node-y', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        {
          nodeSelector: { foo: '' },
          topologySpreadConstraints: [
            constraint(1, 'node', 'DoNotSchedule', FOO, { nodeAffinityPolicy: 'Ignore' }),
          ],
        },
      ),
      want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': 'fits', 'node-y': SKEW },
    },
    {
      name: 'nodeTaintsPolicy Honor leaves a tainted node out of the counts (1/1/0/~1~)',
      nodes: [
        ['node-a', { node: 'node-a', foo: '' }],
        ['node-b', { node: 'node-b', foo: '' }],
        ['node-x', { node: 'node-x', foo: '' }],
        ['node-y', { node: 'node-y' }, true],
      ],
      pods: [
        ['p-b1', 'node-a', { foo: '' }],
        ['p-b2', 'node-b', { foo: '' }],
        ['p-y1', 'node-y', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        {
          topologySpreadConstraints: [
            constraint(1, 'node', 'DoNotSchedule', FOO, { nodeTaintsPolicy: 'Honor' }),
          ],
        },
      ),
      want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': 'fits', 'node-y': 'fits' },
    },
    {
      name: 'nodeTaintsPolicy Ignore (the default) counts the tainted node (1/1/0/1)',
      nodes: [
        ['node-a', { node: 'node-a', foo: '' }],
        ['node-b', { node: 'node-b', foo: '' }],
        ['node-x', { node: 'node-x', foo: '' }],
        ['node-y', { node: 'node-y' }, true],
      ],
      pods: [
        ['p-b1', 'node-a', { foo: '' }],
        ['p-b2', 'node-b', { foo: '' }],
        ['p-y1', 'node-y', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, 'node', 'DoNotSchedule', FOO)] },
      ),
      want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': 'fits', 'node-y': SKEW },
    },
    {
      name: 'two constraints: zones spread 3/3 and nodes spread 2/1/0/3 leave only node-x',
      nodes: ZONES,
      pods: FOO_2_1_0_3,
      incoming: pod(
        'p',
        { foo: '' },
        {
          topologySpreadConstraints: [
            constraint(1, 'zone', 'DoNotSchedule', FOO),
            constraint(1, 'node', 'DoNotSchedule', FOO),
          ],
        },
      ),
      want: { 'node-a': SKEW, 'node-b': SKEW, 'node-x': 'fits', 'node-y': SKEW },
    },
    {
      name: 'matchLabelKeys narrow the selector to pods with the same label values',
      nodes: ZONES,
      pods: [
        ['p-a1', 'node-a', { foo: '', rev: 'old' }],
        ['p-a2', 'node-a', { foo: '', rev: 'old' }],
        ['p-x1', 'node-x', { foo: '', rev: 'new' }],
      ],
      incoming: pod(
        'p',
        { foo: '', rev: 'new' },
        {
          topologySpreadConstraints: [
            constraint(1, 'node', 'DoNotSchedule', FOO, { matchLabelKeys: ['rev'] }),
          ],
        },
      ),
      want: { 'node-a': 'fits', 'node-b': 'fits', 'node-x': SKEW, 'node-y': 'fits' },
    },
    {
      name: 'a pod with only ScheduleAnyway constraints skips the filter',
      nodes: ZONES,
      pods: FOO_2_1_0_3,
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, 'node', 'ScheduleAnyway', FOO)] },
      ),
      want: { 'node-a': 'skip', 'node-b': 'skip', 'node-x': 'skip', 'node-y': 'skip' },
    },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => {
      assert.deepEqual(filterAll(cluster(testCase.nodes, testCase.pods), testCase.incoming), testCase.want);
    });
  }

  test('zones spread 3/4 reject every zone2 node even where the node constraint would fit', () => {
    const on = cluster(ZONES, [...FOO_2_1_0_3, ['p-y4', 'node-y', { foo: '' }]]);
    const incoming = pod(
      'p',
      { foo: '' },
      {
        topologySpreadConstraints: [
          constraint(1, 'zone', 'DoNotSchedule', FOO),
          constraint(1, 'node', 'DoNotSchedule', FOO),
        ],
      },
    );
    assert.deepEqual(filterAll(on, incoming), {
      'node-a': SKEW,
      'node-b': SKEW,
      'node-x': SKEW,
      'node-y': SKEW,
    });
  });
});

function nodeAffinityIn(key: string, values: string[]): Record<string, unknown> {
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In', values }] }],
      },
    },
  };
}

/** Scores of the candidate nodes after PreScore, Score and NormalizeScore ('skip' when PreScore skips). */
function scoreAll(on: Cluster, incoming: PodInfo, candidates: readonly string[], args?: unknown) {
  const spread = plugin(on, args);
  const state = new CycleState();
  const feasible = on.nodes.filter((node) => candidates.includes(node.name));
  const status = spread.preScore?.(state, incoming, feasible);
  if (status?.code === 'Skip') {
    return 'skip';
  }
  const scores: NodeScore[] = feasible.map((node) => ({
    name: node.name,
    score: spread.score?.(state, incoming, node) ?? 0,
  }));
  spread.normalizeScore?.(state, incoming, scores);
  return Object.fromEntries(scores.map((entry) => [entry.name, entry.score]));
}

const HOSTS = ['node-a', 'node-b', 'node-c', 'node-d'].map((name) => [name, {}] as const);
const FOO_4_3_2_1: readonly (readonly [string, string, Labels])[] = [
  ['p-a1', 'node-a', { foo: '' }],
  ['p-a2', 'node-a', { foo: '' }],
  ['p-a3', 'node-a', { foo: '' }],
  ['p-a4', 'node-a', { foo: '' }],
  ['p-b1', 'node-b', { foo: '' }],
  ['p-b2', 'node-b', { foo: '' }],
  ['p-b3', 'node-b', { foo: '' }],
  ['p-c1', 'node-c', { foo: '' }],
  ['p-c2', 'node-c', { foo: '' }],
  ['p-d1', 'node-d', { foo: '' }],
];
const HOSTNAME = 'kubernetes.io/hostname';
const LIST = { defaultingType: 'List' };

describe('PodTopologySpread Score (ScheduleAnyway)', () => {
  const CASES: readonly {
    name: string;
    nodes: readonly (readonly [string, Labels])[];
    pods: readonly (readonly [string, string, Labels, string?])[];
    incoming: PodInfo;
    candidates: readonly string[];
    want: Record<string, number> | 'skip';
  }[] = [
    {
      name: 'with no existing pods every node scores 100',
      nodes: HOSTS.slice(0, 2),
      pods: [],
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, HOSTNAME, 'ScheduleAnyway', FOO)] },
      ),
      candidates: ['node-a', 'node-b'],
      want: { 'node-a': 100, 'node-b': 100 },
    },
    {
      name: 'matching pods spread 2/1/0/3 over four candidates score 20/60/100/0',
      nodes: HOSTS,
      pods: [
        ['p-a1', 'node-a', { foo: '' }],
        ['p-a2', 'node-a', { foo: '' }],
        ['p-b1', 'node-b', { foo: '' }],
        ['p-d1', 'node-d', { foo: '' }],
        ['p-d2', 'node-d', { foo: '' }],
        ['p-d3', 'node-d', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, HOSTNAME, 'ScheduleAnyway', FOO)] },
      ),
      candidates: ['node-a', 'node-b', 'node-c', 'node-d'],
      want: { 'node-a': 20, 'node-b': 60, 'node-c': 100, 'node-d': 0 },
    },
    {
      name: 'a larger maxSkew waters differences down (2/1/0/3, maxSkew 2: 33/66/100/16)',
      nodes: HOSTS,
      pods: [
        ['p-a1', 'node-a', { foo: '' }],
        ['p-a2', 'node-a', { foo: '' }],
        ['p-b1', 'node-b', { foo: '' }],
        ['p-d1', 'node-d', { foo: '' }],
        ['p-d2', 'node-d', { foo: '' }],
        ['p-d3', 'node-d', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(2, HOSTNAME, 'ScheduleAnyway', FOO)] },
      ),
      candidates: ['node-a', 'node-b', 'node-c', 'node-d'],
      want: { 'node-a': 33, 'node-b': 66, 'node-c': 100, 'node-d': 16 },
    },
    {
      name: 'maxSkew 3 over 4/3/2/1 scores 44/66/77/100',
      nodes: HOSTS,
      pods: FOO_4_3_2_1,
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(3, HOSTNAME, 'ScheduleAnyway', FOO)] },
      ),
      candidates: ['node-a', 'node-b', 'node-c', 'node-d'],
      want: { 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 },
    },
    {
      name: 'a null selector matches nothing: every node scores 100',
      nodes: HOSTS,
      pods: FOO_4_3_2_1,
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, HOSTNAME, 'ScheduleAnyway', null)] },
      ),
      candidates: ['node-a', 'node-b', 'node-c', 'node-d'],
      want: { 'node-a': 100, 'node-b': 100, 'node-c': 100, 'node-d': 100 },
    },
    {
      name: 'a zone constraint with 3 of 4 nodes candidates scores 75/75/100 (4+2 vs 1+3 pods)',
      nodes: [
        ['node-a', { zone: 'zone1' }],
        ['node-b', { zone: 'zone1' }],
        ['node-x', { zone: 'zone2' }],
        ['node-y', { zone: 'zone2' }],
      ],
      pods: [
        ['p-a1', 'node-a', { foo: '' }],
        ['p-a2', 'node-a', { foo: '' }],
        ['p-a3', 'node-a', { foo: '' }],
        ['p-a4', 'node-a', { foo: '' }],
        ['p-b1', 'node-b', { foo: '' }],
        ['p-b2', 'node-b', { foo: '' }],
        ['p-x1', 'node-x', { foo: '' }],
        ['p-y1', 'node-y', { foo: '' }],
        ['p-y2', 'node-y', { foo: '' }],
        ['p-y3', 'node-y', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, 'zone', 'ScheduleAnyway', FOO)] },
      ),
      candidates: ['node-a', 'node-b', 'node-x'],
      want: { 'node-a': 75, 'node-b': 75, 'node-x': 100 },
    },
    {
      name: 'zone and hostname constraints with different selectors score 60/20/100/60',
      nodes: [
        ['node-a', { zone: 'zone1' }],
        ['node-b', { zone: 'zone1' }],
        ['node-x', { zone: 'zone2' }],
        ['node-y', { zone: 'zone2' }],
      ],
      pods: [
        ['p-a1', 'node-a', { foo: '' }],
        ['p-b1', 'node-b', { foo: '', bar: '' }],
        ['p-y1', 'node-y', { foo: '' }],
        ['p-y2', 'node-y', { bar: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '', bar: '' },
        {
          topologySpreadConstraints: [
            constraint(1, 'zone', 'ScheduleAnyway', FOO),
            constraint(1, HOSTNAME, 'ScheduleAnyway', BAR),
          ],
        },
      ),
      candidates: ['node-a', 'node-b', 'node-x', 'node-y'],
      want: { 'node-a': 60, 'node-b': 20, 'node-x': 100, 'node-y': 60 },
    },
    {
      name: 'a candidate without the topology key scores 0 and its pods do not count',
      nodes: [
        ['node-a', {}],
        ['node-b', {}],
        ['node-x', {}],
        ['node-y', {}],
      ],
      pods: [
        ['p-a1', 'node-a', { foo: '' }],
        ['p-a2', 'node-a', { foo: '' }],
        ['p-b1', 'node-b', { foo: '' }],
        ['p-x1', 'node-x', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, 'rack', 'ScheduleAnyway', FOO)] },
      ),
      candidates: ['node-a', 'node-b', 'node-x'],
      want: { 'node-a': 0, 'node-b': 0, 'node-x': 0 },
    },
    {
      name: 'pods of another namespace do not count (1 vs 2 matching pods: 100/33)',
      nodes: HOSTS.slice(0, 2),
      pods: [
        ['p-a1', 'node-a', { foo: '' }, 'ns1'],
        ['p-a2', 'node-a', { foo: '' }],
        ['p-b1', 'node-b', { foo: '' }],
        ['p-b2', 'node-b', { foo: '' }],
      ],
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, HOSTNAME, 'ScheduleAnyway', FOO)] },
      ),
      candidates: ['node-a', 'node-b'],
      want: { 'node-a': 100, 'node-b': 33 },
    },
    {
      name: 'a pod with only DoNotSchedule constraints skips scoring',
      nodes: HOSTS,
      pods: FOO_4_3_2_1,
      incoming: pod(
        'p',
        { foo: '' },
        { topologySpreadConstraints: [constraint(1, HOSTNAME, 'DoNotSchedule', FOO)] },
      ),
      candidates: ['node-a', 'node-b'],
      want: 'skip',
    },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => {
      const on = cluster(testCase.nodes, testCase.pods);
      assert.deepEqual(scoreAll(on, testCase.incoming, testCase.candidates, LIST), testCase.want);
    });
  }
});

function objectsOf(...objects: Record<string, unknown>[]): ClusterObjects {
  const result = new ClusterObjects();
  for (const object of objects) {
    assert.ok(result.add(String(object['kind']), object, { file: 'test', documentIndex: 0, path: [] }));
  }
  return result;
}

const RS_OWNER = (name: string) => ({
  ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, controller: true }],
});

describe('PodTopologySpread default constraints', () => {
  test('the system defaults spread pods selected by a Service over hostnames when nodes have no zone', () => {
    const on = cluster(
      HOSTS,
      FOO_4_3_2_1,
      objectsOf({ kind: 'Service', metadata: { name: 's' }, spec: { selector: { foo: '' } } }),
    );
    const scores = scoreAll(on, pod('p', { foo: '' }), ['node-a', 'node-b', 'node-c', 'node-d']);
    assert.deepEqual(scores, { 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 });
  });

  test('a pod no Service or controller selects gets no default constraints (scoring skips)', () => {
    const on = cluster(HOSTS, FOO_4_3_2_1);
    assert.equal(scoreAll(on, pod('p', { foo: '' }), ['node-a', 'node-b']), 'skip');
  });

  test("a Deployment's pod is spread with its ReplicaSet's selector, pod-template-hash included", () => {
    const deployment = {
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } } },
    };
    const current = { app: 'web', 'pod-template-hash': 'abc12' };
    const on = cluster(
      HOSTS,
      [
        ['web-1', 'node-a', current],
        ['web-2', 'node-a', current],
        ['old-1', 'node-b', { app: 'web', 'pod-template-hash': 'zzz99' }],
        ['old-2', 'node-b', { app: 'web', 'pod-template-hash': 'zzz99' }],
      ],
      objectsOf(deployment),
    );
    const incoming = pod('web-3', current, {}, RS_OWNER('web-abc12'));
    // Only node-a's two pods match (round(2·ln 5 + 2) = 5 against 2): node-b's pods of the older ReplicaSet do
    // not. The nodes have no zone label, so the zone constraint adds nothing.
    assert.deepEqual(scoreAll(on, incoming, ['node-a', 'node-b', 'node-c']), {
      'node-a': 40,
      'node-b': 100,
      'node-c': 100,
    });
  });

  test('List defaulting with DoNotSchedule default constraints filters like the pod own constraints', () => {
    const args = {
      defaultingType: 'List',
      defaultConstraints: [{ maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' }],
    };
    const on = cluster(
      ZONES,
      FOO_2_1_0_3,
      objectsOf({ kind: 'Service', metadata: { name: 's' }, spec: { selector: { foo: '' } } }),
    );
    assert.deepEqual(filterAll(on, pod('p', { foo: '' }), args), {
      'node-a': SKEW,
      'node-b': SKEW,
      'node-x': 'fits',
      'node-y': SKEW,
    });
  });

  test('List defaulting without default constraints leaves pods without constraints alone', () => {
    const on = cluster(
      ZONES,
      FOO_2_1_0_3,
      objectsOf({ kind: 'Service', metadata: { name: 's' }, spec: { selector: { foo: '' } } }),
    );
    assert.equal(scoreAll(on, pod('p', { foo: '' }), ['node-a', 'node-b'], LIST), 'skip');
  });
});

describe('PodTopologySpread what-if updates (preemption)', () => {
  test('removing a matching pod from a node lowers its domain count in the state, not in the cluster', () => {
    const on = cluster(ZONES, FOO_2_1_0_3);
    const spread = plugin(on);
    const incoming = pod(
      'p',
      { foo: '' },
      { topologySpreadConstraints: [constraint(1, 'node', 'DoNotSchedule', FOO)] },
    );
    const state = new CycleState();
    spread.preFilter?.(state, incoming, on.nodes);
    const nodeB = on.nodes[1] as NodeInfo;
    assert.equal(spread.filter?.(state, incoming, nodeB).code, 'Unschedulable');
    const what = state.clone();
    spread.preFilterExtensions?.removePod(what, incoming, nodeB.pods[0] as PodInfo, nodeB);
    // node-b now holds 0 matching pods, like node-x: 0 + 1 - 0 <= 1.
    assert.equal(spread.filter?.(what, incoming, nodeB).code, 'Success');
    assert.equal(spread.filter?.(state, incoming, nodeB).code, 'Unschedulable');
  });

  test('removing the only pod of the least crowded domain raises nothing, adding one raises the minimum', () => {
    const on = cluster(
      [
        ['node-a', { node: 'node-a' }],
        ['node-b', { node: 'node-b' }],
      ],
      [
        ['p-a1', 'node-a', { foo: '' }],
        ['p-a2', 'node-a', { foo: '' }],
        ['p-b1', 'node-b', { foo: '' }],
      ],
    );
    const spread = plugin(on);
    const incoming = pod(
      'p',
      { foo: '' },
      { topologySpreadConstraints: [constraint(1, 'node', 'DoNotSchedule', FOO)] },
    );
    const state = new CycleState();
    spread.preFilter?.(state, incoming, on.nodes);
    const [nodeA, nodeB] = on.nodes as [NodeInfo, NodeInfo];
    assert.equal(spread.filter?.(state, incoming, nodeA).code, 'Unschedulable');
    spread.preFilterExtensions?.addPod(state, incoming, pod('extra', { foo: '' }), nodeB);
    // 2/2: the minimum is now 2, so node-a fits (2 + 1 - 2 = 1).
    assert.equal(spread.filter?.(state, incoming, nodeA).code, 'Success');
  });

  test('pods of another namespace or not matching the selector do not change the counts', () => {
    const on = cluster(ZONES, FOO_2_1_0_3);
    const spread = plugin(on);
    const incoming = pod(
      'p',
      { foo: '' },
      { topologySpreadConstraints: [constraint(1, 'node', 'DoNotSchedule', FOO)] },
    );
    const state = new CycleState();
    spread.preFilter?.(state, incoming, on.nodes);
    const nodeX = on.nodes[2] as NodeInfo;
    spread.preFilterExtensions?.addPod(state, incoming, pod('bar', { bar: '' }), nodeX);
    spread.preFilterExtensions?.addPod(
      state,
      incoming,
      pod('other', { foo: '' }, {}, { namespace: 'ns1' }),
      nodeX,
    );
    assert.equal(spread.filter?.(state, incoming, nodeX).code, 'Success');
  });
});

describe('PodTopologySpread incremental counts', () => {
  test('counts follow pods bound and removed after the first cycle', () => {
    const on = cluster(ZONES, []);
    const spread = plugin(on);
    const incoming = pod(
      'p',
      { foo: '' },
      { topologySpreadConstraints: [constraint(1, 'node', 'DoNotSchedule', FOO)] },
    );
    const outcome = (): Record<string, string> => filterAll(on, incoming);
    assert.equal(outcome()['node-a'], 'fits');
    const placed = pod('p-a1', { foo: '' });
    (on.nodes[0] as NodeInfo).addPod(placed);
    assert.deepEqual(outcome(), { 'node-a': SKEW, 'node-b': 'fits', 'node-x': 'fits', 'node-y': 'fits' });
    (on.nodes[0] as NodeInfo).removePod(placed);
    assert.equal(outcome()['node-a'], 'fits');
    assert.ok(spread.name === 'PodTopologySpread');
  });
});

describe('PodTopologySpread end to end (simulate, embedded cluster)', () => {
  const ZONE = 'topology.kubernetes.io/zone';
  const deployment = (replicas: number, extra: Record<string, unknown>, spread: Record<string, unknown>) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'api' } },
      template: {
        metadata: { labels: { app: 'api' } },
        spec: {
          containers: [
            { name: 'api', image: 'api:1', resources: { requests: { cpu: '100m', memory: '64Mi' } } },
          ],
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: ZONE,
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { app: 'api' } },
              ...spread,
            },
          ],
          ...extra,
        },
      },
    },
  });
  const run = (replicas: number, extra: Record<string, unknown> = {}, spread: Record<string, unknown> = {}) =>
    simulate({
      manifests: [
        {
          object: deployment(replicas, extra, spread),
          source: { file: 'api.yaml', documentIndex: 0, path: [] },
        },
      ],
      cluster: null,
      version: '1.35',
    }).report.pods;

  test('six replicas spread over three zones land two per worker', () => {
    const perNode: Record<string, number> = {};
    for (const entry of run(6)) {
      perNode[entry.nodeName ?? 'Pending'] = (perNode[entry.nodeName ?? 'Pending'] ?? 0) + 1;
    }
    assert.deepEqual(perNode, { 'worker-1': 2, 'worker-2': 2, 'worker-3': 2 });
  });

  test('a zone the pods may not use still counts under nodeAffinityPolicy Ignore: the third replica is Pending', () => {
    const extra = {
      affinity: nodeAffinityNotIn(ZONE, ['zone-c']),
    };
    const pods = run(3, extra, { nodeAffinityPolicy: 'Ignore' });
    assert.deepEqual(
      pods
        .map((entry) => entry.nodeName)
        .slice(0, 2)
        .sort(),
      ['worker-1', 'worker-2'],
    );
    assert.equal(
      pods[2]?.unschedulable?.message,
      "0/4 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s), " +
        "2 node(s) didn't match pod topology spread constraints. no new claims to deallocate, preemption: 0/4 nodes are " +
        'available: 2 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
    );
  });

  test('the same pods under the default Honor policy leave zone-c out and spread over the two other zones', () => {
    const pods = run(4, { affinity: nodeAffinityNotIn(ZONE, ['zone-c']) });
    assert.deepEqual(pods.map((entry) => entry.nodeName).sort(), [
      'worker-1',
      'worker-1',
      'worker-2',
      'worker-2',
    ]);
  });
});

function nodeAffinityNotIn(key: string, values: string[]): Record<string, unknown> {
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'NotIn', values }] }],
      },
    },
  };
}
