import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compareBytewise, formatFitError } from '../../../server/src/engine/scheduler/framework/fit-error';
import type { FitError } from '../../../server/src/engine/scheduler/framework/fit-error';
import { newStatus } from '../../../server/src/engine/scheduler/framework/status';
import type { Status } from '../../../server/src/engine/scheduler/framework/status';

// FitError.Error() of pkg/scheduler/framework/types.go: "0/N nodes are available:" then either the PreFilter
// message or the "<count> <reason>" histogram sorted with sort.Strings, then the PostFilter message.

function rejected(plugin: string, ...messages: string[]): Status {
  return newStatus(
    'Unschedulable',
    plugin,
    ...messages.map((message) => ({ code: `${plugin}/Test`, message })),
  );
}

function fitError(
  numAllNodes: number,
  nodeStatuses: Record<string, Status>,
  extra: Partial<FitError['diagnosis']> = {},
): FitError {
  return {
    numAllNodes,
    diagnosis: {
      nodeStatuses: new Map(Object.entries(nodeStatuses)),
      absentNodesStatus: null,
      unschedulablePlugins: new Set(),
      preFilterMessage: '',
      postFilterMessage: '',
      ...extra,
    },
  };
}

const TAINT = 'node(s) had untolerated taint(s)';

const CASES: readonly { name: string; error: FitError; message: string }[] = [
  {
    name: 'mixed reasons are counted across nodes and sorted byte-wise',
    error: fitError(4, {
      cp: rejected('TaintToleration', TAINT),
      w1: rejected('NodeResourcesFit', 'Insufficient cpu'),
      w2: rejected('NodeResourcesFit', 'Insufficient cpu'),
      w3: rejected('NodeResourcesFit', 'Insufficient cpu'),
    }),
    message: '0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 Insufficient cpu.',
  },
  {
    name: 'every reason of the failing plugin counts for its node',
    error: fitError(3, {
      cp: rejected(
        'TaintToleration',
        'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }',
      ),
      w1: rejected('NodeResourcesFit', 'Insufficient cpu', 'Insufficient memory'),
      w2: rejected('NodeResourcesFit', 'Insufficient memory'),
    }),
    message:
      '0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient memory.',
  },
  {
    name: 'counts sort as text, so 10 comes before 2 (sort.Strings)',
    error: fitError(
      12,
      Object.fromEntries<Status>([
        ...Array.from({ length: 10 }, (_, i): [string, Status] => [
          `a${i}`,
          rejected('NodeResourcesFit', 'Too many pods'),
        ]),
        ['b0', rejected('NodeAffinity', "node(s) didn't match Pod's node affinity/selector")],
        ['b1', rejected('NodeAffinity', "node(s) didn't match Pod's node affinity/selector")],
      ]),
    ),
    message:
      "0/12 nodes are available: 10 Too many pods, 2 node(s) didn't match Pod's node affinity/selector.",
  },
  {
    name: 'a PreFilter rejection replaces the per-node counts',
    error: fitError(
      3,
      {},
      {
        preFilterMessage: 'pod affinity terms conflict',
        absentNodesStatus: rejected('NodeAffinity', 'pod affinity terms conflict'),
      },
    ),
    message: '0/3 nodes are available: pod affinity terms conflict.',
  },
  {
    name: 'nodes left out by a PreFilter result count with the absent-nodes reason',
    error: fitError(
      3,
      { n1: rejected('NodeResourcesFit', 'Insufficient cpu') },
      { absentNodesStatus: rejected('', "node(s) didn't satisfy plugin(s) [NodeAffinity]") },
    ),
    message:
      "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity].",
  },
  {
    name: 'the PostFilter message follows the counts',
    error: fitError(
      2,
      {
        n1: rejected('NodeResourcesFit', 'Insufficient cpu'),
        n2: rejected('NodeResourcesFit', 'Insufficient cpu'),
      },
      {
        postFilterMessage:
          'preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
      },
    ),
    message:
      '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
  },
];

describe('FitError message', () => {
  for (const testCase of CASES) {
    test(testCase.name, () => {
      assert.equal(formatFitError(testCase.error), testCase.message);
    });
  }

  test('byte-wise comparison orders upper case before lower case and by code point', () => {
    const words = ['b', 'B', 'a', '10 x', '2 x', 'é', 'z'];
    assert.deepEqual([...words].sort(compareBytewise), ['10 x', '2 x', 'B', 'a', 'b', 'z', 'é']);
  });
});
