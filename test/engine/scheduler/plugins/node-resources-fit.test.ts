import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createNodeResourcesFit,
  INSUFFICIENT_RESOURCE_CODE,
  insufficientResource,
  REASON_TOO_MANY_PODS,
} from '../../../../server/src/engine/scheduler/plugins/node-resources-fit';
import {
  buildPlugin,
  container,
  makeNode,
  makePod,
  messages,
  runFilter,
  runScore,
  withPods,
} from '../builders';
import type { NodeOptions } from '../builders';

// Situations of upstream TestEnoughRequests / TestNotEnoughRequests and the scoring strategy tests
// (pkg/scheduler/framework/plugins/noderesources/fit_test.go, least_allocated_test.go, most_allocated_test.go,
// requested_to_capacity_ratio_test.go), on a node of 10 cpu / 20 memory units as upstream's makeResources.

const NODE: NodeOptions = {
  cpu: '10',
  memory: '20',
  pods: 32,
  extended: { 'example.com/foo': 5, 'hugepages-2Mi': 5 },
};

/** A pod with one container per request list (one container without requests when none is given). */
function podWith(name: string, ...requests: Record<string, string | number>[]) {
  return makePod(name, {
    containers: (requests.length > 0 ? requests : [{}]).map((list) => container(list)),
  });
}

interface FilterCase {
  readonly name: string;
  readonly pod: ReturnType<typeof makePod>;
  /** Requests already on the node (one pod). */
  readonly used?: Record<string, string | number>;
  readonly node?: NodeOptions;
  readonly args?: unknown;
  readonly reasons: readonly string[];
}

const FILTER_CASES: readonly FilterCase[] = [
  {
    name: 'a pod that requests nothing always fits',
    pod: podWith('p'),
    used: { cpu: '10', memory: '20' },
    reasons: [],
  },
  {
    name: 'a pod asking for more cpu and memory than is left fails on both',
    pod: podWith('p', { cpu: '1', memory: '1' }),
    used: { cpu: '10', memory: '20' },
    reasons: ['Insufficient cpu', 'Insufficient memory'],
  },
  {
    name: 'both resources fit',
    pod: podWith('p', { cpu: '1', memory: '1' }),
    used: { cpu: '5', memory: '5' },
    reasons: [],
  },
  {
    name: 'requests equal to what is left fit (the edge case)',
    pod: podWith('p', { cpu: '5', memory: '5' }),
    used: { cpu: '5', memory: '15' },
    reasons: [],
  },
  {
    name: 'memory fits but cpu does not',
    pod: podWith('p', { cpu: '2', memory: '1' }),
    used: { cpu: '9', memory: '5' },
    reasons: ['Insufficient cpu'],
  },
  {
    name: 'cpu fits but memory does not',
    pod: podWith('p', { cpu: '1', memory: '2' }),
    used: { cpu: '5', memory: '19' },
    reasons: ['Insufficient memory'],
  },
  {
    name: 'an init container counts as the maximum, not the sum, with the containers',
    pod: makePod('p', {
      initContainers: [container({ cpu: '3', memory: '1' })],
      containers: [container({ cpu: '1', memory: '1' })],
    }),
    used: { cpu: '7', memory: '5' },
    reasons: [],
  },
  {
    name: 'the largest init container decides when it is bigger than the containers',
    pod: makePod('p', {
      initContainers: [container({ cpu: '2', memory: '1' }), container({ cpu: '4', memory: '1' })],
      containers: [container({ cpu: '1', memory: '1' })],
    }),
    used: { cpu: '7', memory: '5' },
    reasons: ['Insufficient cpu'],
  },
  {
    name: 'a restartable init container (sidecar) adds to the containers',
    pod: makePod('p', {
      initContainers: [container({ cpu: '2' }, {}, { restartPolicy: 'Always' })],
      containers: [container({ cpu: '2' })],
    }),
    used: { cpu: '7' },
    reasons: ['Insufficient cpu'],
  },
  {
    name: 'pod overhead is added to the requests',
    pod: makePod('p', { overhead: { cpu: '3' }, containers: [container({ cpu: '1' })] }),
    used: { cpu: '7' },
    reasons: ['Insufficient cpu'],
  },
  {
    name: 'a limit without a request counts as the request (API defaulting)',
    pod: makePod('p', { containers: [container({}, { memory: '6' })] }),
    used: { memory: '15' },
    reasons: ['Insufficient memory'],
  },
  {
    name: 'pod-level resources replace the containers sum from 1.34',
    pod: makePod('p', { resources: { requests: { cpu: '1' } }, containers: [container({ cpu: '4' })] }),
    used: { cpu: '8' },
    reasons: [],
  },
  {
    name: 'an extended resource within allocatable fits',
    pod: podWith('p', { 'example.com/foo': 2 }),
    used: { 'example.com/foo': 3 },
    reasons: [],
  },
  {
    name: 'an extended resource beyond what is left fails',
    pod: podWith('p', { 'example.com/foo': 3 }),
    used: { 'example.com/foo': 3 },
    reasons: ['Insufficient example.com/foo'],
  },
  {
    name: 'an extended resource the node does not have fails',
    pod: podWith('p', { 'nvidia.com/gpu': 1 }),
    reasons: ['Insufficient nvidia.com/gpu'],
  },
  {
    name: 'hugepages are checked like extended resources',
    pod: podWith('p', { 'hugepages-2Mi': 6 }),
    reasons: ['Insufficient hugepages-2Mi'],
  },
  {
    name: 'an ignored extended resource is not checked',
    pod: podWith('p', { 'nvidia.com/gpu': 1 }),
    args: { ignoredResources: ['nvidia.com/gpu'] },
    reasons: [],
  },
  {
    name: 'a resource group ignores every extended resource of its domain',
    pod: podWith('p', { 'example.com/foo': 9 }),
    args: { ignoredResourceGroups: ['example.com'] },
    reasons: [],
  },
  {
    name: 'a request of zero for an extended resource is not checked',
    pod: podWith('p', { 'nvidia.com/gpu': 0 }),
    reasons: [],
  },
  {
    name: 'a full node rejects even a pod that requests nothing',
    pod: podWith('p'),
    node: { ...NODE, pods: 1 },
    used: {},
    reasons: ['Too many pods'],
  },
  {
    name: 'a full node reports the pod count first, then each missing resource',
    pod: podWith('p', { cpu: '1', memory: '1' }),
    node: { ...NODE, pods: 1 },
    used: { cpu: '10', memory: '20' },
    reasons: ['Too many pods', 'Insufficient cpu', 'Insufficient memory'],
  },
];

