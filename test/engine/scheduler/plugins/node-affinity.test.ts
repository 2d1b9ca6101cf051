import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CycleState } from '../../../../server/src/engine/scheduler/framework/cycle-state';
import {
  createNodeAffinity,
  REASON_AFFINITY_TERMS_CONFLICT,
  REASON_ENFORCED_AFFINITY_MISMATCH,
  REASON_NODE_AFFINITY_MISMATCH,
} from '../../../../server/src/engine/scheduler/plugins/node-affinity';
import { buildPlugin, makeNode, makePod, messages, runFilter, runScore } from '../builders';

// Situations of upstream TestNodeAffinity and TestNodeAffinityPriority
// (pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go).

const MISMATCH = "node(s) didn't match Pod's node affinity/selector";

type Requirement = { key: string; operator: string; values?: string[] };

function required(...terms: { matchExpressions?: Requirement[]; matchFields?: Requirement[] }[]) {
  return { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } };
}

interface FilterCase {
  readonly name: string;
  readonly spec: Record<string, unknown>;
  readonly labels?: Record<string, string>;
  readonly nodeName?: string;
  readonly args?: unknown;
  readonly reasons: readonly string[];
}

const FILTER_CASES: readonly FilterCase[] = [
  { name: 'a pod without nodeSelector or affinity fits any node', spec: {}, reasons: [] },
  {
    name: 'a nodeSelector the node lacks does not match',
    spec: { nodeSelector: { foo: 'bar' } },
    reasons: [MISMATCH],
  },
  {
    name: 'a nodeSelector with the same labels matches',
    spec: { nodeSelector: { foo: 'bar' } },
    labels: { foo: 'bar' },
    reasons: [],
  },
  {
    name: 'node labels that are a superset of the nodeSelector match',
    spec: { nodeSelector: { foo: 'bar' } },
    labels: { foo: 'bar', baz: 'blah' },
    reasons: [],
  },
  {
    name: 'node labels that are a subset of the nodeSelector do not match',
    spec: { nodeSelector: { foo: 'bar', baz: 'blah' } },
    labels: { foo: 'bar' },
    reasons: [MISMATCH],
  },
  {
    name: 'In matches a label with one of the values',
    spec: {
      affinity: required({ matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar', 'value2'] }] }),
    },
    labels: { foo: 'bar' },
    reasons: [],
  },
  {
    name: 'NotIn matches a node without the label',
    spec: { affinity: required({ matchExpressions: [{ key: 'foo', operator: 'NotIn', values: ['bar'] }] }) },
    reasons: [],
  },
  {
    name: 'NotIn does not match a node whose label has one of the values',
    spec: { affinity: required({ matchExpressions: [{ key: 'foo', operator: 'NotIn', values: ['bar'] }] }) },
    labels: { foo: 'bar' },
    reasons: [MISMATCH],
  },
  {
    name: 'Exists matches a node with the label, whatever its value',
    spec: { affinity: required({ matchExpressions: [{ key: 'foo', operator: 'Exists' }] }) },
    labels: { foo: 'anything' },
    reasons: [],
  },
  {
    name: 'DoesNotExist does not match a node with the label',
    spec: { affinity: required({ matchExpressions: [{ key: 'foo', operator: 'DoesNotExist' }] }) },
    labels: { foo: 'bar' },
    reasons: [MISMATCH],
  },
  {
    name: 'Gt compares the label as an integer (0206 > 0204)',
    spec: {
      affinity: required({ matchExpressions: [{ key: 'kernel-version', operator: 'Gt', values: ['0204'] }] }),
    },
    labels: { 'kernel-version': '0206' },
    reasons: [],
  },
  {
    name: 'Lt does not match a larger label value',
    spec: { affinity: required({ matchExpressions: [{ key: 'gpus', operator: 'Lt', values: ['4'] }] }) },
    labels: { gpus: '8' },
    reasons: [MISMATCH],
  },
  {
    name: 'Gt does not match a label that is not an integer',
    spec: { affinity: required({ matchExpressions: [{ key: 'gpus', operator: 'Gt', values: ['4'] }] }) },
    labels: { gpus: 'many' },
    reasons: [MISMATCH],
  },
  {
    name: 'Gt with two values is malformed and matches nothing',
    spec: { affinity: required({ matchExpressions: [{ key: 'gpus', operator: 'Gt', values: ['1', '2'] }] }) },
    labels: { gpus: '8' },
    reasons: [MISMATCH],
  },
  {
    name: 'In without values is malformed and matches nothing',
    spec: { affinity: required({ matchExpressions: [{ key: 'foo', operator: 'In', values: [] }] }) },
    labels: { foo: 'bar' },
    reasons: [MISMATCH],
  },
  {
    name: 'an unknown operator matches nothing',
    spec: { affinity: required({ matchExpressions: [{ key: 'foo', operator: 'Equals', values: ['bar'] }] }) },
    labels: { foo: 'bar' },
    reasons: [MISMATCH],
  },
  {
    name: 'an empty list of terms matches no node',
    spec: { affinity: required() },
    labels: { foo: 'bar' },
    reasons: [MISMATCH],
  },
  {
    name: 'a term without expressions or fields matches no node',
    spec: { affinity: required({}) },
    labels: { foo: 'bar' },
    reasons: [MISMATCH],
  },
  {
    name: 'requirements of one term are ANDed',
    spec: {
      affinity: required({
        matchExpressions: [
          { key: 'foo', operator: 'Exists' },
          { key: 'zone', operator: 'In', values: ['a'] },
        ],
      }),
    },
    labels: { foo: 'x', zone: 'b' },
    reasons: [MISMATCH],
  },
  {
    name: 'terms are ORed: one matching term is enough',
    spec: {
      affinity: required(
        { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
        { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] },
      ),
    },
    labels: { zone: 'b' },
    reasons: [],
  },
  {
    name: 'both nodeSelector and affinity must match',
    spec: {
      nodeSelector: { disk: 'ssd' },
      affinity: required({ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }),
    },
    labels: { zone: 'a' },
    reasons: [MISMATCH],
  },
  {
    name: 'matchFields metadata.name In matches the named node',
    spec: { affinity: required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }) },
    reasons: [],
  },
  {
    name: 'matchFields metadata.name In rejects another node',
    spec: { affinity: required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }) },
    reasons: [MISMATCH],
  },
  {
    name: 'matchFields metadata.name NotIn rejects the named node',
    spec: {
      affinity: required({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n1'] }] }),
    },
    reasons: [MISMATCH],
  },
  {
    name: 'two terms: matchFields does not match but matchExpressions does',
    spec: {
      affinity: required(
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] },
        { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
      ),
    },
    labels: { zone: 'a' },
    reasons: [],
  },
  {
    name: 'one term: matchExpressions matches but matchFields does not',
    spec: {
      affinity: required({
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }],
        matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }],
      }),
    },
    labels: { zone: 'a' },
    reasons: [MISMATCH],
  },
  {
    name: 'conflicting metadata.name requirements in one term reject the pod at PreFilter',
    spec: {
      affinity: required({
        matchFields: [
          { key: 'metadata.name', operator: 'In', values: ['n1'] },
          { key: 'metadata.name', operator: 'In', values: ['n2'] },
        ],
      }),
    },
    reasons: ['pod affinity terms conflict'],
  },
  {
    name: "the profile's addedAffinity is enforced before the pod's own affinity",
    spec: { nodeSelector: { foo: 'bar' } },
    labels: { foo: 'bar' },
    args: {
      addedAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
        },
      },
    },
    reasons: ["node(s) didn't match scheduler-enforced node affinity"],
  },
];

