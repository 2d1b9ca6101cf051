import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  EquivalenceCache,
  PodClassKeys,
  specKeyOf,
} from '../../../server/src/engine/scheduler/equivalence-cache';
import { buildFramework } from '../../../server/src/engine/scheduler/framework/build-framework';
import { formatFitError } from '../../../server/src/engine/scheduler/framework/fit-error';
import { DEFAULT_PROFILE } from '../../../server/src/engine/scheduler/profile';
import { IN_TREE_REGISTRY } from '../../../server/src/engine/scheduler/registry';
import { Scheduler } from '../../../server/src/engine/scheduler/scheduler';
import type { SchedulingRecord } from '../../../server/src/engine/scheduler/record';
import type { NodeInfo } from '../../../server/src/engine/model/snapshot/node-info';
import type { PodInfo } from '../../../server/src/engine/model/snapshot/pod-info';
import { container, makeCluster, makeNode, makePod, withPods } from './builders';

// Which pods share a verdict (the class key) and when a verdict is forgotten. The class follows what kube-scheduler's
// equivalence cache hashed (pkg/scheduler/core/equivalence_cache.go getEquivalencePod: the pod's scheduling
// requirements, not its identity), made conservative: see server/src/engine/scheduler/equivalence-cache.ts.

function pod(name: string, extra: Record<string, unknown> = {}, cpu = '500m'): PodInfo {
  return makePod(name, { containers: [container({ cpu, memory: '100Mi' })], ...extra });
}

function withStatus(info: PodInfo, status: Record<string, unknown>): PodInfo {
  return { ...info, pod: { ...info.pod, status } };
}

const ANTI_AFFINITY = {
  affinity: {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: { app: 'x' } }, topologyKey: 'kubernetes.io/hostname' },
      ],
    },
  },
};

interface Case {
  readonly name: string;
  readonly stored: PodInfo;
  readonly asked: PodInfo;
  readonly labelsAlwaysRead?: boolean;
  /** Nodes as placed pods stand (for the anti-affinity of placed pods). */
  readonly nodes?: readonly NodeInfo[];
  /** The generation asked at (stored at 'g1'). */
  readonly generation?: string;
  readonly shares: boolean;
}

const CASES: readonly Case[] = [
  {
    name: 'two replicas of one template share a class',
    stored: pod('web-1'),
    asked: pod('web-2'),
    shares: true,
  },
  {
    name: 'pods differing only in image, command and env share a class (no filter reads them)',
    stored: pod('a', { containers: [container({ cpu: '500m', memory: '100Mi' })] }),
    asked: pod('b', {
      containers: [
        container(
          { cpu: '500m', memory: '100Mi' },
          {},
          { image: 'nginx:2', command: ['x'], env: [{ name: 'A' }] },
        ),
      ],
    }),
    shares: true,
  },
  {
    name: 'pods of other labels share a class when no plugin reads labels',
    stored: pod('a'),
    asked: pod('b'),
    shares: true,
  },
  {
    name: 'pods differing in a cpu request do not share a class (NodeResourcesFit)',
    stored: pod('a', {}, '500m'),
    asked: pod('b', {}, '600m'),
    shares: false,
  },
  {
    name: 'pods differing in tolerations do not share a class (TaintToleration)',
    stored: pod('a'),
    asked: pod('b', { tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }] }),
    shares: false,
  },
  {
    name: 'pods of other labels with pod anti-affinity do not share a class (InterPodAffinity reads labels)',
    stored: pod('a', ANTI_AFFINITY),
    asked: pod('b', ANTI_AFFINITY),
    shares: false,
  },
  {
    name: 'pods of other labels do not share a class once a placed pod has required anti-affinity',
    stored: pod('a'),
    asked: pod('b'),
    nodes: [withPods(makeNode('n1'), [pod('x', ANTI_AFFINITY)])],
    shares: false,
  },
  {
    name: 'pods of other labels do not share a class when a profile sets PodTopologySpread arguments',
    stored: pod('a'),
    asked: pod('b'),
    labelsAlwaysRead: true,
    shares: false,
  },
  {
    name: 'pods of another namespace do not share a class',
    stored: pod('a'),
    asked: { ...pod('a'), namespace: 'other', key: 'other/a' },
    shares: false,
  },
  {
    name: 'a pod with a nominated node is never served from the cache (evaluateNominatedNode)',
    stored: pod('a'),
    asked: withStatus(pod('b'), { nominatedNodeName: 'n1' }),
    shares: false,
  },
  {
    name: 'a pod with a PersistentVolumeClaim is never cached (a PreBind may change its claim)',
    stored: pod('a', { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] }),
    asked: pod('b', { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] }),
    shares: false,
  },
  {
    name: 'a pod with a generic ephemeral volume is never cached (its claim is named after the pod)',
    stored: pod('a', { volumes: [{ name: 'd', ephemeral: { volumeClaimTemplate: { spec: {} } } }] }),
    asked: pod('a', { volumes: [{ name: 'd', ephemeral: { volumeClaimTemplate: { spec: {} } } }] }),
    shares: false,
  },
  {
    name: 'a verdict is forgotten once the cluster changed (another generation)',
    stored: pod('a'),
    asked: pod('b'),
    generation: 'g2',
    shares: false,
  },
];

describe('EquivalenceCache class key', () => {
  for (const entry of CASES) {
    test(entry.name, () => {
      const cache = new EquivalenceCache<string>(entry.labelsAlwaysRead ?? false);
      const nodes = entry.nodes ?? [makeNode('n1')];
      cache.store(entry.stored, 'g1', nodes, 'verdict');
      const found = cache.lookup(entry.asked, entry.generation ?? 'g1', nodes);
      assert.equal(found, entry.shares ? 'verdict' : undefined);
    });
  }
});

