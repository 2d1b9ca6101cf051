import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeInfo } from '../../../server/src/engine/model/snapshot/node-info';
import { container, makeCluster, makeNode, makePod } from '../scheduler/builders';
import { maxOf } from '../../../protocol/collections';

/** A node's row of its cluster's columns, and the same figures read from the node's own sums. */
function rowAndSums(node: NodeInfo): { row: number[]; sums: number[] } {
  const columns = node.columns;
  assert.ok(columns !== null);
  const i = node.order;
  return {
    row: [
      columns.allocatableMilliCpu[i] ?? NaN,
      columns.allocatableMemory[i] ?? NaN,
      columns.allocatableEphemeralStorage[i] ?? NaN,
      columns.allowedPodNumber[i] ?? NaN,
      columns.requestedMilliCpu[i] ?? NaN,
      columns.requestedMemory[i] ?? NaN,
      columns.requestedEphemeralStorage[i] ?? NaN,
      columns.nonZeroMilliCpu[i] ?? NaN,
      columns.nonZeroMemory[i] ?? NaN,
      columns.podCount[i] ?? NaN,
    ],
    sums: [
      node.allocatable.milliCpu,
      node.allocatable.memory,
      node.allocatable.ephemeralStorage,
      node.allocatable.allowedPodNumber,
      node.requested.milliCpu,
      node.requested.memory,
      node.requested.ephemeralStorage,
      node.nonZeroRequested.milliCpu,
      node.nonZeroRequested.memory,
      node.pods.length,
    ],
  };
}

describe('NodeColumns', () => {
  const pods = [
    makePod('a', { containers: [container({ cpu: '250m', memory: '3Gi', 'ephemeral-storage': '1Gi' })] }),
    makePod('b', { containers: [container()] }),
    makePod('c', { containers: [container({ cpu: '1500m', memory: '700Mi' })] }),
  ];
  const CASES: readonly { name: string; change: (nodes: NodeInfo[]) => void }[] = [
    { name: 'a new cluster copies every node', change: () => undefined },
    {
      name: 'adding pods (best effort ones count non-zero requests) updates the node row only',
      change: (nodes) => pods.forEach((pod) => nodes[1]?.addPod(pod)),
    },
    {
      name: 'removing a pod updates the row',
      change: (nodes) => {
        pods.forEach((pod) => nodes[1]?.addPod(pod));
        nodes[1]?.removePod(pods[0] as (typeof pods)[number]);
      },
    },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => {
      const nodes = [
        makeNode('a', { cpu: '2', memory: '8Gi' }),
        makeNode('b', { cpu: '64', memory: '512Gi', ephemeralStorage: '100Gi' }),
      ];
      makeCluster(nodes);
      testCase.change(nodes);
      for (const node of nodes) {
        const { row, sums } = rowAndSums(node);
        assert.deepEqual(row, sums, node.name);
      }
    });
  }

  test('every write gives its row a stamp no row had before; other rows keep theirs', () => {
    const nodes = [makeNode('a'), makeNode('b')];
    const { columns } = makeCluster(nodes);
    const stamps = (): number[] => [columns.stamp[0] ?? NaN, columns.stamp[1] ?? NaN];
    const seen = new Set(stamps());
    assert.equal(seen.size, 2);
    const pod = pods[0] as (typeof pods)[number];
    for (const change of [() => nodes[1]?.addPod(pod), () => nodes[1]?.removePod(pod)]) {
      const [a, b] = stamps();
      change();
      const [a2, b2] = stamps();
      assert.equal(a2, a);
      assert.ok(b2 !== undefined && !seen.has(b2) && b2 > maxOf(seen), `${b} -> ${b2}`);
      seen.add(b2);
    }
  });

  test('a copy for a what-if belongs to no cluster and has no columns', () => {
    const node = makeNode('a');
    makeCluster([node]);
    assert.equal(node.clone().columns, null);
  });
});
