/**
 * The resource scorers remember node scores per request vector (plugins/node-resources-fit/score-cache.ts). A
 * remembered score must never outlive the node sums it was computed from: after every change below, the batch
 * scores (cached) must equal the per-node scores (always computed afresh).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CycleState } from '../../../../server/src/engine/scheduler/framework/cycle-state';
import type {
  SchedulerPlugin,
  PluginFactory,
} from '../../../../server/src/engine/scheduler/framework/plugin';
import { createBalancedAllocation } from '../../../../server/src/engine/scheduler/plugins/node-resources-balanced-allocation';
import { createNodeResourcesFit } from '../../../../server/src/engine/scheduler/plugins/node-resources-fit';
import type { NodeInfo } from '../../../../server/src/engine/model/snapshot/node-info';
import type { PodInfo } from '../../../../server/src/engine/model/snapshot/pod-info';
import { buildPlugin, container, makeCluster, makeNode, makePod } from '../builders';

const SMALL = (name: string): PodInfo =>
  makePod(name, { containers: [container({ cpu: '250m', memory: '1Gi' })] });
const LARGE = (name: string): PodInfo =>
  makePod(name, { containers: [container({ cpu: '3', memory: '6Gi' })] });
const GPU = (name: string): PodInfo =>
  makePod(name, { containers: [container({ cpu: '1', memory: '2Gi', 'example.com/gpu': '1' })] });

function nodes(): NodeInfo[] {
  return [
    makeNode('a', { cpu: '4', memory: '16Gi' }),
    makeNode('b', { cpu: '8', memory: '8Gi' }),
    makeNode('c', { cpu: '16', memory: '64Gi', extended: { 'example.com/gpu': '2' } }),
  ];
}

/** Batch scores (through the cache) and per-node scores (computed afresh) of one pod. */
function bothWays(plugin: SchedulerPlugin, pod: PodInfo, on: readonly NodeInfo[]): [number[], number[]] {
  const state = new CycleState();
  plugin.preScore?.(state, pod, on);
  const batch = new Float64Array(on.length);
  plugin.scoreNodes?.(state, pod, on, batch);
  return [[...batch], on.map((node) => plugin.score?.(state, pod, node) ?? NaN)];
}

const PLUGINS: readonly { name: string; factory: PluginFactory; args?: unknown }[] = [
  { name: 'NodeResourcesFit, LeastAllocated', factory: createNodeResourcesFit },
  {
    name: 'NodeResourcesFit, MostAllocated with the gpu',
    factory: createNodeResourcesFit,
    args: {
      scoringStrategy: {
        type: 'MostAllocated',
        resources: [
          { name: 'cpu', weight: 1 },
          { name: 'memory', weight: 1 },
          { name: 'example.com/gpu', weight: 3 },
        ],
      },
    },
  },
  { name: 'NodeResourcesBalancedAllocation', factory: createBalancedAllocation },
];

describe('remembered resource scores follow every change of the node sums', () => {
  for (const entry of PLUGINS) {
    test(`${entry.name}: after pods are added and removed, cached scores equal fresh ones`, () => {
      const cluster = nodes();
      const { plugin } = buildPlugin(entry.factory, cluster, { args: entry.args });
      const [a, b, c] = cluster as [NodeInfo, NodeInfo, NodeInfo];
      const s1 = SMALL('s1');
      const g1 = GPU('g1');
      const l1 = LARGE('l1');
      const l2 = LARGE('l2');
      const steps: readonly (() => unknown)[] = [
        () => undefined,
        () => a.addPod(s1),
        () => c.addPod(g1),
        () => b.addPod(l1),
        () => a.addPod(l2),
        () => a.removePod(s1),
        () => c.removePod(g1),
      ];
      const seenOnA = new Set<number>();
      steps.forEach((step, index) => {
        step();
        for (const pod of [SMALL('x'), LARGE('y'), GPU('z'), SMALL('x2')]) {
          const [batch, fresh] = bothWays(plugin, pod, cluster);
          assert.deepEqual(batch, fresh, `after step ${index}, pod ${pod.key}`);
          seenOnA.add(batch[0] ?? NaN);
        }
      });
      // Node a's scores did change between steps: a stale remembered score would have been caught.
      assert.ok(seenOnA.size > 4, [...seenOnA].join(' '));
    });
  }

  test('one plugin scoring the same rows of two clusters with the same history never mixes their scores', () => {
    // Equal write histories give equal row stamps: only the columns' identity tells the clusters apart.
    const first = [makeNode('a', { cpu: '4', memory: '16Gi' }), makeNode('b', { cpu: '8', memory: '8Gi' })];
    const second = [makeNode('a', { cpu: '2', memory: '4Gi' }), makeNode('b', { cpu: '32', memory: '8Gi' })];
    const { plugin } = buildPlugin(createNodeResourcesFit, first);
    makeCluster(second);
    for (let round = 0; round < 3; round++) {
      for (const on of [first, second]) {
        const [batch, fresh] = bothWays(plugin, SMALL('x'), on);
        assert.deepEqual(batch, fresh, `round ${round}`);
      }
    }
    assert.notDeepEqual(bothWays(plugin, SMALL('x'), first)[0], bothWays(plugin, SMALL('x'), second)[0]);
  });
});
