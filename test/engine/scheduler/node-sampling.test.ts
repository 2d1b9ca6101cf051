/**
 * percentageOfNodesToScore as pkg/scheduler/schedule_one.go applies it: numFeasibleNodesToFind, the search
 * starting at nextStartNodeIndex % numNodes, and the index advancing by the nodes processed (feasible plus
 * rejected) modulo all nodes. Expected values are worked out from the Go source by hand, not read back from
 * the engine: minFeasibleNodesToFind = 100, minFeasibleNodesPercentageToFind = 5, adaptive 50 - nodes/125.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/schedule_one.go
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildFramework } from '../../../server/src/engine/scheduler/framework/build-framework';
import { DEFAULT_PROFILE } from '../../../server/src/engine/scheduler/profile';
import type { SchedulerProfile } from '../../../server/src/engine/scheduler/profile';
import type { SchedulingRecord } from '../../../server/src/engine/scheduler/record';
import { IN_TREE_REGISTRY } from '../../../server/src/engine/scheduler/registry';
import { numFeasibleNodesToFind } from '../../../server/src/engine/scheduler/schedule-one';
import { Scheduler } from '../../../server/src/engine/scheduler/scheduler';
import type { NodeInfo } from '../../../server/src/engine/model/snapshot/node-info';
import type { PodInfo } from '../../../server/src/engine/model/snapshot/pod-info';
import { container, makeCluster, makeNode, makePod } from './builders';

describe('numFeasibleNodesToFind on 200 nodes and around the thresholds', () => {
  const CASES: readonly { name: string; percentage?: number; nodes: number; expected: number }[] = [
    { name: '99 nodes: below minFeasibleNodesToFind every node is checked', nodes: 99, expected: 99 },
    {
      name: '200 nodes, adaptive: 50 - 200/125 = 49%, 200 * 49 / 100 = 98, raised to 100',
      nodes: 200,
      expected: 100,
    },
    { name: '200 nodes, profile 100%: all 200', percentage: 100, nodes: 200, expected: 200 },
    { name: '200 nodes, profile 50%: exactly 100', percentage: 50, nodes: 200, expected: 100 },
    { name: '200 nodes, profile 30%: 60, raised to 100', percentage: 30, nodes: 200, expected: 100 },
    { name: '250 nodes, adaptive: 50 - 2 = 48%, 120', nodes: 250, expected: 120 },
    { name: '250 nodes, profile 0 means adaptive too', percentage: 0, nodes: 250, expected: 120 },
    { name: '1,130 nodes, adaptive: 50 - 9 = 41%, 463 (integer division)', nodes: 1130, expected: 463 },
    { name: '5,624 nodes, adaptive: 50 - 44 = 6%, 337', nodes: 5624, expected: 337 },
    { name: '5,625 nodes, adaptive: 50 - 45 = 5%, 281', nodes: 5625, expected: 281 },
    { name: '10,000 nodes, adaptive bottoms out at 5%: 500', nodes: 10_000, expected: 500 },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => {
      assert.equal(numFeasibleNodesToFind(testCase.percentage, testCase.nodes), testCase.expected);
    });
  }
});

/** Names n000… ; nodes whose index is in `small` have 50m of cpu, so a 100m pod is rejected there. */
function nodes(count: number, small: (index: number) => boolean = () => false): NodeInfo[] {
  return Array.from({ length: count }, (_, i) =>
    makeNode(`n${String(i).padStart(3, '0')}`, small(i) ? { cpu: '50m' } : {}),
  );
}

function pod(name: string, extra: Record<string, unknown> = {}): PodInfo {
  return makePod(name, { containers: [container({ cpu: '100m', memory: '10Mi' })], ...extra });
}

function schedule(
  clusterNodes: readonly NodeInfo[],
  pods: readonly PodInfo[],
  percentageOfNodesToScore?: number,
): SchedulingRecord[] {
  const profile: SchedulerProfile = {
    ...DEFAULT_PROFILE,
    plugins: { ...DEFAULT_PROFILE.plugins, postFilter: { enabled: [], disabled: ['*'] } },
    ...(percentageOfNodesToScore === undefined ? {} : { percentageOfNodesToScore }),
  };
  const cluster = makeCluster(clusterNodes);
  const { framework } = buildFramework(profile, IN_TREE_REGISTRY, cluster, '1.35');
  const scheduler = new Scheduler(cluster, new Map([[profile.schedulerName, framework]]), {
    detail: 'full',
  });
  return scheduler.scheduleAll(pods);
}

