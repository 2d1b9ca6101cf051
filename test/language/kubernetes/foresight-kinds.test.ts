/**
 * Kube Foresight's own kinds of a cluster file (apiVersion foresight/v1: Scenario, NodeGroup) are not unknown
 * custom kinds in the editor: the engine checks them when it runs them. Another foresight/v1 kind still is.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeText } from '../../../server/src/language/analyzer';
import { ruleContext, yaml } from '../rules/rule-harness';

describe('foresight/v1 kinds in the editor', () => {
  const rows: readonly { name: string; kind: string; codes: string[] }[] = [
    { name: 'a NodeGroup is left to the engine', kind: 'NodeGroup', codes: [] },
    { name: 'a Scenario is left to the engine', kind: 'Scenario', codes: [] },
    {
      name: 'a kind Kube Foresight does not define is an unknown custom kind',
      kind: 'Widget',
      codes: ['unknown-custom-kind'],
    },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const text = yaml(
        'apiVersion: foresight/v1',
        `kind: ${row.kind}`,
        'metadata: { name: workers }',
        'spec: { maxSize: 3 }',
      );
      assert.deepEqual(
        analyzeText(text, ruleContext()).findings.map((finding) => finding.code),
        row.codes,
      );
    });
  }
});
