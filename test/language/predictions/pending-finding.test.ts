import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withoutPostFilter } from '../../../server/src/language/predictions/pending-finding';
import { lowerRequestsFix } from '../../../server/src/language/predictions/value-fixes';
import type { ShortRequest } from '../../../server/src/language/predictions/value-fixes';
import { INSUFFICIENT_RESOURCE_CODE } from '../../../server/src/engine/scheduler/plugins/node-resources-fit';
import type { ReportNode } from '../../../server/src/engine/scenario/report/report-entries';

// One diagnostic per Pending cause (issue #28): kube-scheduler's message without its PostFilter part, and one fix
// that makes the pod fit a node for every request it lacks room for.

describe('the Pending finding', () => {
  const rows: { name: string; message: string; expected: string }[] = [
    {
      // schedule_one.go: FitError.Error() then the PostFilter status (DefaultPreemption) after a space.
      name: 'the preemption part is cut',
      message:
        '0/4 nodes are available: 2 Insufficient cpu, 2 node(s) had untolerated taint(s). preemption: 0/4 nodes are available: 2 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
      expected: '0/4 nodes are available: 2 Insufficient cpu, 2 node(s) had untolerated taint(s).',
    },
    {
      // v1.34+: the DynamicResources PostFilter reports first.
      name: "DRA's no new claims part is cut with it",
      message:
        '0/6 nodes are available: 6 Insufficient memory. no new claims to deallocate, preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.',
      expected: '0/6 nodes are available: 6 Insufficient memory.',
    },
    {
      name: 'a message without PostFilter part is kept',
      message: "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.",
      expected: "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.",
    },
  ];
  for (const row of rows) {
    test(row.name, () => {
      assert.equal(withoutPostFilter(row.message), row.expected);
    });
  }

  const node = (name: string, cpu: string, memory: string): ReportNode => ({
    name,
    allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
    requested: { cpu, memory, pods: '1' },
  });
  const short = (resource: string, nodes: string[], start: number): ShortRequest => ({
    cause: { code: INSUFFICIENT_RESOURCE_CODE, message: `Insufficient ${resource}`, nodes },
    path: ['spec', 'containers', 0, 'resources', 'requests', resource],
    start,
    end: start + 2,
  });

  test('one fix lowers cpu and memory to what one node has free, not cpu alone', () => {
    const fix = lowerRequestsFix(
      [short('cpu', ['worker-2', 'worker-3'], 10), short('memory', ['worker-2', 'worker-3'], 20)],
      [node('worker-1', '0', '0'), node('worker-2', '2', '12Gi'), node('worker-3', '1', '10Gi')],
    );
    assert.equal(
      fix?.title,
      'Lower the cpu request to 3 and the memory request to 6Gi (what worker-3 has free)',
    );
    assert.deepEqual(fix?.edits, [
      { start: 10, end: 12, newText: '3' },
      { start: 20, end: 22, newText: '6Gi' },
    ]);
  });

  test('a node short of one request only needs one change, and is preferred', () => {
    const fix = lowerRequestsFix(
      [short('cpu', ['worker-2', 'worker-3'], 10), short('memory', ['worker-3'], 20)],
      [node('worker-2', '3', '0'), node('worker-3', '1', '10Gi')],
    );
    assert.equal(fix?.title, 'Lower the cpu request to 1 (what worker-2 has free)');
    assert.equal(fix?.edits?.length, 1);
  });

  test('a node with nothing free (or that no Insufficient cause names: cordoned, tainted) is never chosen', () => {
    assert.equal(
      lowerRequestsFix(
        [short('cpu', ['worker-2'], 10), short('memory', ['worker-2'], 20)],
        [node('worker-1', '0', '0'), node('worker-2', '4', '1Gi')],
      ),
      undefined,
    );
  });
});
