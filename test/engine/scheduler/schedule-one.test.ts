import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildFramework } from '../../../server/src/engine/scheduler/framework/build-framework';
import { formatFitError } from '../../../server/src/engine/scheduler/framework/fit-error';
import { DEFAULT_PROFILE } from '../../../server/src/engine/scheduler/profile';
import type { SchedulerProfile } from '../../../server/src/engine/scheduler/profile';
import { IN_TREE_REGISTRY } from '../../../server/src/engine/scheduler/registry';
import { numFeasibleNodesToFind } from '../../../server/src/engine/scheduler/schedule-one';
import {
  SCHEDULING_GATED_MESSAGE,
  Scheduler,
  queueOrder,
} from '../../../server/src/engine/scheduler/scheduler';
import type { NodeInfo } from '../../../server/src/engine/model/snapshot/node-info';
import type { PodInfo } from '../../../server/src/engine/model/snapshot/pod-info';
import { container, makeCluster, makeNode, makePod } from './builders';

/**
 * The default profile without PostFilter plugins: these tests pin the filter part of FitError messages, which
 * preemption (another engineer's DefaultPreemption) would extend.
 */
const NO_POST_FILTER: SchedulerProfile = {
  ...DEFAULT_PROFILE,
  plugins: { ...DEFAULT_PROFILE.plugins, postFilter: { enabled: [], disabled: ['*'] } },
};

function scheduler(nodes: readonly NodeInfo[], profile: SchedulerProfile = NO_POST_FILTER) {
  const cluster = makeCluster(nodes);
  const built = buildFramework(profile, IN_TREE_REGISTRY, cluster, '1.35');
  return {
    scheduler: new Scheduler(cluster, new Map([[profile.schedulerName, built.framework]]), {
      detail: 'full',
    }),
    built,
  };
}

function cpuPod(name: string, cpu: string, extra: Record<string, unknown> = {}): PodInfo {
  return makePod(name, { containers: [container({ cpu, memory: '100Mi' })], ...extra });
}

describe('numFeasibleNodesToFind (percentageOfNodesToScore)', () => {
  const CASES: readonly { name: string; percentage?: number; nodes: number; expected: number }[] = [
    { name: 'below 100 nodes every node is checked', nodes: 50, expected: 50 },
    { name: 'at 100 nodes the adaptive 49% still gives the minimum of 100', nodes: 100, expected: 100 },
    { name: 'at 1000 nodes the adaptive percentage is 50 - 1000/125 = 42%', nodes: 1000, expected: 420 },
    { name: 'at 5000 nodes the adaptive percentage is 10%', nodes: 5000, expected: 500 },
    { name: 'at 6000 nodes the adaptive percentage bottoms out at 5%', nodes: 6000, expected: 300 },
    { name: 'a configured 30% of 1000 nodes is 300', percentage: 30, nodes: 1000, expected: 300 },
    { name: 'a configured percentage never goes below 100 nodes', percentage: 1, nodes: 1000, expected: 100 },
    { name: '100% checks every node', percentage: 100, nodes: 5000, expected: 5000 },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => {
      assert.equal(numFeasibleNodesToFind(testCase.percentage, testCase.nodes), testCase.expected);
    });
  }
});

