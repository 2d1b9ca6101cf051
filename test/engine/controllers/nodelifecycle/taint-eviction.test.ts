import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TaintObject, TolerationObject } from '../../../../server/src/engine/model/objects';
import { tolerationSecondsFor } from '../../../../server/src/engine/controllers/nodelifecycle/node-lifecycle';
import {
  DEFAULT_TOLERATION_SECONDS,
  admittedTolerations,
} from '../../../../server/src/engine/admission/plugins/default-toleration-seconds';

const UNREACHABLE: TaintObject = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };

describe('DefaultTolerationSeconds admission', () => {
  test('a pod without tolerations gets 300s for not-ready and unreachable', () => {
    assert.deepEqual(admittedTolerations([]), [
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: DEFAULT_TOLERATION_SECONDS,
      },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: DEFAULT_TOLERATION_SECONDS,
      },
    ]);
  });

  test('a pod tolerating unreachable keeps its own toleration and only gains not-ready', () => {
    const own: TolerationObject = {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 30,
    };
    const admitted = admittedTolerations([own]);
    assert.equal(admitted.length, 2);
    assert.equal(admitted[0], own);
  });

  test('a toleration of every key and effect is enough for both', () => {
    assert.equal(admittedTolerations([{ operator: 'Exists' }]).length, 1);
  });
});

describe('tolerationSecondsFor (taint manager)', () => {
  const cases: { name: string; tolerations: TolerationObject[]; expected: number | null }[] = [
    { name: 'an untolerated NoExecute taint evicts at once', tolerations: [], expected: null },
    { name: 'the admitted default waits 300s', tolerations: admittedTolerations([]), expected: 300 },
    {
      name: 'a toleration without tolerationSeconds keeps the pod forever',
      tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }],
      expected: Number.POSITIVE_INFINITY,
    },
    {
      name: 'the smallest tolerationSeconds among matching tolerations wins',
      tolerations: [
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 60,
        },
        { operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 },
      ],
      expected: 20,
    },
    {
      name: 'a negative tolerationSeconds evicts at once',
      tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: -5 }],
      expected: 0,
    },
  ];
  for (const { name, tolerations, expected } of cases) {
    test(name, () => assert.equal(tolerationSecondsFor(tolerations, [UNREACHABLE]), expected));
  }

  test('NoSchedule taints do not evict', () => {
    assert.equal(
      tolerationSecondsFor([], [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }]),
      Number.POSITIVE_INFINITY,
    );
  });
});