describe('NodeAffinity filter', () => {
  for (const testCase of FILTER_CASES) {
    test(testCase.name, () => {
      const node = makeNode('n1', { labels: testCase.labels ?? {} });
      const { plugin, argsProblems } = buildPlugin(createNodeAffinity, [node], { args: testCase.args });
      assert.deepEqual(argsProblems, []);
      const status = runFilter(plugin, makePod('p', testCase.spec), node);
      assert.deepEqual(messages(status), testCase.reasons);
      if (testCase.reasons.length > 0) {
        assert.equal(status.code, 'UnschedulableAndUnresolvable');
      }
    });
  }

  test('reason codes and messages are pinned', () => {
    assert.deepEqual(REASON_NODE_AFFINITY_MISMATCH, {
      code: 'NodeAffinity/NodeAffinityMismatch',
      message: MISMATCH,
    });
    assert.equal(REASON_ENFORCED_AFFINITY_MISMATCH.code, 'NodeAffinity/EnforcedAffinityMismatch');
    assert.equal(REASON_AFFINITY_TERMS_CONFLICT.code, 'NodeAffinity/AffinityTermsConflict');
  });

  test('PreFilter narrows the nodes to those named by matchFields in every term', () => {
    const nodes = ['n1', 'n2', 'n3'].map((name) => makeNode(name));
    const { plugin } = buildPlugin(createNodeAffinity, nodes);
    const pod = makePod('p', {
      affinity: required(
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] },
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n3'] }] },
      ),
    });
    const result = plugin.preFilter?.(new CycleState(), pod, nodes);
    assert.deepEqual([...(result?.nodeNames ?? [])].sort(), ['n1', 'n3']);
  });

  test('PreFilter skips a pod with no node constraint at all', () => {
    const node = makeNode('n1');
    const { plugin } = buildPlugin(createNodeAffinity, [node]);
    assert.equal(plugin.preFilter?.(new CycleState(), makePod('p'), [node]).status.code, 'Skip');
  });
});