describe('scheduling cycle', () => {
  test('ties between equally good nodes go to the first in node order, and every tied node is reported', () => {
    const { scheduler: run } = scheduler(['w1', 'w2', 'w3'].map((name) => makeNode(name)));
    const [record] = run.scheduleAll([cpuPod('p', '100m')]);
    assert.equal(record?.nodeName, 'w1');
    assert.deepEqual(record?.tiedNodes, ['w1', 'w2', 'w3']);
  });

  test('each pod sees the pods placed before it', () => {
    const { scheduler: run } = scheduler([makeNode('only', { cpu: '1' })]);
    const records = run.scheduleAll([cpuPod('a', '600m'), cpuPod('b', '600m')]);
    assert.equal(records[0]?.nodeName, 'only');
    assert.equal(records[1]?.nodeName, null);
    assert.equal(
      records[1]?.fitError && formatFitError(records[1].fitError),
      '0/1 nodes are available: 1 Insufficient cpu.',
    );
  });

  test('pods are queued by priority, then input order', () => {
    const low = cpuPod('low', '600m');
    const high = cpuPod('high', '600m', { priority: 1000 });
    const also = cpuPod('also-low', '100m');
    assert.deepEqual(
      queueOrder([low, high, also]).map((pod) => pod.name),
      ['high', 'low', 'also-low'],
    );
    const { scheduler: run } = scheduler([makeNode('only', { cpu: '1' })]);
    const records = run.scheduleAll([low, high]);
    assert.deepEqual(
      records.map((record) => [record.pod.name, record.nodeName]),
      [
        ['high', 'only'],
        ['low', null],
      ],
    );
  });

  test('the search stops after enough feasible nodes and the next pod starts where the last one stopped', () => {
    const nodes = Array.from({ length: 200 }, (_, i) => makeNode(`n${String(i).padStart(3, '0')}`));
    const { scheduler: run } = scheduler(nodes);
    const [first, second] = run.scheduleAll([cpuPod('a', '100m'), cpuPod('b', '100m')]);
    // 200 nodes: adaptive 49% → 98, raised to the minimum of 100
    assert.equal(first?.evaluatedNodes, 100);
    assert.equal(first?.feasibleNodes, 100);
    assert.equal(first?.nodeName, 'n000');
    assert.equal(second?.nodeName, 'n100');
  });

  test('a cluster with a tainted control plane gives the mixed FitError of the issue', () => {
    const nodes = [
      makeNode('cp', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }),
      ...['w1', 'w2', 'w3'].map((name) => makeNode(name)),
    ];
    const { scheduler: run } = scheduler(nodes);
    const [record] = run.scheduleAll([cpuPod('big', '5')]);
    assert.equal(
      record?.fitError && formatFitError(record.fitError),
      '0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 Insufficient cpu.',
    );
    assert.deepEqual([...(record?.filterStatuses.keys() ?? [])], ['cp', 'w1', 'w2', 'w3']);
    assert.equal(record?.filterStatuses.get('cp')?.plugin, 'TaintToleration');
  });

  test('DynamicResources adds its PostFilter reason from 1.34, when DRA is on by default, not in 1.33', () => {
    for (const [version, suffix] of [
      ['1.33', ''],
      ['1.34', ' no new claims to deallocate'],
      ['1.35', ' no new claims to deallocate'],
    ] as const) {
      const cluster = makeCluster([makeNode('only', { cpu: '1' })]);
      const profile: SchedulerProfile = {
        schedulerName: 'default-scheduler',
        plugins: {
          multiPoint: { enabled: [{ name: 'NodeResourcesFit' }, { name: 'DynamicResources' }], disabled: [] },
        },
        pluginConfig: {},
      };
      const built = buildFramework(profile, IN_TREE_REGISTRY, cluster, version);
      const run = new Scheduler(cluster, new Map([['default-scheduler', built.framework]]), {
        detail: 'compact',
      });
      const [record] = run.scheduleAll([cpuPod('big', '2')]);
      assert.equal(
        record?.fitError && formatFitError(record.fitError),
        `0/1 nodes are available: 1 Insufficient cpu.${suffix}`,
        version,
      );
    }
  });

  test('a gated pod is not scheduled and says why', () => {
    const { scheduler: run } = scheduler([makeNode('n1')]);
    const [record] = run.scheduleAll([
      makePod('gated', { schedulingGates: [{ name: 'example.com/quota' }] }),
    ]);
    assert.equal(record?.nodeName, null);
    assert.equal(record?.notAttempted?.message, SCHEDULING_GATED_MESSAGE);
  });

  test('a pod naming a scheduler no profile has stays Pending', () => {
    const { scheduler: run } = scheduler([makeNode('n1')]);
    const [record] = run.scheduleAll([makePod('custom', { schedulerName: 'my-scheduler' })]);
    assert.equal(record?.notAttempted?.kind, 'no-profile');
  });
});

describe('building a framework from a profile', () => {
  test('plugins the engine lacks are reported, not fatal, and scheduling goes on', () => {
    const profile: SchedulerProfile = {
      schedulerName: 'custom',
      plugins: {
        multiPoint: { enabled: [{ name: 'NodeResourcesFit' }, { name: 'Coscheduling' }], disabled: [] },
      },
      pluginConfig: {},
    };
    const { scheduler: run, built } = scheduler([makeNode('n1')], profile);
    assert.deepEqual(
      built.missingPlugins.map((plugin) => plugin.name),
      ['Coscheduling'],
    );
    assert.equal(built.findings[0]?.code, 'plugin-not-modelled');
    assert.match(built.findings[0]?.message ?? '', /Coscheduling/);
    const [record] = run.scheduleAll([makePod('p', { schedulerName: 'custom' })]);
    assert.equal(record?.nodeName, 'n1');
  });

  test('the default profile scores with TaintToleration, NodeAffinity, NodeResourcesFit, BalancedAllocation, ImageLocality weighted 3, 2, 1, 1, 1', () => {
    const nodes = [makeNode('a', { labels: { disk: 'ssd' } }), makeNode('b')];
    const { scheduler: run, built } = scheduler(nodes);
    const names = built.framework.scorePluginNames;
    for (const name of [
      'TaintToleration',
      'NodeAffinity',
      'NodeResourcesFit',
      'NodeResourcesBalancedAllocation',
      'ImageLocality',
    ]) {
      assert.ok(names.includes(name), name);
    }
    const pod = cpuPod('p', '100m', {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 10,
              preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] },
            },
          ],
        },
      },
    });
    const [record] = run.scheduleAll([pod]);
    const scoreOf = (node: string, plugin: string) =>
      record?.scores?.nodes.find((entry) => entry.name === node)?.scores[names.indexOf(plugin)];
    assert.equal(scoreOf('a', 'TaintToleration'), 300);
    assert.equal(scoreOf('a', 'NodeAffinity'), 200);
    assert.equal(scoreOf('b', 'NodeAffinity'), 0);
    assert.equal(record?.nodeName, 'a');
  });

  test('a profile that disables a score plugin at the score point still filters with it', () => {
    const profile: SchedulerProfile = {
      ...DEFAULT_PROFILE,
      plugins: { ...DEFAULT_PROFILE.plugins, score: { enabled: [], disabled: ['TaintToleration'] } },
    };
    const nodes = [
      makeNode('cp', { taints: [{ key: 'dedicated', effect: 'NoSchedule' }] }),
      makeNode('w1', { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] }),
    ];
    const { scheduler: run, built } = scheduler(nodes, profile);
    assert.ok(!built.framework.scorePluginNames.includes('TaintToleration'));
    const [record] = run.scheduleAll([cpuPod('p', '100m')]);
    assert.equal(record?.nodeName, 'w1');
    assert.equal(record?.filterStatuses.get('cp')?.plugin, 'TaintToleration');
  });
});
