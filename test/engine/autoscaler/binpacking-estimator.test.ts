/**
 * The binpacking estimator, table-driven from cluster-autoscaler's estimator/binpacking_estimator_test.go
 * (TestBinpackingEstimate): each row names the upstream case it follows. As upstream, the snapshot holds one
 * existing node "oldnode" in another zone, and the template is named "template" in zone-mars.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPodGroups, estimateNodes } from '../../../server/src/engine/autoscaler/binpacking-estimator';
import type {
  Estimate,
  EstimationSnapshot,
  PodEquivalenceGroup,
} from '../../../server/src/engine/autoscaler/binpacking-estimator';
import { isSuccess } from '../../../server/src/engine/scheduler/framework/status';
import { SchedulingSnapshot, templateNodes } from '../../../server/src/engine/autoscaler/scheduling-snapshot';
import type { NodeObject } from '../../../server/src/engine/model/objects';
import { DEFAULT_PROFILE } from '../../../server/src/engine/scheduler/profile';
import { IN_TREE_REGISTRY } from '../../../server/src/engine/scheduler/registry';
import { container, makeCluster, makeNode, makePod } from '../scheduler/builders';

/** `count` pods "<name>-<i>" requesting millicores and MiB, with extra pod spec. */
function group(
  name: string,
  count: number,
  milliCpu: number,
  mib: number,
  spec: Record<string, unknown> = {},
): PodEquivalenceGroup {
  const pods = Array.from({ length: count }, (_, index) =>
    makePod(`${name}-${index}`, {
      containers: [
        container(
          { cpu: `${milliCpu}m`, memory: `${mib}Mi` },
          {},
          spec['ports'] === undefined ? {} : { ports: spec['ports'] },
        ),
      ],
      ...Object.fromEntries(Object.entries(spec).filter(([key]) => key !== 'ports')),
    }),
  );
  return { pods };
}

function spread(maxSkew: number, topologyKey: string, minDomains: number): Record<string, unknown> {
  return {
    topologySpreadConstraints: [
      {
        maxSkew,
        topologyKey,
        minDomains,
        whenUnsatisfiable: 'DoNotSchedule',
        // upstream's pods share app: estimatee; here each has its own app label, so select on the key
        labelSelector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
      },
    ],
  };
}

interface Row {
  readonly name: string;
  readonly millicores: number;
  readonly mib: number;
  readonly maxNodes?: number;
  readonly groups: () => PodEquivalenceGroup[];
  readonly nodes: number;
  readonly pods: number;
  /** The name prefix of every pod placed, when it matters. */
  readonly placedPrefix?: string;
  /** Where each pod went ("pod@node", in placement order), when it matters. */
  readonly placements?: readonly string[];
}

const ROWS: readonly Row[] = [
  {
    name: 'simple resource-based binpacking: two 350m pods per 1000m node, ten pods need five nodes',
    millicores: 350 * 3 - 50,
    mib: 2 * 1000,
    groups: () => [group('estimatee', 10, 350, 1000)],
    nodes: 5,
    pods: 10,
  },
  {
    name: 'pods-per-node bound binpacking: ten pods per node, twenty small pods need two nodes',
    millicores: 10000,
    mib: 20000,
    groups: () => [group('estimatee', 20, 10, 100)],
    nodes: 2,
    pods: 20,
  },
  {
    name: 'hostport conflict forces pod-per-node',
    millicores: 1000,
    mib: 5000,
    groups: () => [group('estimatee', 8, 200, 1000, { ports: [{ containerPort: 80, hostPort: 5555 }] })],
    nodes: 8,
    pods: 8,
  },
  {
    name: 'limiter cuts binpacking: at most five nodes, so ten of twenty pods',
    millicores: 1000,
    mib: 5000,
    maxNodes: 5,
    groups: () => [group('estimatee', 20, 500, 1000)],
    nodes: 5,
    pods: 10,
  },
  {
    name: 'decreasing ordered pods are processed first: the larger group takes the five nodes',
    millicores: 1000,
    mib: 5000,
    maxNodes: 5,
    groups: () => [group('small', 10, 50, 1000), group('large', 10, 500, 1000)],
    nodes: 5,
    pods: 10,
    placedPrefix: 'large-',
  },
  {
    name: 'a later group goes on the first of the new nodes with room (tryToScheduleOnExistingNodes, in order)',
    millicores: 1000,
    mib: 5000,
    groups: () => [group('large', 3, 600, 100), group('small', 2, 100, 100)],
    nodes: 3,
    pods: 5,
    placements: ['large-0@e-0', 'large-1@e-1', 'large-2@e-2', 'small-0@e-0', 'small-1@e-0'],
  },
  {
    name: 'hostname topology spreading with maxSkew=2 forces 2 pods/node',
    millicores: 1000,
    mib: 5000,
    groups: () => [group('estimatee', 8, 200, 200, spread(2, 'kubernetes.io/hostname', 1))],
    nodes: 4,
    pods: 8,
  },
  {
    name: 'zonal topology spreading with maxSkew=2 only allows 2 pods to schedule',
    millicores: 1000,
    mib: 5000,
    groups: () => [group('estimatee', 8, 20, 100, spread(2, 'topology.kubernetes.io/zone', 1))],
    nodes: 1,
    pods: 2,
  },
];