describe('NodeResourcesFit filter', () => {
  for (const testCase of FILTER_CASES) {
    test(testCase.name, () => {
      const node = makeNode('n1', testCase.node ?? NODE);
      if (testCase.used !== undefined) {
        withPods(node, [podWith('running', testCase.used)]);
      }
      const { plugin } = buildPlugin(createNodeResourcesFit, [node], { args: testCase.args });
      const status = runFilter(plugin, testCase.pod, node);
      assert.deepEqual(messages(status), testCase.reasons);
      assert.equal(status.code, testCase.reasons.length === 0 ? 'Success' : 'Unschedulable');
      if (testCase.reasons.length > 0) {
        assert.equal(status.plugin, 'NodeResourcesFit');
      }
    });
  }

  test('reason codes are stable: TooManyPods and InsufficientResource, which carries its resource as data', () => {
    assert.deepEqual(REASON_TOO_MANY_PODS, {
      code: 'NodeResourcesFit/TooManyPods',
      message: 'Too many pods',
    });
    assert.deepEqual(insufficientResource('cpu'), {
      code: INSUFFICIENT_RESOURCE_CODE,
      message: 'Insufficient cpu',
      data: { resource: 'cpu' },
    });
    assert.equal(INSUFFICIENT_RESOURCE_CODE, 'NodeResourcesFit/InsufficientResource');
  });
});

interface ScoreCase {
  readonly name: string;
  readonly args?: unknown;
  readonly pod: ReturnType<typeof makePod>;
  readonly nodes: readonly { name: string; cpu: string; memory: string; used?: Record<string, string> }[];
  readonly scores: Readonly<Record<string, number>>;
}