describe('NodeAffinity score', () => {
  const preferred = (...terms: { weight: number; preference: { matchExpressions: Requirement[] } }[]) => ({
    nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: terms },
  });
  const nodes = () => [
    makeNode('a', { labels: { foo: 'bar' } }),
    makeNode('b', { labels: { foo: 'bar', key: 'value', az: 'az1' } }),
    makeNode('c', { labels: { key: 'value' } }),
  ];

  test('a pod without preferred terms is skipped at PreScore', () => {
    const all = nodes();
    const { plugin } = buildPlugin(createNodeAffinity, all);
    assert.equal(runScore(plugin, makePod('p'), all), null);
  });

  test('when no node matches the preferred terms every node scores 0', () => {
    const all = nodes();
    const { plugin } = buildPlugin(createNodeAffinity, all);
    const pod = makePod('p', {
      affinity: preferred({
        weight: 5,
        preference: { matchExpressions: [{ key: 'gpu', operator: 'Exists' }] },
      }),
    });
    assert.deepEqual(runScore(plugin, pod, all), { a: 0, b: 0, c: 0 });
  });

  test('weights of matching terms add up and are normalised so the best node gets 100', () => {
    const all = nodes();
    const { plugin } = buildPlugin(createNodeAffinity, all);
    const pod = makePod('p', {
      affinity: preferred(
        { weight: 2, preference: { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] } },
        {
          weight: 4,
          preference: {
            matchExpressions: [
              { key: 'key', operator: 'Exists' },
              { key: 'foo', operator: 'In', values: ['bar'] },
            ],
          },
        },
        { weight: 5, preference: { matchExpressions: [{ key: 'az', operator: 'In', values: ['az1'] }] } },
      ),
    });
    // a: 2, b: 2 + 4 + 5 = 11, c: 0 → a: 2*100/11 = 18
    assert.deepEqual(runScore(plugin, pod, all), { a: 18, b: 100, c: 0 });
  });
});
