/**
 * The live TopologyIndex keeps its counters, its label index and its change positions up to date from the
 * cluster's change log, and builds the label indexes per key when a counter first asks for one (from the first
 * counter on for the change positions). Differential: after every random change (pods placed, removed, moved, of
 * several labels, counters asked for at different times), each live counter holds what a counter built afresh over
 * the same nodes (an index nobody keeps in sync: it walks every pod) holds.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  anchorOf,
  TopologyIndex,
  topologyIndexFor,
} from '../../../../server/src/engine/scheduler/plugins/helper/topology-counter';
import type { PodCounter } from '../../../../server/src/engine/scheduler/plugins/helper/topology-counter';
import { selectorFromSet } from '../../../../server/src/engine/model/label-selector';
import type { PodLabelSelector } from '../../../../server/src/engine/model/label-selector';
import type { NodeInfo } from '../../../../server/src/engine/model/snapshot/node-info';
import type { PodInfo } from '../../../../server/src/engine/model/snapshot/pod-info';
import { SeededRandom } from '../../../../server/src/engine/sim/seeded-random';
import { makeCluster, makeNode, makePod } from '../builders';

const ZONES = ['a', 'b', 'c'];
const APPS = ['web', 'db', 'cache'];
const TIERS = ['front', 'back'];

/** The rules counters are asked for: a selector (its anchor is its first requirement) and a domain rule. */
const RULES: readonly { name: string; selector: PodLabelSelector; byZone: boolean }[] = [
  { name: 'app=web by zone', selector: selectorFromSet({ app: 'web' }), byZone: true },
  { name: 'app=db by node', selector: selectorFromSet({ app: 'db' }), byZone: false },
  {
    name: 'app=cache,tier=back by zone',
    selector: selectorFromSet({ app: 'cache', tier: 'back' }),
    byZone: true,
  },
  { name: 'tier=front by node', selector: selectorFromSet({ tier: 'front' }), byZone: false },
  { name: 'tier=back by zone', selector: selectorFromSet({ tier: 'back' }), byZone: true },
  {
    name: 'version=2 by zone (a key few pods carry)',
    selector: selectorFromSet({ version: '2' }),
    byZone: true,
  },
];

function counterOf(index: TopologyIndex, rule: (typeof RULES)[number]): PodCounter {
  const domains = rule.byZone
    ? index.domains('zone', (node) => node.labels['topology.kubernetes.io/zone'] ?? null)
    : index.domains('node', (node) => node.name);
  return index.counter(`${rule.name}`, domains, (pod) => rule.selector.matches(pod.labels), {
    keepPerNode: true,
    anchor: anchorOf(rule.selector),
  });
}

function randomPod(random: SeededRandom, serial: number): PodInfo {
  const labels: Record<string, string> = {
    app: APPS[random.nextInt(APPS.length)] ?? 'web',
    tier: TIERS[random.nextInt(TIERS.length)] ?? 'front',
  };
  if (random.nextInt(5) === 0) {
    labels['version'] = String(1 + random.nextInt(2));
  }
  const pod = makePod(`p${serial}`);
  return { ...pod, labels };
}

describe('TopologyIndex kept in sync against counters built afresh', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    test(`seed ${seed}: after every change each live counter equals a fresh count over the same nodes`, () => {
      const random = new SeededRandom(seed);
      const nodes: NodeInfo[] = Array.from({ length: 7 }, (_, i) =>
        makeNode(`n${i}`, { labels: { 'topology.kubernetes.io/zone': ZONES[i % 3] ?? 'a' } }),
      );
      const cluster = makeCluster(nodes);
      const live = topologyIndexFor(cluster, cluster.nodes);
      const placed: PodInfo[] = [];
      let serial = 0;
      // Pods placed before any counter exists: the log starts with them, as with a capture's pods.
      for (let i = 0; i < 20; i++) {
        const pod = randomPod(random, serial++);
        const node = nodes[random.nextInt(nodes.length)] as NodeInfo;
        pod.nodeName = node.name;
        node.addPod(pod);
        placed.push(pod);
      }
      const asked = new Set<number>();
      for (let step = 0; step < 120; step++) {
        const action = random.nextInt(4);
        if (action <= 1 || placed.length === 0) {
          const pod = randomPod(random, serial++);
          const node = nodes[random.nextInt(nodes.length)] as NodeInfo;
          pod.nodeName = node.name;
          node.addPod(pod);
          placed.push(pod);
        } else {
          const [pod] = placed.splice(random.nextInt(placed.length), 1);
          const from = nodes.find((node) => node.name === pod?.nodeName);
          assert.ok(pod !== undefined && from?.removePod(pod) === true);
          if (action === 3) {
            // Moved: placed again elsewhere, as a preemption's victim or a rescheduled pod is.
            const to = nodes[random.nextInt(nodes.length)] as NodeInfo;
            pod.nodeName = to.name;
            to.addPod(pod);
            placed.push(pod);
          }
        }
        // A new rule is asked for now and then, so counters start at different log positions.
        if (random.nextInt(6) === 0) {
          asked.add(random.nextInt(RULES.length));
        }
        for (const r of asked) {
          const rule = RULES[r] as (typeof RULES)[number];
          const kept = counterOf(live, rule);
          const fresh = counterOf(new TopologyIndex(nodes, null), rule);
          assert.deepEqual([...kept.counts], [...fresh.counts], `${rule.name}, step ${step}: counts`);
          assert.deepEqual([...(kept.perNode ?? [])], [...(fresh.perNode ?? [])], `${rule.name}: per node`);
          assert.equal(kept.total, fresh.total, `${rule.name}, step ${step}: total`);
          assert.equal(kept.minCount(), fresh.minCount(), `${rule.name}, step ${step}: minimum`);
          assert.deepEqual(kept.distinctCounts(), fresh.distinctCounts(), `${rule.name}: distinct counts`);
        }
      }
      assert.ok(asked.size >= 2, 'the seed asked for several rules');
    });
  }

  test('the pods carrying a label, as the live index lists them, are the placed pods with that label', () => {
    const nodes = [makeNode('n0'), makeNode('n1')];
    const cluster = makeCluster(nodes);
    const index = topologyIndexFor(cluster, cluster.nodes);
    const web = { ...makePod('web'), labels: { app: 'web' } };
    const db = { ...makePod('db'), labels: { app: 'db' } };
    nodes[0]?.addPod(web);
    nodes[1]?.addPod(db);
    assert.deepEqual([...(index.podsWithLabel({ key: 'app', value: 'web' }) ?? [])], [[web, 0]]);
    nodes[0]?.removePod(web);
    nodes[1]?.addPod(web);
    assert.deepEqual(
      [...(index.podsWithLabel({ key: 'app', value: 'web' }) ?? [])].map(([pod, at]) => [pod.name, at]),
      [['web', 1]],
    );
    assert.equal(index.podsWithLabel({ key: 'tier', value: 'web' })?.size, 0);
    assert.equal(new TopologyIndex(nodes, null).podsWithLabel({ key: 'app', value: 'web' }), null);
  });
});
