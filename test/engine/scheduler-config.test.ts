import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  defaultMultiPointPlugins,
  defaultSchedulerProfile,
  mergePluginSet,
  parseSchedulerConfiguration,
  pluginExtensionPoints,
} from '../../server/src/engine/scheduler/config';
import { Cluster } from '../../server/src/engine/model/snapshot/cluster';
import { buildFramework } from '../../server/src/engine/scheduler/framework/build-framework';
import { DEFAULT_MULTI_POINT_PLUGINS } from '../../server/src/engine/scheduler/profile';
import { IN_TREE_REGISTRY } from '../../server/src/engine/scheduler/registry';
import type { PluginSet, SchedulerProfile } from '../../server/src/engine/scheduler/profile';

const SOURCE = { file: 'scheduler.yaml', documentIndex: 0, path: [] };
const API = { apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration' };

function parse(config: Record<string, unknown>, version: '1.33' | '1.34' | '1.35' = '1.35') {
  return parseSchedulerConfiguration({ ...API, ...config }, SOURCE, { version });
}

function names(set: PluginSet | undefined): string[] {
  return (set?.enabled ?? []).map((ref) =>
    ref.weight === undefined ? ref.name : `${ref.name}:${ref.weight}`,
  );
}

function onlyProfile(config: Record<string, unknown>): SchedulerProfile {
  const result = parse(config);
  assert.equal(result.profiles.length, 1);
  return result.profiles[0]!;
}

const DEFAULT_NAMES = names({ enabled: DEFAULT_MULTI_POINT_PLUGINS, disabled: [] });

void describe('the default profile', () => {
  void test('the default MultiPoint plugins and weights mirror kube-scheduler 1.35', () => {
    assert.deepEqual(names({ enabled: defaultMultiPointPlugins('1.35'), disabled: [] }), [
      'SchedulingGates',
      'PrioritySort',
      'NodeUnschedulable',
      'NodeName',
      'TaintToleration:3',
      'NodeAffinity:2',
      'NodePorts',
      'NodeResourcesFit:1',
      'VolumeRestrictions',
      'NodeVolumeLimits',
      'VolumeBinding',
      'VolumeZone',
      'PodTopologySpread:2',
      'InterPodAffinity:2',
      'DynamicResources',
      'DefaultPreemption',
      'NodeResourcesBalancedAllocation:1',
      'ImageLocality:1',
      'DefaultBinder',
    ]);
  });

  void test('DynamicResources is not a default in 1.33, when DRA was off by default', () => {
    const plugins = defaultMultiPointPlugins('1.33').map((ref) => ref.name);
    assert.equal(plugins.includes('DynamicResources'), false);
    assert.equal(plugins.length, DEFAULT_MULTI_POINT_PLUGINS.length - 1);
  });

  void test('the default profile spells out the default args of every plugin that has them', () => {
    const profile = defaultSchedulerProfile('1.35');
    assert.equal(profile.schedulerName, 'default-scheduler');
    assert.deepEqual(profile.pluginConfig['NodeResourcesFit'], {
      ignoredResources: [],
      ignoredResourceGroups: [],
      scoringStrategy: {
        type: 'LeastAllocated',
        resources: [
          { name: 'cpu', weight: 1 },
          { name: 'memory', weight: 1 },
        ],
      },
    });
    assert.deepEqual(profile.pluginConfig['InterPodAffinity'], {
      hardPodAffinityWeight: 1,
      ignorePreferredTermsOfExistingPods: false,
    });
    assert.deepEqual(profile.pluginConfig['PodTopologySpread'], {
      defaultConstraints: [],
      defaultingType: 'System',
    });
    assert.deepEqual(profile.pluginConfig['DefaultPreemption'], {
      minCandidateNodesPercentage: 10,
      minCandidateNodesAbsolute: 100,
    });
  });

  void test('a configuration without profiles yields the default profile and no finding', () => {
    const result = parse({});
    assert.deepEqual(result.findings, []);
    assert.equal(result.profiles[0]?.schedulerName, 'default-scheduler');
    assert.deepEqual(names(result.profiles[0]?.plugins.multiPoint), DEFAULT_NAMES);
    assert.deepEqual(result.profiles[0]?.source, { ...SOURCE, path: ['profiles', 0] });
  });
});

interface MergeCase {
  readonly name: string;
  readonly defaults: readonly string[];
  readonly custom: PluginSet;
  readonly expected: readonly string[];
}

const set = (...plugins: string[]): PluginSet => ({
  enabled: plugins.map((name) => ({ name })),
  disabled: [],
});

const MERGE_CASES: readonly MergeCase[] = [
  {
    name: 'a custom plugin is appended after the defaults',
    defaults: ['A', 'B'],
    custom: set('C'),
    expected: ['A', 'B', 'C'],
  },
  {
    name: 'a disabled default is dropped and re-enabling it moves it after the customs',
    defaults: ['A', 'B'],
    custom: { enabled: [{ name: 'C' }, { name: 'B' }], disabled: ['B'] },
    expected: ['A', 'C', 'B'],
  },
  {
    name: 'disabling "*" drops every default and keeps the custom order',
    defaults: ['A', 'B'],
    custom: { enabled: [{ name: 'B' }, { name: 'A' }], disabled: ['*'] },
    expected: ['B', 'A'],
  },
  {
    name: 'a re-enabled default keeps its place and takes the new weight',
    defaults: ['A', 'B', 'C'],
    custom: {
      enabled: [
        { name: 'C', weight: 5 },
        { name: 'A', weight: 2 },
      ],
      disabled: [],
    },
    expected: ['A:2', 'B', 'C:5'],
  },
  {
    name: 'disabling without enabling only removes',
    defaults: ['A'],
    custom: { enabled: [], disabled: ['A'] },
    expected: [],
  },
];

void describe('mergePluginSet', () => {
  for (const testCase of MERGE_CASES) {
    void test(testCase.name, () => {
      const merged = mergePluginSet(set(...testCase.defaults), testCase.custom);
      assert.deepEqual(names(merged), testCase.expected);
    });
  }
});

interface ProfileCase {
  readonly name: string;
  readonly config: Record<string, unknown>;
  readonly check: (profile: SchedulerProfile) => void;
}

const PROFILE_CASES: readonly ProfileCase[] = [
  {
    name: 'a MultiPoint weight override replaces the default weight in place',
    config: {
      profiles: [{ plugins: { multiPoint: { enabled: [{ name: 'NodeResourcesFit', weight: 5 }] } } }],
    },
    check: (profile) => {
      const fit = profile.plugins.multiPoint.enabled.find((ref) => ref.name === 'NodeResourcesFit');
      assert.equal(fit?.weight, 5);
      assert.equal(profile.plugins.multiPoint.enabled.length, DEFAULT_MULTI_POINT_PLUGINS.length);
    },
  },
  {
    name: 'a score-point set with weights is kept for the framework to order and weigh',
    config: {
      profiles: [
        {
          plugins: {
            score: {
              disabled: [{ name: 'NodeResourcesBalancedAllocation' }],
              enabled: [{ name: 'ImageLocality', weight: 4 }],
            },
          },
        },
      ],
    },
    check: (profile) => {
      assert.deepEqual(profile.plugins.score, {
        enabled: [{ name: 'ImageLocality', weight: 4 }],
        disabled: ['NodeResourcesBalancedAllocation'],
      });
    },
  },
  {
    name: 'disabling every score plugin is kept as "*" at the score point',
    config: {
      profiles: [
        {
          schedulerName: 'no-scoring',
          plugins: { preScore: { disabled: [{ name: '*' }] }, score: { disabled: [{ name: '*' }] } },
        },
      ],
    },
    check: (profile) => {
      assert.equal(profile.schedulerName, 'no-scoring');
      assert.deepEqual(profile.plugins.score?.disabled, ['*']);
      assert.deepEqual(profile.plugins.preScore?.disabled, ['*']);
    },
  },
  {
    name: 'disabling every MultiPoint default leaves only the plugins enabled there',
    config: {
      profiles: [{ plugins: { multiPoint: { enabled: [{ name: 'NodeName' }], disabled: [{ name: '*' }] } } }],
    },
    check: (profile) => assert.deepEqual(names(profile.plugins.multiPoint), ['NodeName']),
  },
  {
    name: 'the profile percentageOfNodesToScore overrides the global one',
    config: { percentageOfNodesToScore: 30, profiles: [{ percentageOfNodesToScore: 70 }] },
    check: (profile) => assert.equal(profile.percentageOfNodesToScore, 70),
  },
  {
    name: 'the global percentageOfNodesToScore applies when the profile sets none',
    config: { percentageOfNodesToScore: 30, profiles: [{}] },
    check: (profile) => assert.equal(profile.percentageOfNodesToScore, 30),
  },
  {
    name: 'no percentageOfNodesToScore leaves it adaptive (undefined)',
    config: {},
    check: (profile) => assert.equal(profile.percentageOfNodesToScore, undefined),
  },
  {
    name: 'configured args are defaulted: a MostAllocated strategy without resources gets cpu and memory',
    config: {
      profiles: [
        {
          pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated' } } }],
        },
      ],
    },
    check: (profile) =>
      assert.deepEqual(profile.pluginConfig['NodeResourcesFit'], {
        ignoredResources: [],
        ignoredResourceGroups: [],
        scoringStrategy: {
          type: 'MostAllocated',
          resources: [
            { name: 'cpu', weight: 1 },
            { name: 'memory', weight: 1 },
          ],
        },
      }),
  },
  {
    name: 'args of a plugin without a known args type pass through unchanged',
    config: { profiles: [{ pluginConfig: [{ name: 'NodeAffinity', args: { addedAffinity: { x: 1 } } }] }] },
    check: (profile) => assert.deepEqual(profile.pluginConfig['NodeAffinity'], { addedAffinity: { x: 1 } }),
  },
  {
    name: 'a plugin disabled everywhere gets no default args',
    config: { profiles: [{ plugins: { multiPoint: { disabled: [{ name: 'InterPodAffinity' }] } } }] },
    check: (profile) => assert.equal('InterPodAffinity' in profile.pluginConfig, false),
  },
];

void describe('profiles from a KubeSchedulerConfiguration', () => {
  for (const testCase of PROFILE_CASES) {
    void test(testCase.name, () => testCase.check(onlyProfile(testCase.config)));
  }

  void test('several profiles keep their names and order', () => {
    const result = parse({ profiles: [{ schedulerName: 'default-scheduler' }, { schedulerName: 'batch' }] });
    assert.deepEqual(
      result.profiles.map((p) => p.schedulerName),
      ['default-scheduler', 'batch'],
    );
  });

  void test('DynamicResources implements Score from 1.35 only', () => {
    assert.equal(pluginExtensionPoints('DynamicResources', '1.34')?.includes('score'), false);
    assert.equal(pluginExtensionPoints('DynamicResources', '1.35')?.includes('score'), true);
  });
});

void describe('parsed profiles in the framework', () => {
  void test('a parsed profile builds a framework that runs the configured score plugins, its args accepted', () => {
    const profile = onlyProfile({
      profiles: [
        {
          plugins: {
            score: { disabled: [{ name: '*' }], enabled: [{ name: 'NodeResourcesFit', weight: 2 }] },
          },
          pluginConfig: [
            {
              name: 'NodeResourcesFit',
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
            },
          ],
        },
      ],
    });
    const cluster = new Cluster([], new Map(), new Map(), 'test');
    const built = buildFramework(profile, IN_TREE_REGISTRY, cluster, '1.35');
    assert.deepEqual(built.framework.scorePluginNames, ['NodeResourcesFit']);
    assert.deepEqual(
      built.findings.filter((finding) => finding.code === 'invalid-plugin-args'),
      [],
    );
  });

  void test('the default profile of every version builds without argument problems', () => {
    for (const version of ['1.33', '1.34', '1.35'] as const) {
      const cluster = new Cluster([], new Map(), new Map(), 'test');
      const built = buildFramework(defaultSchedulerProfile(version), IN_TREE_REGISTRY, cluster, version);
      assert.deepEqual(
        built.findings.filter((finding) => finding.code === 'invalid-plugin-args'),
        [],
      );
    }
  });
});