/** What one cycle looked at: its first and last node (full records keep every evaluated node, in visit order). */
interface Visit {
  readonly first: string;
  readonly last: string;
  readonly evaluated: number;
  readonly feasible: number;
}

function visitOf(record: SchedulingRecord): Visit {
  const visited = [...record.filterStatuses.keys()];
  return {
    first: visited[0] ?? '',
    last: visited[visited.length - 1] ?? '',
    evaluated: record.evaluatedNodes,
    feasible: record.feasibleNodes,
  };
}

describe('the search start rotates across pods (nextStartNodeIndex)', () => {
  const CASES: readonly {
    name: string;
    nodes: () => NodeInfo[];
    pods: () => PodInfo[];
    percentage?: number;
    expected: readonly Visit[];
  }[] = [
    {
      name: '200 roomy nodes, adaptive: each pod looks at 100 nodes, starting at 0, 100, then 0 again',
      nodes: () => nodes(200),
      pods: () => [pod('a'), pod('b'), pod('c')],
      expected: [
        { first: 'n000', last: 'n099', evaluated: 100, feasible: 100 },
        { first: 'n100', last: 'n199', evaluated: 100, feasible: 100 },
        { first: 'n000', last: 'n099', evaluated: 100, feasible: 100 },
      ],
    },
    {
      name: 'rejected nodes count as processed: 250 nodes, every 5th too small, 120 to find',
      // Pod a: nodes 0..149 hold 30 rejected and 120 feasible → next start 150. Pod b: 150..249 (80 feasible)
      // then 0..49 (40 feasible) → 150 processed, next start (150 + 150) % 250 = 50. Pod c: 50..199.
      nodes: () => nodes(250, (i) => i % 5 === 0),
      pods: () => [pod('a'), pod('b'), pod('c')],
      expected: [
        { first: 'n000', last: 'n149', evaluated: 150, feasible: 120 },
        { first: 'n150', last: 'n049', evaluated: 150, feasible: 120 },
        { first: 'n050', last: 'n199', evaluated: 150, feasible: 120 },
      ],
    },
    {
      name: 'a profile percentage of 100 examines every node, so the start never moves',
      nodes: () => nodes(200),
      pods: () => [pod('a'), pod('b')],
      percentage: 100,
      expected: [
        { first: 'n000', last: 'n199', evaluated: 200, feasible: 200 },
        { first: 'n000', last: 'n199', evaluated: 200, feasible: 200 },
      ],
    },
    {
      name: 'a profile percentage of 60 on 200 nodes finds 120, then starts at 120 and wraps',
      nodes: () => nodes(200),
      pods: () => [pod('a'), pod('b')],
      percentage: 60,
      expected: [
        { first: 'n000', last: 'n119', evaluated: 120, feasible: 120 },
        { first: 'n120', last: 'n039', evaluated: 120, feasible: 120 },
      ],
    },
    {
      name: 'an unschedulable pod examines every node whatever the percentage',
      nodes: () => nodes(200, () => true),
      pods: () => [pod('a'), pod('b')],
      expected: [
        { first: 'n000', last: 'n199', evaluated: 200, feasible: 0 },
        { first: 'n000', last: 'n199', evaluated: 200, feasible: 0 },
      ],
    },
    {
      name: 'a PreFilterResult narrows the list: the count and the start index apply to the 120 named nodes',
      // Terms naming n100..n219 by metadata.name (in cluster order here; upstream iterates a set): 120 nodes,
      // adaptive 50% → 60, raised to 100. Pod a: named[0..99] = n100..n199, next start 100 % 300 = 100.
      // Pod b: named[(100 + i) % 120] = n200..n219 then n100..n179, next start 200.
      nodes: () => nodes(300),
      pods: () => [namedPod('a'), namedPod('b')],
      expected: [
        { first: 'n100', last: 'n199', evaluated: 100, feasible: 100 },
        { first: 'n200', last: 'n179', evaluated: 100, feasible: 100 },
      ],
    },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => {
      const records = schedule(testCase.nodes(), testCase.pods(), testCase.percentage);
      assert.deepEqual(records.map(visitOf), testCase.expected);
    });
  }
});

function namedPod(name: string): PodInfo {
  // One term per node: the API allows a single value for a metadata.name field requirement.
  const nodeSelectorTerms = Array.from({ length: 120 }, (_, i) => ({
    matchFields: [{ key: 'metadata.name', operator: 'In', values: [`n${String(100 + i).padStart(3, '0')}`] }],
  }));
  return pod(name, {
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } },
  });
}
