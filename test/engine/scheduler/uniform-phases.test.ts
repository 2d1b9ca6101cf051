/**
 * filterPassesEveryNode and uniformScore are shortcuts: a plugin may claim its filter passes, or its normalised
 * score is one value, on every node of the cluster, from the summary of the nodes' specs. A claim must be true
 * (checked against the per-node phases on every node), made only when the summary allows it, and a whole
 * scheduling run with the shortcuts must record exactly what it records with them removed.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { summarizeNodeSpecs } from '../../../server/src/engine/model/snapshot/node-spec-summary';
import type { NodeInfo } from '../../../server/src/engine/model/snapshot/node-info';
import type { PodInfo } from '../../../server/src/engine/model/snapshot/pod-info';
import { buildFramework } from '../../../server/src/engine/scheduler/framework/build-framework';
import { CycleState } from '../../../server/src/engine/scheduler/framework/cycle-state';
import type { PluginFactory } from '../../../server/src/engine/scheduler/framework/plugin';
import { SUCCESS } from '../../../server/src/engine/scheduler/framework/status';
import { DEFAULT_PROFILE } from '../../../server/src/engine/scheduler/profile';
import { IN_TREE_REGISTRY } from '../../../server/src/engine/scheduler/registry';
import type { PluginRegistry } from '../../../server/src/engine/scheduler/registry';
import { Scheduler } from '../../../server/src/engine/scheduler/scheduler';
import { buildPlugin, container, makeCluster, makeNode, makePod, runScore } from './builders';

/** Nodes that each make one fact of the summary true (or none: 'plain'). */
const NODE_KINDS: Readonly<Record<string, (name: string) => NodeInfo>> = {
  plain: (name) => makeNode(name),
  cordoned: (name) => makeNode(name, { unschedulable: true }),
  tainted: (name) => makeNode(name, { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
  evicting: (name) => makeNode(name, { taints: [{ key: 'broken', effect: 'NoExecute' }] }),
  'soft-tainted': (name) => makeNode(name, { taints: [{ key: 'spot', effect: 'PreferNoSchedule' }] }),
  'with-image': (name) =>
    makeNode(name, { images: [{ names: ['nginx:1.27'], sizeBytes: 500 * 1024 * 1024 }] }),
};

/** Clusters by name: two plain nodes and one of each kind listed. */
const CLUSTERS: readonly { name: string; kinds: readonly string[] }[] = [
  { name: 'plain nodes only', kinds: [] },
  { name: 'one cordoned node', kinds: ['cordoned'] },
  { name: 'one NoSchedule taint', kinds: ['tainted'] },
  { name: 'one NoExecute taint', kinds: ['evicting'] },
  { name: 'one PreferNoSchedule taint', kinds: ['soft-tainted'] },
  { name: 'one node with the image', kinds: ['with-image'] },
  { name: 'every kind of node', kinds: ['cordoned', 'tainted', 'evicting', 'soft-tainted', 'with-image'] },
];

function clusterNodes(kinds: readonly string[]): NodeInfo[] {
  const nodes = [makeNode('plain-0'), makeNode('plain-1')];
  kinds.forEach((kind, i) => nodes.push((NODE_KINDS[kind] as (name: string) => NodeInfo)(`${kind}-${i}`)));
  return nodes;
}

const PODS: readonly { name: string; pod: (name?: string) => PodInfo }[] = [
  {
    name: 'a pod running nginx',
    pod: (name = 'web') =>
      makePod(name, { containers: [{ ...container({ cpu: '500m' }), image: 'nginx:1.27' }] }),
  },
  {
    name: 'a pod tolerating everything',
    pod: (name = 'tolerant') => makePod(name, { tolerations: [{ operator: 'Exists' }] }),
  },
  {
    name: 'a pod with two containers',
    pod: (name = 'pair') => makePod(name, { containers: [container(), container()] }),
  },
];

describe('the node spec summary', () => {
  const CASES: readonly { name: string; kinds: readonly string[]; expected: Record<string, boolean> }[] = [
    {
      name: 'plain nodes have no taint, cordon or image',
      kinds: [],
      expected: {
        hasDoNotScheduleTaint: false,
        hasPreferNoScheduleTaint: false,
        hasUnschedulableNode: false,
        hasImages: false,
      },
    },
    {
      name: 'a NoExecute taint counts as a do-not-schedule taint, not a preference',
      kinds: ['evicting'],
      expected: {
        hasDoNotScheduleTaint: true,
        hasPreferNoScheduleTaint: false,
        hasUnschedulableNode: false,
        hasImages: false,
      },
    },
    {
      name: 'a PreferNoSchedule taint counts only as a preference',
      kinds: ['soft-tainted'],
      expected: {
        hasDoNotScheduleTaint: false,
        hasPreferNoScheduleTaint: true,
        hasUnschedulableNode: false,
        hasImages: false,
      },
    },
    {
      name: 'a cordoned node and a node with images are seen',
      kinds: ['cordoned', 'with-image'],
      expected: {
        hasDoNotScheduleTaint: false,
        hasPreferNoScheduleTaint: false,
        hasUnschedulableNode: true,
        hasImages: true,
      },
    },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => {
      const cluster = makeCluster(clusterNodes(testCase.kinds));
      assert.deepEqual({ ...cluster.nodeSpecs }, testCase.expected);
      assert.deepEqual(summarizeNodeSpecs(cluster.nodes), cluster.nodeSpecs);
    });
  }
});

describe('shortcut claims hold on every node', () => {
  const EXPECTED_CLAIMS: Readonly<Record<string, readonly string[]>> = {
    // The clusters in which each plugin may claim; elsewhere it must not.
    'NodeUnschedulable filter': [
      'plain nodes only',
      'one NoSchedule taint',
      'one NoExecute taint',
      'one PreferNoSchedule taint',
      'one node with the image',
    ],
    'TaintToleration filter': [
      'plain nodes only',
      'one cordoned node',
      'one PreferNoSchedule taint',
      'one node with the image',
    ],
    'TaintToleration score': [
      'plain nodes only',
      'one cordoned node',
      'one NoSchedule taint',
      'one NoExecute taint',
      'one node with the image',
    ],
    'ImageLocality score': [
      'plain nodes only',
      'one cordoned node',
      'one NoSchedule taint',
      'one NoExecute taint',
      'one PreferNoSchedule taint',
    ],
  };
  for (const [label, claimingClusters] of Object.entries(EXPECTED_CLAIMS)) {
    const [pluginName = '', phase] = label.split(' ');
    for (const cluster of CLUSTERS) {
      for (const testCase of PODS) {
        test(`${label}, ${cluster.name}, ${testCase.name}`, () => {
          const nodes = clusterNodes(cluster.kinds);
          const { plugin } = buildPlugin(IN_TREE_REGISTRY.get(pluginName) as PluginFactory, nodes);
          const pod = testCase.pod();
          const isClaimExpected = claimingClusters.includes(cluster.name);
          if (phase === 'filter') {
            const claims = plugin.filterPassesEveryNode?.(pod) === true;
            assert.equal(claims, isClaimExpected);
            if (claims) {
              for (const node of nodes) {
                assert.equal(plugin.filter?.(new CycleState(), pod, node), SUCCESS, node.name);
              }
            }
            return;
          }
          const state = new CycleState();
          plugin.preScore?.(state, pod, nodes);
          const uniform = plugin.uniformScore?.(state, pod) ?? null;
          assert.equal(uniform !== null, isClaimExpected);
          if (uniform !== null) {
            const scores = runScore(plugin, pod, nodes);
            assert.deepEqual(scores, Object.fromEntries(nodes.map((node) => [node.name, uniform])));
          }
        });
      }
    }
  }
});

describe('every shortcut is checked', () => {
  test('each in-tree plugin with filterPassesEveryNode or uniformScore has its claims checked above', () => {
    const withShortcuts: string[] = [];
    for (const [name, factory] of IN_TREE_REGISTRY) {
      const { plugin } = buildPlugin(factory, clusterNodes([]));
      if (plugin.filterPassesEveryNode !== undefined) {
        withShortcuts.push(`${name} filter`);
      }
      if (plugin.uniformScore !== undefined) {
        withShortcuts.push(`${name} score`);
      }
    }
    assert.deepEqual(withShortcuts.sort(), [
      'ImageLocality score',
      'NodeUnschedulable filter',
      'TaintToleration filter',
      'TaintToleration score',
    ]);
  });
});

/** The in-tree registry with every plugin's shortcuts removed: the framework visits every node. */
function registryWithoutShortcuts(): PluginRegistry {
  const registry = new Map<string, PluginFactory>();
  for (const [name, factory] of IN_TREE_REGISTRY) {
    registry.set(name, (context) => {
      const plugin = { ...factory(context) };
      delete plugin.filterPassesEveryNode;
      delete plugin.uniformScore;
      return plugin;
    });
  }
  return registry;
}

/** Every record of scheduling these pods, in full detail, as plain data. */
function scheduleAll(
  nodes: readonly NodeInfo[],
  pods: readonly PodInfo[],
  registry: PluginRegistry,
): unknown[] {
  const cluster = makeCluster(nodes);
  const { framework } = buildFramework(DEFAULT_PROFILE, registry, cluster, '1.35');
  const scheduler = new Scheduler(cluster, new Map([[DEFAULT_PROFILE.schedulerName, framework]]), {
    detail: 'full',
  });
  return scheduler.scheduleAll(pods).map((record) => ({
    pod: record.pod.name,
    nodeName: record.nodeName,
    tiedNodes: record.tiedNodes,
    evaluatedNodes: record.evaluatedNodes,
    feasibleNodes: record.feasibleNodes,
    filterStatuses: [...record.filterStatuses],
    scores: record.scores,
    fitError: record.fitError === null ? null : [...record.fitError.diagnosis.nodeStatuses],
  }));
}

describe('a scheduling run records the same with and without the shortcuts', () => {
  for (const cluster of CLUSTERS) {
    test(cluster.name, () => {
      const pods = (): PodInfo[] =>
        Array.from({ length: 12 }, (_, i) =>
          (PODS[i % PODS.length] as (typeof PODS)[number]).pod(`pod-${i}`),
        );
      const fast = scheduleAll(clusterNodes(cluster.kinds), pods(), IN_TREE_REGISTRY);
      const slow = scheduleAll(clusterNodes(cluster.kinds), pods(), registryWithoutShortcuts());
      assert.deepEqual(fast, slow);
      assert.ok(fast.some((record) => (record as { nodeName: string | null }).nodeName !== null));
    });
  }
});