describe('binpacking estimator (cluster-autoscaler TestBinpackingEstimate)', () => {
  for (const row of ROWS) {
    test(row.name, () => {
      const setup = {
        profiles: [DEFAULT_PROFILE],
        registry: IN_TREE_REGISTRY,
        version: '1.35' as const,
        base: makeCluster([]),
      };
      const fork = (): SchedulingSnapshot => {
        const snapshot = new SchedulingSnapshot(setup);
        snapshot.addCopy(
          makeNode('oldnode', {
            cpu: '100m',
            memory: '100Mi',
            pods: 10,
            labels: { 'topology.kubernetes.io/zone': 'zone-jupiter' },
          }),
        );
        return snapshot;
      };
      const template = makeNode('template', {
        cpu: `${row.millicores}m`,
        memory: `${row.mib}Mi`,
        pods: 10,
        labels: { 'topology.kubernetes.io/zone': 'zone-mars' },
      });
      const makeNew = (index: number): NodeObject => ({
        ...template.node,
        metadata: {
          name: `e-${index}`,
          labels: { ...template.labels, 'kubernetes.io/hostname': `e-${index}` },
        },
      });
      const run = (view: EstimationSnapshot): { estimate: Estimate; placements: string[] } => {
        const placements: string[] = [];
        const estimate = estimateNodes(
          row.groups(),
          template.allocatable,
          {
            ...view,
            addPod: (pod, nodeName) => {
              placements.push(`${pod.name}@${nodeName}`);
              view.addPod(pod, nodeName);
            },
          },
          row.maxNodes ?? 0,
        );
        return { estimate, placements };
      };
      const { estimate, placements } = run(templateNodes(fork(), template, makeNew));
      // firstFit is checkPredicates node by node with one PreFilter: asking each node in turn places alike.
      const view = templateNodes(fork(), template, makeNew);
      const oneByOne = run({
        ...view,
        firstFit: (pod, names) => names.find((name) => isSuccess(view.checkPredicates(pod, name))) ?? null,
      });
      assert.deepEqual(placements, oneByOne.placements);
      if (row.placements !== undefined) {
        assert.deepEqual(placements, row.placements);
      }
      assert.equal(estimate.nodeCount, oneByOne.estimate.nodeCount);
      assert.equal(estimate.nodeCount, row.nodes);
      assert.equal(estimate.pods.length, row.pods);
      if (row.placedPrefix !== undefined) {
        assert.ok(
          estimate.pods.every((pod) => pod.name.startsWith(row.placedPrefix ?? '')),
          estimate.pods.map((pod) => pod.name).join(' '),
        );
      }
    });
  }

  test('pods of one owner with the same requests form one equivalence group; a bare pod is its own', () => {
    const owned = [makePod('a-1'), makePod('a-2')].map((pod) => ({
      ...pod,
      owner: { kind: 'ReplicaSet', name: 'a' } as never,
    }));
    const groups = buildPodGroups([...owned, makePod('bare')]);
    assert.deepEqual(
      groups.map((entry) => entry.pods.map((pod) => pod.name)),
      [['a-1', 'a-2'], ['bare']],
    );
  });
});
