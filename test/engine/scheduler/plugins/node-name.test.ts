import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createNodeName,
  REASON_NODE_NAME_MISMATCH,
} from '../../../../server/src/engine/scheduler/plugins/node-name';
import { buildPlugin, makeNode, makePod, messages, runFilter } from '../builders';

// Situations of upstream TestNodeName (nodename/node_name_test.go).

const CASES = [
  { name: 'a pod naming no node fits any node', nodeName: undefined, reasons: [] },
  { name: 'a pod naming this node fits it', nodeName: 'n1', reasons: [] },
  {
    name: 'a pod naming another node does not fit',
    nodeName: 'n2',
    reasons: ["node(s) didn't match the requested node name"],
  },
] as const;

describe('NodeName filter', () => {
  for (const testCase of CASES) {
    test(testCase.name, () => {
      const node = makeNode('n1');
      const { plugin } = buildPlugin(createNodeName, [node]);
      const spec = testCase.nodeName === undefined ? {} : { nodeName: testCase.nodeName };
      const status = runFilter(plugin, makePod('p', spec), node);
      assert.deepEqual(messages(status), testCase.reasons);
    });
  }

  test('the reason code is NodeName/NodeNameMismatch and the status unresolvable', () => {
    const node = makeNode('n1');
    const { plugin } = buildPlugin(createNodeName, [node]);
    const status = runFilter(plugin, makePod('p', { nodeName: 'other' }), node);
    assert.equal(status.code, 'UnschedulableAndUnresolvable');
    assert.equal(REASON_NODE_NAME_MISMATCH.code, 'NodeName/NodeNameMismatch');
  });
});
