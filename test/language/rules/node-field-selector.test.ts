/**
 * matchFields in node affinity, as validateNodeFieldSelectorRequirement checks them: key metadata.name, operator
 * In or NotIn, exactly one value; in required terms and in preferences, in any pod template.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkNodeFieldSelectors } from '../../../server/src/language/rules/node-field-selector';
import type { SeenFinding } from './rule-harness';
import { runRule, yaml } from './rule-harness';

const REQUIRED =
  'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]';
const ONE_VALUE = "must be only one value when `operator` is 'In' or 'NotIn' for node field selector";

const pod = (...requirements: string[]): string =>
  yaml(
    'apiVersion: v1',
    'kind: Pod',
    'metadata: { name: p }',
    'spec:',
    '  containers: [{ name: a, image: nginx }]',
    '  affinity:',
    '    nodeAffinity:',
    '      requiredDuringSchedulingIgnoredDuringExecution:',
    '        nodeSelectorTerms:',
    '          - matchFields:',
    ...requirements.map((requirement) => `              - ${requirement}`),
  );

const cases: { name: string; text: string; expected: SeenFinding[] }[] = [
  {
    name: 'metadata.name In one node is accepted, and so is NotIn',
    text: pod(
      '{ key: metadata.name, operator: In, values: [worker-1] }',
      '{ key: metadata.name, operator: NotIn, values: [w] }',
    ),
    expected: [],
  },
  {
    name: 'In with two values is reported on the values',
    text: pod('{ key: metadata.name, operator: In, values: [worker-1, worker-2] }'),
    expected: [
      {
        code: 'schema-constraint',
        message: `${REQUIRED}.matchFields[0].values: Required value: ${ONE_VALUE}`,
        at: '[worker-1, worker-2]',
        line: 11,
      },
    ],
  },
  {
    name: 'In without values is reported on the requirement',
    text: pod('{ key: metadata.name, operator: In }'),
    expected: [
      {
        code: 'schema-constraint',
        message: `${REQUIRED}.matchFields[0].values: Required value: ${ONE_VALUE}`,
        at: '{ key: metadata.name, operator: In }',
        line: 11,
      },
    ],
  },
  {
    name: 'another field and the Exists operator are each reported',
    text: pod('{ key: spec.unschedulable, operator: Exists }'),
    expected: [
      {
        code: 'schema-constraint',
        message: `${REQUIRED}.matchFields[0].operator: Invalid value: "Exists": not a valid selector operator`,
        at: 'Exists',
        line: 11,
      },
      {
        code: 'schema-constraint',
        message: `${REQUIRED}.matchFields[0].key: Invalid value: "spec.unschedulable": not a valid field selector key; the only node field is metadata.name`,
        at: 'spec.unschedulable',
        line: 11,
      },
    ],
  },
  {
    name: 'a preference in a Deployment template is checked too',
    text: yaml(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: d }',
      'spec:',
      '  template:',
      '    spec:',
      '      affinity:',
      '        nodeAffinity:',
      '          preferredDuringSchedulingIgnoredDuringExecution:',
      '            - weight: 1',
      '              preference:',
      '                matchFields: [{ key: metadata.name, operator: NotIn, values: [] }]',
    ),
    expected: [
      {
        code: 'schema-constraint',
        message: `spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchFields[0].values: Required value: ${ONE_VALUE}`,
        at: '[]',
        line: 12,
      },
    ],
  },
];

describe('node field selectors (matchFields)', () => {
  for (const { name, text, expected } of cases) {
    test(name, () => {
      assert.deepEqual(runRule(checkNodeFieldSelectors, text), expected);
    });
  }
});
