/**
 * The rollout part of the summary lens: a wave is a step that grows the new revision; the time runs from the
 * rollout's start to its end; a stalled or unfinished rollout says so.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ReportRollout } from '../../../server/src/engine/scenario/report/timeline-report';
import { rolloutSummary, summaryLensTitle } from '../../../server/src/language/predictions/code-lenses';
import type { WorkloadPrediction } from '../../../server/src/language/predictions/workload-predictions';

function rollout(
  outcome: ReportRollout['outcome'],
  newReplicas: readonly number[],
  endedAt: number | null,
): ReportRollout {
  return {
    namespace: 'default',
    name: 'storefront',
    kind: 'Deployment',
    strategy: 'RollingUpdate',
    maxSurge: 1,
    maxUnavailable: 0,
    replicas: 3,
    startedAt: 10,
    outcome,
    endedAt,
    message: '',
    steps: newReplicas.map((count, index) => ({
      time: 10 + index * 5,
      newReplicas: count,
      oldReplicas: 3 - Math.max(0, count - 1),
      available: 3,
      unavailable: 0,
    })),
  };
}

describe('the rollout summary of a code lens', () => {
  test('surge steps 1, 2, 3 (each new pod waiting for the last) are 3 waves, timed from start to end', () => {
    assert.equal(rolloutSummary(rollout('Complete', [1, 1, 2, 2, 3, 3], 43.4)), 'rollout 3 waves, ~33 s');
  });
  test('a new workload scaled up at once is one wave', () => {
    assert.equal(rolloutSummary(rollout('Complete', [4], 21)), 'rollout 1 wave, ~11 s');
  });
  test('a rollout past its progress deadline stalls; one still going is unfinished', () => {
    assert.equal(rolloutSummary(rollout('ProgressDeadlineExceeded', [1], null)), 'rollout stalls');
    assert.equal(rolloutSummary(rollout('InProgress', [1, 2], null)), 'rollout unfinished');
  });
});

describe('the summary lens of a workload some of whose pods the API server refused', () => {
  const workload = (created: number): WorkloadPrediction => ({
    source: { file: 'shop.yaml', documentIndex: 0, path: ['spec', 'template'] },
    kind: 'Deployment',
    name: 'storefront',
    namespace: 'default',
    replicas: Array.from({ length: created }, () => ({}) as WorkloadPrediction['replicas'][number]),
    scheduled: created,
    pending: 0,
    qosClass: 'Burstable',
    qosReason: '',
    pendingMessage: null,
    cannotStart: 0,
    cannotStartReason: null,
    cannotStartMessage: null,
    nodeReasons: new Map(),
    causes: [],
    nodeCount: 4,
  });

  test('counts the replicas never created against the desired ones, with the plugin that refused them', () => {
    assert.equal(
      summaryLensTitle(workload(2), rollout('ProgressDeadlineExceeded', [2], 611), 'ResourceQuota'),
      '2/3 scheduled · 1 refused by ResourceQuota · Burstable · rollout stalls',
    );
  });

  test('without a refusal the lens counts the pods that exist, as before', () => {
    assert.equal(
      summaryLensTitle(workload(3), rollout('Complete', [1, 2, 3], 43)),
      '3/3 scheduled · Burstable · rollout 3 waves, ~33 s',
    );
  });

  test("names the pods that are placed but never start, with the kubelet's message", () => {
    const stuck = {
      ...workload(3),
      cannotStart: 3,
      cannotStartReason: 'CreateContainerConfigError',
      cannotStartMessage: 'configmap "settings" not found',
    };
    assert.equal(
      summaryLensTitle(stuck, rollout('ProgressDeadlineExceeded', [3], null)),
      '3/3 scheduled · 3 cannot start: configmap "settings" not found · Burstable · rollout stalls',
    );
  });
});
