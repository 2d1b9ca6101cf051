/**
 * filterNodes, scoreNodes and normalizeScoreColumn are only a faster way to call filter, score and
 * normalizeScore: for every plugin that has them, on nodes that pass and fail for different reasons, they must
 * give exactly what the per-node phases give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CycleState } from '../../../server/src/engine/scheduler/framework/cycle-state';
import type { NodeScore } from '../../../server/src/engine/scheduler/framework/plugin';
import type { Status } from '../../../server/src/engine/scheduler/framework/status';
import { IN_TREE_REGISTRY } from '../../../server/src/engine/scheduler/registry';
import type { NodeInfo } from '../../../server/src/engine/model/snapshot/node-info';
import type { PodInfo } from '../../../server/src/engine/model/snapshot/pod-info';
import { buildPlugin, container, makeNode, makePod, withPods } from './builders';

const ZONE = 'topology.kubernetes.io/zone';

function clusterNodes(): NodeInfo[] {
  const web = (name: string): PodInfo =>
    makePod(name, { containers: [container({ cpu: '1', memory: '1Gi' })] });
  return [
    makeNode('plain', { labels: { [ZONE]: 'a' } }),
    makeNode('cordoned', { labels: { [ZONE]: 'a' }, unschedulable: true }),
    makeNode('tainted', {
      labels: { [ZONE]: 'b' },
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
    }),
    makeNode('soft-tainted', {
      labels: { [ZONE]: 'b' },
      taints: [{ key: 'spot', effect: 'PreferNoSchedule' }],
    }),
    withPods(makeNode('busy', { cpu: '2', labels: { [ZONE]: 'c' } }), [web('web-1')]),
    withPods(makeNode('full', { cpu: '1', pods: 1, labels: { [ZONE]: 'c' } }), [web('web-2')]),
    makeNode('no-zone'),
    makeNode('with-image', {
      labels: { [ZONE]: 'a' },
      images: [{ names: ['nginx:1.27'], sizeBytes: 500 * 1024 * 1024 }],
    }),
  ];
}

const PODS: readonly { name: string; pod: () => PodInfo }[] = [
  {
    name: 'a plain pod',
    pod: () =>
      makePod('plain', {
        containers: [{ ...container({ cpu: '500m', memory: '1Gi' }), image: 'nginx:1.27' }],
      }),
  },
  {
    name: 'a pod tolerating everything, best effort',
    pod: () => makePod('tolerant', { tolerations: [{ operator: 'Exists' }] }),
  },
  {
    name: 'a pod preferring zone b',
    pod: () =>
      makePod('prefers', {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 5, preference: { matchExpressions: [{ key: ZONE, operator: 'In', values: ['b'] }] } },
            ],
          },
        },
      }),
  },
  {
    name: 'a pod with zone spreading and anti-affinity against web pods',
    pod: () =>
      makePod('spread', {
        containers: [container({ cpu: '1500m' })],
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'DoNotSchedule', labelSelector: {} },
          { maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: {} },
        ],
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'web-1' } }, topologyKey: ZONE },
            ],
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 10,
                podAffinityTerm: { labelSelector: { matchLabels: { app: 'web-2' } }, topologyKey: ZONE },
              },
            ],
          },
        },
      }),
  },
];

const PLUGINS = [
  'NodeUnschedulable',
  'TaintToleration',
  'NodeResourcesFit',
  'NodeResourcesBalancedAllocation',
  'ImageLocality',
  'PodTopologySpread',
  'InterPodAffinity',
];

/** Plugins with a column form of NormalizeScore only. */
const NORMALIZE_ONLY = ['NodeAffinity'];

describe('batch phases give what the per-node phases give', () => {
  for (const name of [...PLUGINS, ...NORMALIZE_ONLY]) {
    for (const testCase of PODS) {
      test(`${name}, ${testCase.name}`, () => {
        const factory = IN_TREE_REGISTRY.get(name);
        assert.ok(factory !== undefined);
        const nodes = clusterNodes();
        const { plugin } = buildPlugin(factory, nodes);
        const pod = testCase.pod();
        const state = new CycleState();
        const preFilter = plugin.preFilter?.(state, pod, nodes);
        if (plugin.filterNodes !== undefined && preFilter?.status.code !== 'Skip') {
          const batch: Status[] = [];
          plugin.filterNodes(state, pod, nodes, batch);
          assert.deepEqual(
            batch,
            nodes.map((node) => plugin.filter?.(state, pod, node)),
          );
        }
        const preScore = plugin.preScore?.(state, pod, nodes);
        if (plugin.scoreNodes !== undefined && preScore?.code !== 'Skip') {
          const batch = new Float64Array(nodes.length);
          plugin.scoreNodes(state, pod, nodes, batch);
          assert.deepEqual(
            [...batch],
            nodes.map((node) => plugin.score?.(state, pod, node)),
          );
        }
        if (plugin.normalizeScoreColumn !== undefined && preScore?.code !== 'Skip') {
          const column = Float64Array.from(nodes, (node) => plugin.score?.(state, pod, node) ?? 0);
          const list: NodeScore[] = nodes.map((node, i) => ({ name: node.name, score: column[i] ?? 0 }));
          assert.deepEqual(
            plugin.normalizeScoreColumn(state, pod, nodes, column),
            plugin.normalizeScore?.(state, pod, list),
          );
          assert.deepEqual(
            [...column],
            list.map((entry) => entry.score),
          );
        }
      });
    }
  }

  test('every plugin listed has both batch phases where it has the per-node ones', () => {
    for (const name of PLUGINS) {
      const factory = IN_TREE_REGISTRY.get(name);
      assert.ok(factory !== undefined);
      const { plugin } = buildPlugin(factory, clusterNodes());
      assert.equal(plugin.filterNodes !== undefined, plugin.filter !== undefined, name);
      assert.equal(plugin.scoreNodes !== undefined, plugin.score !== undefined, name);
    }
    for (const name of ['TaintToleration', 'NodeAffinity', 'PodTopologySpread']) {
      const factory = IN_TREE_REGISTRY.get(name);
      assert.ok(factory !== undefined);
      assert.ok(buildPlugin(factory, clusterNodes()).plugin.normalizeScoreColumn !== undefined, name);
    }
  });
});
