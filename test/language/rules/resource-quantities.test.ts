import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkResourceQuantities,
  isOvercommitAllowed,
} from '../../../server/src/language/rules/resource-quantities';
import type { SeenFinding } from './rule-harness';
import { runRule, yaml } from './rule-harness';

/** A Pod whose one container has the given resources lines (indented under resources:). */
function pod(...resources: string[]): string {
  return yaml(
    'apiVersion: v1',
    'kind: Pod',
    'metadata: { name: p }',
    'spec:',
    '  containers:',
    '    - name: app',
    '      image: nginx',
    '      resources:',
    ...resources.map((line) => `        ${line}`),
  );
}

const cases: { name: string; text: string; expected: SeenFinding[] }[] = [
  {
    name: 'requests below their limits are accepted, whatever the units',
    text: pod('requests: { cpu: 250m, memory: 128Mi }', 'limits: { cpu: "1", memory: 0.5Gi }'),
    expected: [],
  },
  {
    name: 'a negative request is reported on its value with the API server message',
    text: pod('requests:', '  cpu: -100m'),
    expected: [
      {
        code: 'negative-quantity',
        message:
          'spec.containers[0].resources.requests[cpu]: Invalid value: "-100m": must be greater than or equal to 0',
        at: '-100m',
        line: 10,
      },
    ],
  },
  {
    name: 'a negative limit written as a number is reported',
    text: pod('limits:', '  memory: -1'),
    expected: [
      {
        code: 'negative-quantity',
        message:
          'spec.containers[0].resources.limits[memory]: Invalid value: "-1": must be greater than or equal to 0',
        at: '-1',
        line: 10,
      },
    ],
  },
  {
    name: 'a request above its limit is reported on the request, naming the limit',
    text: pod('requests:', '  memory: 1Gi', 'limits:', '  memory: 512Mi'),
    expected: [
      {
        code: 'negative-quantity',
        message:
          'spec.containers[0].resources.requests: Invalid value: "1Gi": must be less than or equal to memory limit of 512Mi',
        at: '1Gi',
        line: 10,
      },
    ],
  },
  {
    name: 'a request equal to its limit in other units is accepted',
    text: pod('requests: { cpu: 1000m, memory: 1024Mi }', 'limits: { cpu: 1, memory: 1Gi }'),
    expected: [],
  },
  {
    name: 'an extended resource requested below its limit must equal it, with a fix',
    text: pod('requests:', '  nvidia.com/gpu: 1', 'limits:', '  nvidia.com/gpu: 2'),
    expected: [
      {
        code: 'negative-quantity',
        message:
          'spec.containers[0].resources.requests: Invalid value: "1": must be equal to nvidia.com/gpu limit of 2',
        at: '1',
        line: 10,
        replacement: '2',
      },
    ],
  },
  {
    name: 'an extended resource requested without a limit is reported on the request key',
    text: pod('requests:', '  example.com/foo: 1'),
    expected: [
      {
        code: 'negative-quantity',
        message:
          'spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources (example.com/foo is requested without a limit).',
        at: 'example.com/foo',
        line: 10,
      },
    ],
  },
  {
    name: 'malformed quantities are left to the schema',
    text: pod('requests:', '  memory: 128mb', 'limits:', '  memory: 1x'),
    expected: [],
  },
];

void describe('negative-quantity', () => {
  for (const { name, text, expected } of cases) {
    void test(name, () => {
      assert.deepEqual(runRule(checkResourceQuantities, text), expected);
    });
  }
});

void describe('isOvercommitAllowed', () => {
  const table: { resource: string; isAllowed: boolean }[] = [
    { resource: 'cpu', isAllowed: true },
    { resource: 'ephemeral-storage', isAllowed: true },
    { resource: 'kubernetes.io/something', isAllowed: true },
    { resource: 'hugepages-2Mi', isAllowed: false },
    { resource: 'nvidia.com/gpu', isAllowed: false },
  ];
  for (const { resource, isAllowed } of table) {
    void test(`${resource} ${isAllowed ? 'may' : 'may not'} be requested below its limit`, () => {
      assert.equal(isOvercommitAllowed(resource), isAllowed);
    });
  }
});
