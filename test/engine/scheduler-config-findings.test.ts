import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSchedulerConfiguration } from '../../server/src/engine/scheduler/config';

const SOURCE = { file: 'scheduler.yaml', documentIndex: 0, path: [] };
const API = { apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration' };

interface Case {
  readonly name: string;
  readonly config: unknown;
  readonly code: string;
  readonly path: readonly (string | number)[];
  readonly message: string;
  /** Checks on the profiles that survive. */
  readonly profileNames?: readonly string[];
}

const CASES: readonly Case[] = [
  {
    name: 'a removed v1beta3 configuration is reported',
    config: { apiVersion: 'kubescheduler.config.k8s.io/v1beta3', kind: 'KubeSchedulerConfiguration' },
    code: 'scheduler-config-unsupported-version',
    path: ['apiVersion'],
    message:
      'apiVersion: Invalid value: "kubescheduler.config.k8s.io/v1beta3": this version was removed in Kubernetes 1.29; ' +
      'use kubescheduler.config.k8s.io/v1',
  },
  {
    name: 'an unknown plugin name is reported as kube-scheduler words it, and left out',
    config: { ...API, profiles: [{ plugins: { filter: { enabled: [{ name: 'Coscheduling' }] } } }] },
    code: 'scheduler-config-unknown-plugin',
    path: ['profiles', 0, 'plugins', 'filter', 'enabled', 0],
    message:
      'profiles[0].plugins.filter.enabled[0]: FilterPlugin "Coscheduling" does not exist: kube-scheduler 1.35 would ' +
      'refuse this configuration unless built with that plugin; the engine leaves it out',
  },
  {
    name: 'a plugin of an old configuration version names its replacement',
    config: {
      ...API,
      profiles: [{ plugins: { score: { enabled: [{ name: 'NodeResourcesMostAllocated' }] } } }],
    },
    code: 'scheduler-config-unknown-plugin',
    path: ['profiles', 0, 'plugins', 'score', 'enabled', 0],
    message:
      'profiles[0].plugins.score.enabled[0]: ScorePlugin "NodeResourcesMostAllocated" does not exist (it was replaced ' +
      'by NodeResourcesFit with scoringStrategy.type MostAllocated): kube-scheduler 1.35 would refuse this ' +
      'configuration unless built with that plugin; the engine leaves it out',
  },
  {
    name: 'a removed volume-limits plugin is refused with the validation message',
    config: { ...API, profiles: [{ plugins: { filter: { enabled: [{ name: 'EBSLimits' }] } } }] },
    code: 'scheduler-config-removed-plugin',
    path: ['profiles', 0, 'plugins', 'filter', 'enabled', 0],
    message:
      'profiles[0].plugins.filter.enabled[0]: Invalid value: "EBSLimits": was invalid in version ' +
      '"kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")',
  },
  {
    name: 'a plugin enabled at a point it does not implement is refused as NewFramework words it',
    config: { ...API, profiles: [{ plugins: { filter: { enabled: [{ name: 'ImageLocality' }] } } }] },
    code: 'scheduler-config-misplaced-plugin',
    path: ['profiles', 0, 'plugins', 'filter', 'enabled', 0],
    message:
      'profiles[0].plugins.filter.enabled[0]: plugin "ImageLocality" does not extend FilterPlugin plugin',
  },
  {
    name: 'a plugin enabled twice at one point is refused',
    config: {
      ...API,
      profiles: [
        {
          plugins: { score: { enabled: [{ name: 'ImageLocality' }, { name: 'ImageLocality', weight: 2 }] } },
        },
      ],
    },
    code: 'scheduler-config-misplaced-plugin',
    path: ['profiles', 0, 'plugins', 'score', 'enabled', 1],
    message:
      'profiles[0].plugins.score.enabled[1]: plugin "ImageLocality" already registered as "ScorePlugin"',
  },
  {
    name: 'a negative score weight is reported and the default weight used',
    config: {
      ...API,
      profiles: [{ plugins: { multiPoint: { enabled: [{ name: 'TaintToleration', weight: -3 }] } } }],
    },
    code: 'scheduler-config-invalid-weight',
    path: ['profiles', 0, 'plugins', 'multiPoint', 'enabled', 0, 'weight'],
    message:
      'profiles[0].plugins.multiPoint.enabled[0].weight: Invalid value: -3: must not be negative (it would turn the ' +
      'plugin’s preference around); the default weight is used',
  },
  {
    name: 'a weight that is not a number is reported',
    config: {
      ...API,
      profiles: [{ plugins: { score: { enabled: [{ name: 'ImageLocality', weight: 'high' }] } } }],
    },
    code: 'scheduler-config-invalid-field',
    path: ['profiles', 0, 'plugins', 'score', 'enabled', 0, 'weight'],
    message: 'profiles[0].plugins.score.enabled[0].weight: Invalid value: "high": must be an integer',
  },
  {
    name: 'a percentageOfNodesToScore above 100 is reported and ignored',
    config: { ...API, percentageOfNodesToScore: 150 },
    code: 'scheduler-config-invalid-field',
    path: ['percentageOfNodesToScore'],
    message: 'percentageOfNodesToScore: Invalid value: 150: not in valid range [0-100]',
  },
  {
    name: 'two unnamed profiles need names',
    config: { ...API, profiles: [{ schedulerName: 'a' }, {}] },
    code: 'scheduler-config-invalid-profile',
    path: ['profiles', 1, 'schedulerName'],
    message: 'profiles[1].schedulerName: Required value',
    profileNames: ['a'],
  },
  {
    name: 'two profiles with one name are refused',
    config: { ...API, profiles: [{ schedulerName: 'a' }, { schedulerName: 'a' }] },
    code: 'scheduler-config-invalid-profile',
    path: ['profiles', 1, 'schedulerName'],
    message: 'profiles[1].schedulerName: Duplicate value: "profiles[0].schedulerName"',
    profileNames: ['a'],
  },
  {
    name: 'profiles with different queueSort plugins are refused',
    config: {
      ...API,
      profiles: [
        { schedulerName: 'a' },
        { schedulerName: 'b', plugins: { queueSort: { disabled: [{ name: '*' }] } } },
      ],
    },
    code: 'scheduler-config-invalid-profile',
    path: ['profiles', 1, 'plugins', 'queueSort'],
    message:
      'profiles[1].plugins.queueSort: Invalid value: {"disabled":[{"name":"*"}]}: must be the same for all profiles',
    profileNames: ['a', 'b'],
  },
  {
    name: 'a plugin configured twice is refused',
    config: {
      ...API,
      profiles: [
        {
          pluginConfig: [
            { name: 'InterPodAffinity', args: {} },
            { name: 'InterPodAffinity', args: {} },
          ],
        },
      ],
    },
    code: 'scheduler-config-invalid-field',
    path: ['profiles', 0, 'pluginConfig', 1],
    message: 'profiles[0].pluginConfig[1]: Duplicate value: "InterPodAffinity"',
  },
  {
    name: 'a plugin without a name in a list is reported',
    config: { ...API, profiles: [{ plugins: { score: { enabled: [{ weight: 2 }] } } }] },
    code: 'scheduler-config-invalid-field',
    path: ['profiles', 0, 'plugins', 'score', 'enabled', 0, 'name'],
    message: 'profiles[0].plugins.score.enabled[0].name: Invalid value: null: must be a plugin name',
  },
  {
    name: 'a plugin list that is not a list is reported',
    config: { ...API, profiles: [{ plugins: { score: { enabled: 'ImageLocality' } } }] },
    code: 'scheduler-config-invalid-field',
    path: ['profiles', 0, 'plugins', 'score', 'enabled'],
    message: 'profiles[0].plugins.score.enabled: Invalid value: "ImageLocality": must be a list',
  },
];

void describe('findings about a KubeSchedulerConfiguration', () => {
  for (const testCase of CASES) {
    void test(testCase.name, () => {
      const result = parseSchedulerConfiguration(testCase.config, SOURCE, { version: '1.35' });
      assert.equal(result.findings.length, 1, JSON.stringify(result.findings));
      const [finding] = result.findings;
      assert.equal(finding?.code, testCase.code);
      assert.deepEqual(finding?.path, testCase.path);
      assert.equal(finding?.message, testCase.message);
      assert.deepEqual(finding?.object, SOURCE);
      if (testCase.profileNames !== undefined) {
        assert.deepEqual(
          result.profiles.map((p) => p.schedulerName),
          testCase.profileNames,
        );
      }
    });
  }

  void test('a rejected plugin is left out of the profile while the rest is kept', () => {
    const result = parseSchedulerConfiguration(
      {
        ...API,
        profiles: [
          { plugins: { score: { enabled: [{ name: 'Nope' }, { name: 'ImageLocality', weight: 3 }] } } },
        ],
      },
      SOURCE,
    );
    assert.deepEqual(result.profiles[0]?.plugins.score?.enabled, [{ name: 'ImageLocality', weight: 3 }]);
  });

  void test('garbage input yields the default profile with findings, never an exception', () => {
    for (const garbage of [
      null,
      42,
      'text',
      [],
      { apiVersion: 7, profiles: 'x', percentageOfNodesToScore: 'all' },
    ]) {
      const result = parseSchedulerConfiguration(garbage, SOURCE);
      assert.equal(result.profiles[0]?.schedulerName, 'default-scheduler');
      assert.ok(result.findings.length >= 1);
    }
  });
});
