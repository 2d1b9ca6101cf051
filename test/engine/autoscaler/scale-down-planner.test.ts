/**
 * The removal simulation of one scan, over captured nodes and pods (each pod names its node in spec.nodeName, as a
 * capture does). Rows follow cluster-autoscaler's simulator/cluster_test.go TestSimulateNodeRemoval and
 * core/scaledown/planner/planner_test.go TestUpdateClusterState, each named after its case: BuildTestNode(name,
 * milli-cpu), pods of ReplicaSet "rs" unless said, `eligible` the candidates (in that order), `unneeded` the nodes
 * the simulation finds removable.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { planRemovals, drainViewOf } from '../../../server/src/engine/autoscaler/scale-down-planner';
import { loadCluster } from '../../../server/src/engine/model/load/cluster-load';
import { DEFAULT_PROFILE } from '../../../server/src/engine/scheduler/profile';
import { IN_TREE_REGISTRY } from '../../../server/src/engine/scheduler/registry';
import { run, sourced } from '../../support/timeline-builders';

function node(name: string, milliCpu: number): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: { allocatable: { cpu: `${milliCpu}m`, memory: '2Gi', pods: '110' } },
  };
}

function pod(
  name: string,
  milliCpu: number,
  nodeName: string,
  options: { owner?: string | null; labels?: Record<string, string>; spec?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const owner = options.owner === undefined ? 'rs' : options.owner;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      labels: options.labels ?? {},
      ...(owner === null
        ? {}
        : {
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner, uid: owner, controller: true },
            ],
          }),
    },
    spec: {
      nodeName,
      containers: [
        { name: 'c', image: 'busybox', resources: { requests: { cpu: `${milliCpu}m`, memory: '1Mi' } } },
      ],
      ...options.spec,
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

const spread = (nodeTaintsPolicy?: string): Record<string, unknown> => ({
  topologySpreadConstraints: [
    {
      maxSkew: 1,
      topologyKey: 'kubernetes.io/hostname',
      whenUnsatisfiable: 'DoNotSchedule',
      minDomains: 2,
      labelSelector: { matchLabels: { app: 'topo-app' } },
      ...(nodeTaintsPolicy === undefined ? {} : { nodeTaintsPolicy }),
    },
  ],
});
const topo = (name: string, nodeName: string, policy?: string): Record<string, unknown> =>
  pod(name, 100, nodeName, { labels: { app: 'topo-app' }, spec: spread(policy) });

const rows: {
  name: string;
  nodes: Record<string, unknown>[];
  pods: Record<string, unknown>[];
  eligible: string[];
  unneeded: string[];
  unremovable?: [string, string][];
}[] = [
  {
    name: 'TestSimulateNodeRemoval "just an empty node, should be removed"',
    nodes: [node('n1', 1000)],
    pods: [],
    eligible: ['n1'],
    unneeded: ['n1'],
  },
  {
    name: 'TestSimulateNodeRemoval "just a drainable node, but nowhere for pods to go to"',
    nodes: [node('n2', 1000)],
    pods: [pod('drainable-rs-pod-a', 100, 'n2'), pod('drainable-rs-pod-b', 100, 'n2')],
    eligible: ['n2'],
    unneeded: [],
    unremovable: [['n2', 'NoPlaceToMovePods']],
  },
  {
    name: 'TestSimulateNodeRemoval "drainable node, and a mostly empty node that can take its pods" (the pods name n2: findPlaceFor clears spec.nodeName)',
    nodes: [node('n2', 1000), node('n3', 1000)],
    pods: [
      pod('drainable-rs-pod-a', 100, 'n2'),
      pod('drainable-rs-pod-b', 100, 'n2'),
      pod('standalone-on-non-drainable', 100, 'n3', { owner: null }),
    ],
    eligible: ['n2'],
    unneeded: ['n2'],
  },
  {
    name: 'TestSimulateNodeRemoval "drainable node, and a full node that cannot fit anymore pods"',
    nodes: [node('n2', 1000), node('n4', 1000)],
    pods: [
      pod('drainable-rs-pod-a', 100, 'n2'),
      pod('drainable-rs-pod-b', 100, 'n2'),
      pod('large-pod-on-full', 1000, 'n4', { owner: null }),
    ],
    eligible: ['n2'],
    unneeded: [],
    unremovable: [['n2', 'NoPlaceToMovePods']],
  },
  {
    name: 'TestSimulateNodeRemoval "topology spread constraint test - node unremovable due to phantom zone" (the tainted ghost keeps its domain)',
    nodes: [node('topo-n1', 1000), node('topo-n2', 1000), node('topo-n3', 1000)],
    pods: [
      topo('default-tsc-pod-n1', 'topo-n1'),
      topo('default-tsc-pod-n2', 'topo-n2'),
      topo('default-tsc-pod-n3', 'topo-n3'),
      pod('blocker-n2', 100, 'topo-n2', { owner: null }),
      pod('blocker-n3', 100, 'topo-n3', { owner: null }),
    ],
    eligible: ['topo-n1'],
    unneeded: [],
    unremovable: [['topo-n1', 'NoPlaceToMovePods']],
  },
  {
    name: 'TestSimulateNodeRemoval "topology spread constraint test - node removable with nodeTaintsPolicy Honor"',
    nodes: [node('topo-n1', 1000), node('topo-n2', 1000), node('topo-n3', 1000)],
    pods: [
      topo('honor-tsc-pod-n1', 'topo-n1', 'Honor'),
      topo('honor-tsc-pod-n2', 'topo-n2', 'Honor'),
      topo('honor-tsc-pod-n3', 'topo-n3', 'Honor'),
    ],
    eligible: ['topo-n1'],
    unneeded: ['topo-n1'],
  },
  {
    name: 'TestUpdateClusterState "all pods from multiple nodes can schedule elsewhere, all eligible"',
    nodes: [node('n1', 1000), node('n2', 1000), node('n3', 2000)],
    pods: [pod('p1', 500, 'n1'), pod('p2', 500, 'n1'), pod('p3', 500, 'n2'), pod('p4', 500, 'n2')],
    eligible: ['n1', 'n2'],
    unneeded: ['n1', 'n2'],
  },
  {
    name: 'TestUpdateClusterState "some pods from multiple nodes can schedule elsewhere, some eligible"',
    nodes: [node('n1', 2000), node('n2', 1000), node('n3', 1000)],
    pods: [pod('p1', 1000, 'n1'), pod('p2', 1000, 'n1'), pod('p3', 500, 'n2'), pod('p4', 500, 'n2')],
    eligible: ['n1', 'n2'],
    unneeded: ['n2'],
    unremovable: [['n1', 'NoPlaceToMovePods']],
  },
  {
    name: 'TestUpdateClusterState "no pods from multiple nodes can schedule elsewhere, no eligible"',
    nodes: [node('n1', 1000), node('n2', 1000), node('n3', 500)],
    pods: [pod('p1', 500, 'n1'), pod('p2', 500, 'n1'), pod('p3', 500, 'n2'), pod('p4', 500, 'n2')],
    eligible: ['n1', 'n2'],
    unneeded: [],
    unremovable: [
      ['n1', 'NoPlaceToMovePods'],
      ['n2', 'NoPlaceToMovePods'],
    ],
  },
  {
    name: 'categorizeNodes: a removable node is no destination for the next, and the pods it sheds stay where they went',
    nodes: [node('n1', 1000), node('n2', 1000), node('n3', 1000)],
    pods: [pod('p1', 300, 'n1'), pod('p2', 300, 'n2'), pod('p3', 300, 'n3')],
    eligible: ['n1', 'n2', 'n3'],
    unneeded: ['n1', 'n2'],
    unremovable: [['n3', 'NoPlaceToMovePods']],
  },
  {
    name: 'SimulateNodeRemoval: a pod without a controller blocks (BlockedByPod)',
    nodes: [node('n1', 1000), node('n2', 1000)],
    pods: [pod('bare', 100, 'n1', { owner: null })],
    eligible: ['n1'],
    unneeded: [],
    unremovable: [['n1', 'BlockedByPod']],
  },
];

describe('the removal simulation (SimulateNodeRemoval, categorizeNodes)', () => {
  for (const row of rows) {
    test(row.name, () => {
      const objects = [...row.nodes, ...row.pods];
      const result = run({ cluster: objects, until: 0 });
      const base = loadCluster(sourced(objects, 'cluster.yaml'), {
        version: '1.35',
        description: 'test',
      }).cluster;
      const nodes = result.state.nodeList();
      const plan = planRemovals({
        setup: { profiles: [DEFAULT_PROFILE], registry: IN_TREE_REGISTRY, version: '1.35', base },
        candidates: row.eligible.map((name) => nodes.find((candidate) => candidate.name === name)!),
        destinations: nodes,
        podsOf: (candidate) => result.state.podsOn(candidate.name),
        drainView: (simPod, remaining) => drainViewOf(simPod, result.index, remaining, 0),
        budgetsOf: () => [],
        budgets: new Map(),
      });
      assert.deepEqual(
        plan.removable.map((entry) => entry.name),
        row.unneeded,
      );
      assert.deepEqual(
        plan.unremovable.map((entry) => [entry.name, entry.reason]),
        row.unremovable ?? [],
      );
    });
  }
});
