import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_NODE_RESOURCES_FIT_ARGS,
  parseSchedulerConfiguration,
  readBalancedAllocationArgs,
  readDefaultPreemptionArgs,
  readInterPodAffinityArgs,
  readNodeResourcesFitArgs,
  readPodTopologySpreadArgs,
} from '../../server/src/engine/scheduler/config';
import type { ParsedArgs } from '../../server/src/engine/scheduler/config';

interface Case {
  readonly name: string;
  readonly read: (raw: unknown) => ParsedArgs<unknown>;
  readonly raw: unknown;
  /** The problems' messages (paths relative to the args); [] for valid args. */
  readonly messages: readonly string[];
  /** The args used, when checked. */
  readonly args?: unknown;
}

const fit = (raw: unknown) => readNodeResourcesFitArgs(raw);
const balanced = (raw: unknown) => readBalancedAllocationArgs(raw);
const spread = (raw: unknown) => readPodTopologySpreadArgs(raw);
const affinity = (raw: unknown) => readInterPodAffinityArgs(raw);
const preemption = (raw: unknown) => readDefaultPreemptionArgs(raw);
const CPU_MEMORY = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

const CASES: readonly Case[] = [
  {
    name: 'NodeResourcesFit without args uses LeastAllocated on cpu and memory',
    read: fit,
    raw: undefined,
    messages: [],
    args: DEFAULT_NODE_RESOURCES_FIT_ARGS,
  },
  {
    name: 'NodeResourcesFit resource weights of 0 default to 1',
    read: fit,
    raw: {
      scoringStrategy: {
        type: 'MostAllocated',
        resources: [
          { name: 'cpu', weight: 0 },
          { name: 'nvidia.com/gpu', weight: 5 },
        ],
      },
    },
    messages: [],
    args: {
      ignoredResources: [],
      ignoredResourceGroups: [],
      scoringStrategy: {
        type: 'MostAllocated',
        resources: [
          { name: 'cpu', weight: 1 },
          { name: 'nvidia.com/gpu', weight: 5 },
        ],
      },
    },
  },
  {
    name: 'NodeResourcesFit refuses an unknown strategy type',
    read: fit,
    raw: { scoringStrategy: { type: 'BinPacking' } },
    messages: [
      'scoringStrategy.type: Unsupported value: "BinPacking": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"',
    ],
    args: DEFAULT_NODE_RESOURCES_FIT_ARGS,
  },
  {
    name: 'NodeResourcesFit refuses a strategy without a type',
    read: fit,
    raw: { scoringStrategy: { resources: CPU_MEMORY } },
    messages: [
      'scoringStrategy.type: Unsupported value: "": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"',
    ],
  },
  {
    name: 'NodeResourcesFit refuses a resource weight above 100',
    read: fit,
    raw: { scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'memory', weight: 101 }] } },
    messages: [
      'scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of memory not in valid range (0, 100]',
    ],
  },
  {
    name: 'RequestedToCapacityRatio needs its shape',
    read: fit,
    raw: { scoringStrategy: { type: 'RequestedToCapacityRatio' } },
    messages: [
      'scoringStrategy.requestedToCapacityRatio: Required value: must be specified when type is RequestedToCapacityRatio',
    ],
  },
  {
    name: 'a RequestedToCapacityRatio shape is kept with its points',
    read: fit,
    raw: {
      scoringStrategy: {
        type: 'RequestedToCapacityRatio',
        resources: CPU_MEMORY,
        requestedToCapacityRatio: {
          shape: [
            { utilization: 0, score: 0 },
            { utilization: 100, score: 10 },
          ],
        },
      },
    },
    messages: [],
    args: {
      ignoredResources: [],
      ignoredResourceGroups: [],
      scoringStrategy: {
        type: 'RequestedToCapacityRatio',
        resources: CPU_MEMORY,
        requestedToCapacityRatio: {
          shape: [
            { utilization: 0, score: 0 },
            { utilization: 100, score: 10 },
          ],
        },
      },
    },
  },
  {
    name: 'a RequestedToCapacityRatio shape must increase and stay in range',
    read: fit,
    raw: {
      scoringStrategy: {
        type: 'RequestedToCapacityRatio',
        requestedToCapacityRatio: {
          shape: [
            { utilization: 50, score: 11 },
            { utilization: 40, score: 2 },
            { utilization: 101, score: 3 },
          ],
        },
      },
    },
    messages: [
      'scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 40: values must be sorted in increasing order',
      'scoringStrategy.requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range [0, 10]',
      'scoringStrategy.requestedToCapacityRatio.shape[2].utilization: Invalid value: 101: not in valid range [0, 100]',
    ],
  },
  {
    name: 'an empty RequestedToCapacityRatio shape is refused',
    read: fit,
    raw: { scoringStrategy: { type: 'RequestedToCapacityRatio', requestedToCapacityRatio: { shape: [] } } },
    messages: [
      'scoringStrategy.requestedToCapacityRatio.shape: Required value: at least one point must be specified',
    ],
  },
  {
    name: 'a shape with another strategy type is forbidden',
    read: fit,
    raw: {
      scoringStrategy: {
        type: 'MostAllocated',
        requestedToCapacityRatio: { shape: [{ utilization: 0, score: 0 }] },
      },
    },
    messages: [
      'scoringStrategy.requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio',
    ],
  },
  {
    name: 'ignored resource groups must not contain a slash',
    read: fit,
    raw: { ignoredResourceGroups: ['example.com/gpu'] },
    messages: [
      "ignoredResourceGroups[0]: Invalid value: \"example.com/gpu\": resource group name can't contain '/'",
    ],
  },
  {
    name: 'BalancedAllocation without args balances cpu and memory',
    read: balanced,
    raw: {},
    messages: [],
    args: { resources: CPU_MEMORY },
  },
  {
    name: 'BalancedAllocation weights must be 1',
    read: balanced,
    raw: { resources: [{ name: 'cpu', weight: 2 }] },
    messages: ['resources[0].weight: Invalid value: 2: must be 1'],
  },
  {
    name: 'BalancedAllocation refuses a resource twice',
    read: balanced,
    raw: { resources: [{ name: 'cpu' }, { name: 'cpu' }] },
    messages: ['resources[1].name: Duplicate value: "cpu"'],
  },
  {
    name: 'PodTopologySpread List defaulting keeps its constraints',
    read: spread,
    raw: {
      defaultingType: 'List',
      defaultConstraints: [
        { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule' },
      ],
    },
    messages: [],
    args: {
      defaultingType: 'List',
      defaultConstraints: [
        { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule' },
      ],
    },
  },
  {
    name: 'PodTopologySpread System defaulting refuses listed constraints',
    read: spread,
    raw: { defaultConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway' }] },
    messages: ['defaultingType: Invalid value: "System": when .defaultConstraints are not empty'],
  },
  {
    name: 'PodTopologySpread constraints are checked one by one',
    read: spread,
    raw: {
      defaultingType: 'List',
      defaultConstraints: [
        { maxSkew: 0, topologyKey: '', whenUnsatisfiable: 'Sometimes', labelSelector: {} },
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
        { maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
      ],
    },
    messages: [
      'defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf)',
      'defaultConstraints[0].topologyKey: Required value: can not be empty',
      'defaultConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"',
      'defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod',
      'defaultConstraints[2]: Duplicate value: "{zone, DoNotSchedule}"',
    ],
  },
  {
    name: 'PodTopologySpread refuses an unknown defaulting type',
    read: spread,
    raw: { defaultingType: 'Cluster' },
    messages: ['defaultingType: Unsupported value: "Cluster": supported values: "System", "List"'],
  },
  {
    name: 'InterPodAffinity defaults hardPodAffinityWeight to 1',
    read: affinity,
    raw: {},
    messages: [],
    args: { hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false },
  },
  {
    name: 'InterPodAffinity refuses a hardPodAffinityWeight above 100',
    read: affinity,
    raw: { hardPodAffinityWeight: 101 },
    messages: ['hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]'],
  },
  {
    name: 'DefaultPreemption refuses both minimums at zero',
    read: preemption,
    raw: { minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 0 },
    messages: [
      'minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute',
      'minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage',
    ],
  },
  {
    name: 'DefaultPreemption refuses a percentage above 100',
    read: preemption,
    raw: { minCandidateNodesPercentage: 120 },
    messages: ['minCandidateNodesPercentage: Invalid value: 120: not in valid range [0, 100]'],
  },
];

void describe('plugin args', () => {
  for (const testCase of CASES) {
    void test(testCase.name, () => {
      const parsed = testCase.read(testCase.raw);
      assert.deepEqual(
        parsed.problems.map((problem) => problem.message),
        testCase.messages,
      );
      if (testCase.args !== undefined) {
        assert.deepEqual(parsed.args, testCase.args);
      }
    });
  }

  void test('invalid args in a configuration become findings at the field, and the plugin keeps its defaults', () => {
    const result = parseSchedulerConfiguration(
      {
        apiVersion: 'kubescheduler.config.k8s.io/v1',
        kind: 'KubeSchedulerConfiguration',
        profiles: [{ pluginConfig: [{ name: 'InterPodAffinity', args: { hardPodAffinityWeight: -1 } }] }],
      },
      { file: 'scheduler.yaml', documentIndex: 0, path: [] },
    );
    assert.deepEqual(result.findings[0]?.path, [
      'profiles',
      0,
      'pluginConfig',
      0,
      'args',
      'hardPodAffinityWeight',
    ]);
    assert.equal(
      result.findings[0]?.message,
      'profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100] ' +
        '(the InterPodAffinity defaults are used)',
    );
    assert.equal(result.findings[0]?.code, 'scheduler-config-invalid-plugin-args');
    assert.deepEqual(result.profiles[0]?.pluginConfig['InterPodAffinity'], {
      hardPodAffinityWeight: 1,
      ignorePreferredTermsOfExistingPods: false,
    });
  });
});
