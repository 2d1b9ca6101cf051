import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createNodeUnschedulable,
  REASON_NODE_UNSCHEDULABLE,
} from '../../../../server/src/engine/scheduler/plugins/node-unschedulable';
import { buildPlugin, makeNode, makePod, messages, runFilter } from '../builders';

// Situations of upstream TestNodeUnschedulable (nodeunschedulable/node_unschedulable_test.go).

const CASES = [
  { name: 'a schedulable node takes the pod', unschedulable: false, tolerations: [], reasons: [] },
  {
    name: 'a cordoned node rejects a pod that does not tolerate the unschedulable taint',
    unschedulable: true,
    tolerations: [],
    reasons: ['node(s) were unschedulable'],
  },
  {
    name: 'a cordoned node takes a pod tolerating node.kubernetes.io/unschedulable:NoSchedule',
    unschedulable: true,
    tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }],
    reasons: [],
  },
  {
    name: 'a toleration of every taint also covers a cordoned node',
    unschedulable: true,
    tolerations: [{ operator: 'Exists' }],
    reasons: [],
  },
] as const;

describe('NodeUnschedulable filter', () => {
  for (const testCase of CASES) {
    test(testCase.name, () => {
      const node = makeNode('n1', { unschedulable: testCase.unschedulable });
      const { plugin } = buildPlugin(createNodeUnschedulable, [node]);
      const status = runFilter(plugin, makePod('p', { tolerations: testCase.tolerations }), node);
      assert.deepEqual(messages(status), testCase.reasons);
      assert.equal(status.code, testCase.reasons.length > 0 ? 'UnschedulableAndUnresolvable' : 'Success');
    });
  }

  test('the reason code is NodeUnschedulable/Unschedulable', () => {
    assert.equal(REASON_NODE_UNSCHEDULABLE.code, 'NodeUnschedulable/Unschedulable');
  });
});
