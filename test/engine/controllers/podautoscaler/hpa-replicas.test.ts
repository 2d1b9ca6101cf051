/**
 * The HPA's replica calculator, table rows following pkg/controller/podautoscaler/replica_calculator_test.go
 * (each name says which upstream test it follows; requests of "1.0" cpu are 1000 millicores).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HpaPodSample } from '../../../../server/src/engine/controllers/podautoscaler/hpa-replicas';
import { resourceReplicas } from '../../../../server/src/engine/controllers/podautoscaler/hpa-replicas';

type State = HpaPodSample['state'];

/** Pods with these requests, states and samples (a missing sample is null). */
function pods(
  requests: readonly number[],
  states: readonly State[],
  levels: readonly (number | null)[],
): HpaPodSample[] {
  return requests.map((requestMilli, index) => ({
    name: `test-pod-${index}`,
    state: states[index] ?? 'ready',
    requestMilli,
    containerWithoutRequest: null,
    usageMilli: levels[index] ?? null,
  }));
}

const R = 'ready' as const;
const U = 'unready' as const;
const P = 'pending' as const;
const D = 'deleted' as const;

describe('resourceReplicas (GetResourceReplicas)', () => {
  const cases: {
    name: string;
    current: number;
    target: number;
    pods: HpaPodSample[];
    replicas: number;
    utilization: number;
  }[] = [
    {
      name: 'TestReplicaCalcScaleUp: 50% used against a 30% target scales 3 pods to 5',
      current: 3,
      target: 30,
      pods: pods([1000, 1000, 1000], [R, R, R], [300, 500, 700]),
      replicas: 5,
      utilization: 50,
    },
    {
      name: 'TestReplicaCalcScaleUpUnreadyLessScale: an unready pod counts as idle on a scale-up, so 4 not 6',
      current: 3,
      target: 30,
      pods: pods([1000, 1000, 1000], [U, R, R], [300, 500, 700]),
      replicas: 4,
      utilization: 60,
    },
    {
      name: 'TestReplicaCalcScaleUpUnreadyNoScale: counting the unready pods as idle flips the direction: no change',
      current: 3,
      target: 30,
      pods: pods([1000, 1000, 1000], [R, U, U], [400, 500, 700]),
      replicas: 3,
      utilization: 40,
    },
    {
      name: 'TestReplicaCalcScaleUpIgnoresFailedPods: failed pods are left out',
      current: 2,
      target: 30,
      pods: pods([1000, 1000, 1000, 1000], [R, R, D, D], [500, 700]),
      replicas: 4,
      utilization: 60,
    },
    {
      name: 'TestReplicaCalcScaleDown: 28% used against 50% scales 5 pods to 3',
      current: 5,
      target: 50,
      pods: pods([1000, 1000, 1000, 1000, 1000], [R, R, R, R, R], [100, 300, 500, 250, 250]),
      replicas: 3,
      utilization: 28,
    },
    {
      name: 'TestReplicaCalcScaleDownIncludeUnreadyPods: unready pods are ignored on a scale-down',
      current: 5,
      target: 50,
      pods: pods([1000, 1000, 1000, 1000, 1000], [R, R, R, U, U], [100, 300, 500, 250, 250]),
      replicas: 2,
      utilization: 30,
    },
    {
      name: 'TestReplicaCalcScaleDownExcludeUnscheduledPods: pending pods are ignored',
      current: 5,
      target: 50,
      pods: pods([1000, 1000, 1000, 1000, 1000], [R, P, P, P, P], [100]),
      replicas: 1,
      utilization: 10,
    },
    {
      name: 'TestReplicaCalcScaleDownIgnoresDeletionPods: pods being deleted are left out',
      current: 5,
      target: 50,
      pods: pods(
        [1000, 1000, 1000, 1000, 1000, 1000, 1000],
        [R, R, R, R, R, D, D],
        [100, 300, 500, 250, 250],
      ),
      replicas: 3,
      utilization: 28,
    },
    {
      name: 'TestReplicaCalcTolerance: 102% of the target is within the 10% tolerance',
      current: 3,
      target: 100,
      pods: pods([900, 1000, 1100], [R, R, R], [1010, 1030, 1020]),
      replicas: 3,
      utilization: 102,
    },
    {
      name: 'TestReplicaCalcMissingMetrics: a pod without a sample counts as using its request on a scale-down',
      current: 4,
      target: 100,
      pods: pods([1000, 1000, 1000, 1000], [R, R, R, R], [400, 95]),
      replicas: 3,
      utilization: 24,
    },
    {
      name: 'TestReplicaCalcMissingMetricsNoChangeEq: exactly on target with a pod missing: no change',
      current: 2,
      target: 100,
      pods: pods([1000, 1000], [R, R], [1000]),
      replicas: 2,
      utilization: 100,
    },
    {
      name: 'TestReplicaCalcMissingMetricsNoChangeGt: the missing pod counted idle brings 190% within tolerance',
      current: 2,
      target: 100,
      pods: pods([1000, 1000], [R, R], [1900]),
      replicas: 2,
      utilization: 190,
    },
    {
      name: 'TestReplicaCalcMissingMetricsNoChangeLt: the missing pod counted busy brings 60% within tolerance',
      current: 2,
      target: 100,
      pods: pods([1000, 1000], [R, R], [600]),
      replicas: 2,
      utilization: 60,
    },
    {
      name: 'TestReplicaCalcMissingMetricsUnreadyScaleUp: missing and unready pods count as idle on a scale-up',
      current: 3,
      target: 50,
      pods: pods([1000, 1000, 1000], [U, R, R], [100, 2000]),
      replicas: 4,
      utilization: 200,
    },
    {
      name: 'TestReplicaCalcMissingMetricsUnreadyScaleDown: a missing pod counts as busy on a scale-down',
      current: 4,
      target: 50,
      pods: pods([1000, 1000, 1000, 1000], [U, R, R, R], [100, 100, 100]),
      replicas: 3,
      utilization: 10,
    },
  ];
  for (const row of cases) {
    test(row.name, () => {
      assert.deepEqual(resourceReplicas(row.current, row.target, row.pods), {
        ok: true,
        replicas: row.replicas,
        utilization: row.utilization,
      });
    });
  }

  const errors: { name: string; pods: HpaPodSample[]; error: string }[] = [
    {
      name: 'TestReplicaCalcEmptyCPURequest: a container without a cpu request stops the calculation',
      pods: [
        { name: 'web-1', state: 'ready', requestMilli: 0, containerWithoutRequest: 'app', usageMilli: 200 },
      ],
      error: 'missing request for cpu in container app of Pod web-1',
    },
    {
      name: 'no pods: the selector returned none',
      pods: [],
      error: 'no pods returned by selector while calculating replica count',
    },
    {
      name: 'only pending pods: no sample to read',
      pods: pods([1000, 1000], [P, P], []),
      error: 'did not receive metrics for targeted pods (pods might be unready)',
    },
  ];
  for (const row of errors) {
    test(row.name, () => {
      assert.deepEqual(resourceReplicas(1, 100, row.pods), { ok: false, error: row.error });
    });
  }
});
