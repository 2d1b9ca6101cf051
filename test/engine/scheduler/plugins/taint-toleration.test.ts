import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createTaintToleration,
  untoleratedTaintReason,
  UNTOLERATED_TAINT_CODE,
} from '../../../../server/src/engine/scheduler/plugins/taint-toleration';
import type { KubernetesMinor } from '../../../../server/src/engine/version';
import { buildPlugin, makeNode, makePod, messages, runFilter, runScore } from '../builders';

// Situations of upstream TestTaintTolerationFilter and TestTaintTolerationScore
// (pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go).

type Taint = { key: string; value?: string; effect: string };
type Toleration = { key?: string; operator?: string; value?: string; effect?: string };

interface FilterCase {
  readonly name: string;
  readonly taints: readonly Taint[];
  readonly tolerations: readonly Toleration[];
  /** Expected reason per version; [] when the pod fits. */
  readonly reasons: Readonly<Record<KubernetesMinor, readonly string[]>>;
}

const fits = { '1.33': [], '1.34': [], '1.35': [] } as const;

function rejected(detail: string): FilterCase['reasons'] {
  return {
    '1.33': [`node(s) had untolerated taint ${detail}`],
    '1.34': [`node(s) had untolerated taint ${detail}`],
    '1.35': ['node(s) had untolerated taint(s)'],
  };
}

const FILTER_CASES: readonly FilterCase[] = [
  {
    name: 'a pod without tolerations cannot land on a node with a NoSchedule taint',
    taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
    tolerations: [],
    reasons: rejected('{dedicated: user1}'),
  },
  {
    name: 'a pod tolerating the taint (Equal, same value and effect) fits',
    taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
    tolerations: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
    reasons: fits,
  },
  {
    name: 'a toleration with another value does not tolerate the taint',
    taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }],
    reasons: rejected('{dedicated: user1}'),
  },
  {
    name: 'an Exists toleration ignores the value',
    taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
    tolerations: [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }],
    reasons: fits,
  },
  {
    name: 'a toleration without effect tolerates every effect of its key',
    taints: [{ key: 'foo', value: 'bar', effect: 'NoExecute' }],
    tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar' }],
    reasons: fits,
  },
  {
    name: 'an empty key with Exists tolerates every taint',
    taints: [
      { key: 'a', effect: 'NoSchedule' },
      { key: 'b', value: 'x', effect: 'NoExecute' },
    ],
    tolerations: [{ operator: 'Exists' }],
    reasons: fits,
  },
  {
    name: 'a toleration for another effect does not tolerate the taint',
    taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
    tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
    reasons: rejected('{foo: bar}'),
  },
  {
    name: 'PreferNoSchedule taints never stop a pod',
    taints: [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }],
    tolerations: [],
    reasons: fits,
  },
  {
    name: 'a NoExecute taint stops a pod that does not tolerate it',
    taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }],
    tolerations: [],
    reasons: rejected('{node.kubernetes.io/unreachable: }'),
  },
  {
    name: 'the first untolerated taint is the one named, and an empty value leaves "key: "',
    taints: [
      { key: 'tolerated', effect: 'NoSchedule' },
      { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
      { key: 'other', value: 'x', effect: 'NoSchedule' },
    ],
    tolerations: [{ key: 'tolerated', operator: 'Exists' }],
    reasons: rejected('{node-role.kubernetes.io/control-plane: }'),
  },
];

describe('TaintToleration filter', () => {
  for (const testCase of FILTER_CASES) {
    for (const version of ['1.33', '1.34', '1.35'] as const) {
      test(`${testCase.name} (${version})`, () => {
        const node = makeNode('n1', { taints: testCase.taints });
        const pod = makePod('p', { tolerations: testCase.tolerations });
        const { plugin } = buildPlugin(createTaintToleration, [node], { version });
        const status = runFilter(plugin, pod, node);
        assert.deepEqual(messages(status), testCase.reasons[version]);
        if (testCase.reasons[version].length > 0) {
          assert.equal(status.code, 'UnschedulableAndUnresolvable');
          assert.equal(status.reasons[0]?.code, UNTOLERATED_TAINT_CODE);
        }
      });
    }
  }

  test('the reason is worded per version: with key and value up to 1.34, generic from 1.35', () => {
    const taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' as const };
    assert.equal(
      untoleratedTaintReason('1.33', taint).message,
      'node(s) had untolerated taint {dedicated: gpu}',
    );
    assert.equal(
      untoleratedTaintReason('1.34', taint).message,
      'node(s) had untolerated taint {dedicated: gpu}',
    );
    assert.equal(untoleratedTaintReason('1.35', taint).message, 'node(s) had untolerated taint(s)');
  });
});

interface ScoreCase {
  readonly name: string;
  readonly tolerations: readonly Toleration[];
  readonly nodes: Readonly<Record<string, readonly Taint[]>>;
  readonly scores: Readonly<Record<string, number>>;
}

const SCORE_CASES: readonly ScoreCase[] = [
  {
    name: 'nodes whose PreferNoSchedule taints are all tolerated score 100',
    tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
    nodes: { a: [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }], b: [] },
    scores: { a: 100, b: 100 },
  },
  {
    name: 'the more untolerated PreferNoSchedule taints a node has, the lower it scores',
    tolerations: [{ key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'PreferNoSchedule' }],
    nodes: {
      a: [],
      b: [{ key: 'cpu-type', value: 'x86', effect: 'PreferNoSchedule' }],
      c: [
        { key: 'cpu-type', value: 'x86', effect: 'PreferNoSchedule' },
        { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
      ],
    },
    scores: { a: 100, b: 50, c: 0 },
  },
  {
    name: 'only PreferNoSchedule taints and tolerations count for the score',
    tolerations: [{ key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'NoSchedule' }],
    nodes: {
      a: [{ key: 'cpu-type', value: 'arm64', effect: 'NoSchedule' }],
      b: [{ key: 'cpu-type', value: 'x86', effect: 'PreferNoSchedule' }],
    },
    scores: { a: 100, b: 0 },
  },
  {
    name: 'a toleration without effect also tolerates PreferNoSchedule taints',
    tolerations: [{ key: 'foo', operator: 'Exists' }],
    nodes: {
      a: [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }],
      b: [{ key: 'x', effect: 'PreferNoSchedule' }],
    },
    scores: { a: 100, b: 0 },
  },
];

describe('TaintToleration score', () => {
  for (const testCase of SCORE_CASES) {
    test(testCase.name, () => {
      const nodes = Object.entries(testCase.nodes).map(([name, taints]) => makeNode(name, { taints }));
      const { plugin } = buildPlugin(createTaintToleration, nodes);
      assert.deepEqual(
        runScore(plugin, makePod('p', { tolerations: testCase.tolerations }), nodes),
        testCase.scores,
      );
    });
  }
});