describe('PodClassKeys shared by the caches of one simulation', () => {
  test('a class stored through one cache is found through another given the same keys, as with keys of its own', () => {
    const nodes = [makeNode('n1')];
    for (const shared of [new PodClassKeys(), undefined]) {
      const scheduler = new EquivalenceCache<string>(false, shared);
      const autoscaler = new EquivalenceCache<string>(false, shared);
      const stored = pod('web-1');
      scheduler.store(stored, 'g1', nodes, 'verdict');
      autoscaler.store(stored, 'g1', nodes, 'scan verdict');
      assert.equal(scheduler.lookup(pod('web-2'), 'g1', nodes), 'verdict');
      assert.equal(autoscaler.lookup(pod('web-2'), 'g1', nodes), 'scan verdict');
      assert.equal(autoscaler.lookup(pod('other', {}, '600m'), 'g1', nodes), undefined);
    }
  });

  test('a pod keyed while Pending is not served once it is bound or nominated, and is served again after', () => {
    const keys = new PodClassKeys();
    const cache = new EquivalenceCache<string>(false, keys);
    const nodes = [makeNode('n1')];
    const asked = pod('web-2');
    cache.store(pod('web-1'), 'g1', nodes, 'verdict');
    assert.equal(cache.lookup(asked, 'g1', nodes), 'verdict');
    // The same PodInfo, its key already named: binding sets its nodeName.
    asked.nodeName = 'n1';
    assert.equal(cache.lookup(asked, 'g1', nodes), undefined);
    asked.nodeName = null;
    assert.equal(cache.lookup(asked, 'g1', nodes), 'verdict');
    assert.equal(cache.lookup(withStatus(asked, { nominatedNodeName: 'n1' }), 'g1', nodes), undefined);
  });

  test('a spec object shared by pods is serialised once: every key is the one computed afresh for its pod', () => {
    const keys = new PodClassKeys();
    const first = pod('web-1');
    // Pods of one template share its spec object; namespace and priority still tell them apart.
    const sharing: PodInfo[] = [
      first,
      { ...pod('web-2'), pod: { ...first.pod, metadata: { name: 'web-2' } } },
      // The key last built on the spec is reused only for the same namespace and priority: each pod below
      // differs from the one before it in one of the two.
      { ...first, key: 'default/web-4', name: 'web-4', priority: 1000 },
      { ...first, key: 'other/web-5', name: 'web-5', namespace: 'other', priority: 1000 },
      { ...first, key: 'other/web-3', name: 'web-3', namespace: 'other' },
      { ...first, key: 'default/web-6', name: 'web-6' },
    ];
    const all = [...sharing, ...CASES.flatMap((entry) => [entry.stored, entry.asked])];
    for (const info of all) {
      assert.equal(keys.specKeyOf(info), specKeyOf(info), info.key);
    }
    assert.equal(new Set(sharing.map((info) => keys.specKeyOf(info))).size, 4);
  });

  test("settingsFor hands the setup's keys to every cache built from it, and none without them", () => {
    const podClassKeys = new PodClassKeys();
    const setup = { profiles: [DEFAULT_PROFILE], registry: IN_TREE_REGISTRY, podClassKeys };
    assert.equal(EquivalenceCache.settingsFor(setup)?.podKeys, podClassKeys);
    assert.equal(EquivalenceCache.settingsFor({ ...setup, podClassKeys: undefined })?.podKeys, undefined);
    assert.equal(EquivalenceCache.settingsFor({ ...setup, equivalenceCache: false }), null);
  });
});

/** What a user sees of a record: node, counts, the FitError message and each node's filter reasons. */
function visible(record: SchedulingRecord): unknown {
  return {
    pod: record.pod.key,
    node: record.nodeName,
    evaluated: record.evaluatedNodes,
    message: record.fitError === null ? null : formatFitError(record.fitError),
    statuses: [...record.filterStatuses].map(([node, status]) => [
      node,
      status.reasons.map((r) => r.message),
    ]),
  };
}

function scheduleAll(pods: readonly PodInfo[], cached: boolean): { records: unknown[]; preFilters: number } {
  const cluster = makeCluster([makeNode('n1', { cpu: '2' }), makeNode('n2', { cpu: '2' })]);
  const { framework } = buildFramework(DEFAULT_PROFILE, IN_TREE_REGISTRY, cluster, '1.35');
  let preFilters = 0;
  const runPreFilter = framework.runPreFilterPlugins.bind(framework);
  framework.runPreFilterPlugins = (state, info) => {
    preFilters++;
    return runPreFilter(state, info);
  };
  const options = cached
    ? { detail: 'full' as const, equivalence: { labelsAlwaysRead: false } }
    : { detail: 'full' as const };
  const scheduler = new Scheduler(cluster, new Map([[DEFAULT_PROFILE.schedulerName, framework]]), options);
  return { records: scheduler.scheduleAll(pods).map(visible), preFilters };
}

describe('Scheduler with the equivalence cache', () => {
  test('replicas a full cluster refuses in a row cost one cycle for their class, with the same records', () => {
    // 4 cpu in all: the first four 1-cpu replicas fit, the next six fail alike, then a smaller pod still fits.
    const pods = [...Array.from({ length: 10 }, (_, i) => pod(`web-${i}`, {}, '1')), pod('small', {}, '0')];
    const plain = scheduleAll(pods, false);
    const cached = scheduleAll(pods, true);
    assert.deepEqual(cached.records, plain.records);
    // One PreFilter per cycle: 11 cycles plain, 4 placed + 1 failed + 1 placed with the cache.
    assert.equal(plain.preFilters, 11);
    assert.equal(cached.preFilters, 6);
  });
});