// Node sizes and expectations from upstream TestLeastAllocatedScoringStrategy / TestMostAllocatedScoringStrategy:
// cpu in millicores, memory in bytes, integer arithmetic.
const SCORE_CASES: readonly ScoreCase[] = [
  {
    name: 'LeastAllocated gives the same score to two empty nodes for a pod without requests (100m/200Mi assumed)',
    pod: podWith('p'),
    nodes: [
      { name: 'a', cpu: '4000m', memory: '10000' },
      { name: 'b', cpu: '4000m', memory: '10000' },
    ],
    // cpu (4000-100)*100/4000 = 97; memory 200Mi > 10000 bytes → 0; (97+0)/2 = 48
    scores: { a: 48, b: 48 },
  },
  {
    name: 'LeastAllocated favours the node with more room left',
    pod: podWith('p', { cpu: '3000m', memory: '5000' }),
    nodes: [
      { name: 'a', cpu: '4000m', memory: '10000' },
      { name: 'b', cpu: '6000m', memory: '10000' },
    ],
    // a: cpu (1000*100/4000)=25, memory (5000*100/10000)=50 → 37; b: cpu 50, memory 50 → 50
    scores: { a: 37, b: 50 },
  },
  {
    name: 'MostAllocated favours the fuller node',
    args: { scoringStrategy: { type: 'MostAllocated' } },
    pod: podWith('p', { cpu: '3000m', memory: '5000' }),
    nodes: [
      { name: 'a', cpu: '4000m', memory: '10000' },
      { name: 'b', cpu: '6000m', memory: '10000' },
    ],
    // a: cpu 75, memory 50 → 62; b: cpu 50, memory 50 → 50
    scores: { a: 62, b: 50 },
  },
  {
    name: 'weights change the mean: memory counted three times',
    args: {
      scoringStrategy: {
        type: 'LeastAllocated',
        resources: [
          { name: 'cpu', weight: 1 },
          { name: 'memory', weight: 3 },
        ],
      },
    },
    pod: podWith('p', { cpu: '3000m', memory: '5000' }),
    nodes: [{ name: 'a', cpu: '4000m', memory: '10000' }],
    // (25*1 + 50*3) / 4 = 43
    scores: { a: 43 },
  },
  {
    name: 'RequestedToCapacityRatio maps utilization through the shape (bin packing)',
    args: {
      scoringStrategy: {
        type: 'RequestedToCapacityRatio',
        requestedToCapacityRatio: {
          shape: [
            { utilization: 0, score: 0 },
            { utilization: 100, score: 10 },
          ],
        },
      },
    },
    pod: podWith('p', { cpu: '3000m', memory: '5000' }),
    nodes: [
      { name: 'a', cpu: '4000m', memory: '10000' },
      { name: 'b', cpu: '6000m', memory: '10000' },
    ],
    // a: cpu 75, memory 50 → round(62.5) = 63; b: 50, 50 → 50
    scores: { a: 63, b: 50 },
  },
];

describe('NodeResourcesFit score', () => {
  for (const testCase of SCORE_CASES) {
    test(testCase.name, () => {
      const nodes = testCase.nodes.map((shape) =>
        withPods(
          makeNode(shape.name, { cpu: shape.cpu, memory: shape.memory }),
          shape.used === undefined ? [] : [podWith(`${shape.name}-used`, shape.used)],
        ),
      );
      const { plugin, argsProblems } = buildPlugin(createNodeResourcesFit, nodes, { args: testCase.args });
      assert.deepEqual(argsProblems, []);
      assert.deepEqual(runScore(plugin, testCase.pod, nodes), testCase.scores);
    });
  }

  test('an unknown scoring strategy is reported and LeastAllocated is used', () => {
    const node = makeNode('a', { cpu: '4000m', memory: '10000' });
    const { plugin, argsProblems } = buildPlugin(createNodeResourcesFit, [node], {
      args: { scoringStrategy: { type: 'Balanced' } },
    });
    assert.equal(argsProblems.length, 1);
    assert.match(argsProblems[0] ?? '', /scoringStrategy\.type: Unsupported value: "Balanced"/);
    assert.deepEqual(runScore(plugin, podWith('p', { cpu: '3000m', memory: '5000' }), [node]), { a: 37 });
  });
});
