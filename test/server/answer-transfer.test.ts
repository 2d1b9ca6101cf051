/**
 * The prediction worker's answers cross as what changed since its last one: items of the answer's arrays equal to
 * those of the last answer are not sent, and the server's side rebuilds the same data (Maps, undefined, -0 and an
 * array held in two places included). Each answer goes through structured clone, as postMessage copies it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AnswerDecoder, AnswerEncoder } from '../../server/src/host/answer-transfer';
import type { EncodedAnswer } from '../../server/src/host/answer-transfer';

/** An answer shaped as a scope's simulation: its report's findings are its findings (one array). */
function answerOf(
  workloads: readonly string[],
  options: { replicas?: number; reasons?: ReadonlyMap<string, number>; notice?: string } = {},
) {
  const findings = workloads.map((name) => ({
    code: 'pod-unschedulable',
    object: { name },
    data: undefined,
  }));
  return {
    simulation: {
      report: {
        cluster: { nodes: [{ name: 'worker-1' }] },
        findings,
        rollouts: workloads.map((name) => ({ name })),
      },
      samples: workloads.map((name) => ({ name, nodeName: null, requests: { milliCpu: -0, memory: 0 } })),
      findings,
    },
    predictions: workloads.map((name) => ({
      name,
      replicas: options.replicas ?? 1,
      nodeReasons: new Map(options.reasons ?? []),
      pendingMessage: null,
    })),
    clusterNotice: options.notice,
  };
}

/** How many items of the answer's arrays a message carries. */
function sentItems(message: EncodedAnswer): number {
  const count = (value: unknown): number =>
    Array.isArray(value)
      ? value.length
      : typeof value === 'object' && value !== null && !(value instanceof Map)
        ? Object.values(value).reduce((sum: number, inner) => sum + count(inner), 0)
        : 0;
  const value = message.value as ReturnType<typeof answerOf>;
  // The report's findings are the simulation's: counted once.
  return count(value) - value.simulation.report.findings.length;
}

const CASES: readonly {
  name: string;
  answers: readonly ReturnType<typeof answerOf>[];
  /** Items sent per answer. */
  sent: readonly number[];
}[] = [
  {
    name: 'the first answer is sent whole; the same answer again sends no item',
    answers: [answerOf(['a', 'b', 'c']), answerOf(['a', 'b', 'c'])],
    sent: [13, 0],
  },
  {
    name: 'a changed workload sends its own items only',
    answers: [answerOf(['a', 'b', 'c']), answerOf(['a', 'x', 'c'])],
    sent: [13, 4],
  },
  {
    name: 'a workload added in the middle sends its items; those after it are found shifted',
    answers: [answerOf(['a', 'b', 'c']), answerOf(['a', 'n', 'b', 'c'])],
    sent: [13, 4],
  },
  {
    name: 'a workload removed sends nothing of the others',
    answers: [answerOf(['a', 'b', 'c']), answerOf(['a', 'c'])],
    sent: [13, 0],
  },
  {
    name: 'a Map that differs sends the predictions again, one that is equal does not',
    answers: [
      answerOf(['a', 'b'], { reasons: new Map([['Insufficient cpu', 2]]) }),
      answerOf(['a', 'b'], { reasons: new Map([['Insufficient cpu', 3]]) }),
      answerOf(['a', 'b'], { reasons: new Map([['Insufficient cpu', 3]]) }),
    ],
    sent: [9, 2, 0],
  },
  {
    name: 'everything changed sends everything, and a notice that changed comes with it',
    answers: [answerOf(['a', 'b']), answerOf(['a', 'b'], { replicas: 2, notice: 'errors' })],
    sent: [9, 2],
  },
];

describe('The prediction worker’s answers, sent incrementally', () => {
  for (const { name, answers, sent } of CASES) {
    test(name, () => {
      const encoder = new AnswerEncoder();
      const decoder = new AnswerDecoder();
      answers.forEach((answer, index) => {
        const message = structuredClone(encoder.encode(index + 1, answer));
        assert.equal(sentItems(message), sent[index], `answer ${index + 1}: items sent`);
        const decoded = decoder.decode(index + 1, message) as ReturnType<typeof answerOf>;
        assert.deepStrictEqual(decoded, answer, `answer ${index + 1}`);
        assert.ok(Object.is(decoded.simulation.samples[0]?.requests.milliCpu, -0));
        assert.equal(decoded.simulation.report.findings, decoded.simulation.findings, 'one array, as sent');
      });
    });
  }

  test('an answer relative to an answer the server does not hold is refused', () => {
    const encoder = new AnswerEncoder();
    encoder.encode(1, answerOf(['a']));
    const second = structuredClone(encoder.encode(2, answerOf(['a'])));
    assert.throws(() => new AnswerDecoder().decode(2, second), /relative to answer 1, 0 held/);
  });
});
