/**
 * How the HPA controller normalises desired replicas, table rows following
 * pkg/controller/podautoscaler/horizontal_test.go (TestNormalizeDesiredReplicas for the legacy stabilisation,
 * TestScalingWithRules for spec.behavior's policies; each name says which) and the API defaults of behavior.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type {
  HpaMemory,
  NormalizeInput,
} from '../../../../server/src/engine/controllers/podautoscaler/hpa-behavior';
import { normalizeDesiredReplicas } from '../../../../server/src/engine/controllers/podautoscaler/hpa-behavior';
import type { HpaBehavior, HpaScalingRules } from '../../../../server/src/engine/workloads/autoscalers';
import {
  DEFAULT_SCALE_DOWN,
  DEFAULT_SCALE_UP,
  readAutoscaler,
} from '../../../../server/src/engine/workloads/autoscalers';

const NOW = 10_000;
const EMPTY: HpaMemory = { recommendations: [], scaleUpEvents: [], scaleDownEvents: [] };

/** generateScalingRules of the upstream test: a Pods and/or a Percent policy, selectPolicy Max. */
function rules(
  pods: number,
  podsPeriod: number,
  percent: number,
  percentPeriod: number,
  window: number,
): HpaScalingRules {
  return {
    stabilizationWindowSeconds: window,
    selectPolicy: 'Max',
    policies: [
      ...(pods === 0 ? [] : [{ type: 'Pods' as const, value: pods, periodSeconds: podsPeriod }]),
      ...(percent === 0 ? [] : [{ type: 'Percent' as const, value: percent, periodSeconds: percentPeriod }]),
    ],
  };
}

/** generateEventsUniformDistribution(changes, period): events in the middle of equal slices of the period. */
function spread(changes: readonly number[], period: number): { time: number; change: number }[] {
  const slice = period / changes.length;
  return changes.map((change, index) => ({ time: NOW - (period - slice * (index + 1) + slice / 2), change }));
}

function input(partial: Partial<NormalizeInput>): NormalizeInput {
  return {
    now: NOW,
    currentReplicas: 1,
    desiredReplicas: 1,
    minReplicas: 1,
    maxReplicas: 10,
    behavior: null,
    memory: EMPTY,
    ...partial,
  };
}

describe('normalizeDesiredReplicas without behavior (TestNormalizeDesiredReplicas)', () => {
  const cases: { name: string; recommendations: [number, number][]; desired: number; expected: number }[] = [
    { name: 'empty log', recommendations: [], desired: 5, expected: 5 },
    {
      name: 'stabilize',
      recommendations: [
        [4, -120],
        [5, -60],
      ],
      desired: 3,
      expected: 5,
    },
    {
      name: 'no stabilize',
      recommendations: [
        [1, -120],
        [2, -60],
      ],
      desired: 3,
      expected: 3,
    },
    {
      name: 'no stabilize - old recommendations',
      recommendations: [
        [10, -600],
        [9, -540],
      ],
      desired: 3,
      expected: 3,
    },
    {
      name: 'stabilize - old recommendations',
      recommendations: [
        [10, -600],
        [4, -60],
        [5, -120],
        [9, -540],
      ],
      desired: 3,
      expected: 5,
    },
  ];
  for (const row of cases) {
    test(`TestNormalizeDesiredReplicas "${row.name}": ${row.desired} stabilises to ${row.expected}`, () => {
      const memory: HpaMemory = {
        ...EMPTY,
        recommendations: row.recommendations.map(([replicas, ago]) => ({ time: NOW + ago, replicas })),
      };
      const result = normalizeDesiredReplicas(
        input({ currentReplicas: 5, desiredReplicas: row.desired, maxReplicas: 100, memory }),
      );
      assert.equal(result.replicas, row.expected);
      assert.deepEqual(result.recommendation, { time: NOW, replicas: row.desired });
    });
  }

  test('TestScalingWithRules "scaleUp with default behavior" (legacy): at most max(2 × current, 4)', () => {
    const result = normalizeDesiredReplicas(
      input({ currentReplicas: 10, desiredReplicas: 50, maxReplicas: 1000 }),
    );
    assert.deepEqual([result.replicas, result.limitReason], [20, 'ScaleUpLimit']);
  });

  test('a recommendation exactly 300 s old still holds the scale-down (stabilizeRecommendation keeps the cutoff)', () => {
    const memory: HpaMemory = { ...EMPTY, recommendations: [{ time: NOW - 300, replicas: 6 }] };
    assert.equal(
      normalizeDesiredReplicas(input({ currentReplicas: 6, desiredReplicas: 2, memory })).replicas,
      6,
    );
    const older: HpaMemory = { ...EMPTY, recommendations: [{ time: NOW - 301, replicas: 6 }] };
    assert.equal(
      normalizeDesiredReplicas(input({ currentReplicas: 6, desiredReplicas: 2, memory: older })).replicas,
      2,
    );
  });
});

describe('normalizeDesiredReplicas with behavior (TestScalingWithRules)', () => {
  const behavior = (up?: HpaScalingRules, down?: HpaScalingRules): HpaBehavior => ({
    scaleUp: up ?? DEFAULT_SCALE_UP,
    scaleDown: { ...(down ?? DEFAULT_SCALE_DOWN), stabilizationWindowSeconds: 0 },
  });
  const cases: {
    name: string;
    min: number;
    max: number;
    current: number;
    desired: number;
    up?: HpaScalingRules;
    down?: HpaScalingRules;
    upEvents?: { time: number; change: number }[];
    expected: number;
    reason: string;
  }[] = [
    {
      name: 'prenormalized desired replicas within range',
      min: 3,
      max: 8,
      current: 5,
      desired: 7,
      expected: 7,
      reason: 'DesiredWithinRange',
    },
    {
      name: 'prenormalized desired replicas < minReplicas',
      min: 2,
      max: 8,
      current: 3,
      desired: 1,
      expected: 2,
      reason: 'TooFewReplicas',
    },
    {
      name: 'prenormalized desired replicas within range when minReplicas is 0',
      min: 0,
      max: 10,
      current: 1,
      desired: 0,
      expected: 0,
      reason: 'DesiredWithinRange',
    },
    {
      name: 'maxReplicas is the limit because maxReplicas < scaleUpLimit',
      min: 1,
      max: 10,
      current: 20,
      desired: 1000,
      expected: 10,
      reason: 'TooManyReplicas',
    },
    {
      name: 'scaleUpLimit is the limit because scaleUpLimit < maxReplicas with user policies',
      min: 1,
      max: 2000,
      current: 3,
      desired: 1000,
      up: rules(0, 0, 1, 60, 0),
      expected: 4,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleDownLimit is the limit because scaleDownLimit > minReplicas with user defined policies',
      min: 3,
      max: 2000,
      current: 1000,
      desired: 3,
      down: rules(20, 60, 0, 0, 0),
      expected: 980,
      reason: 'ScaleDownLimit',
    },
    {
      name: 'scaleUp with default behavior',
      min: 1,
      max: 1000,
      current: 10,
      desired: 50,
      expected: 20,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleUp with pods policy larger than percent policy',
      min: 1,
      max: 1000,
      current: 10,
      desired: 500,
      up: rules(100, 60, 100, 60, 0),
      expected: 110,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleUp with percent policy larger than pods policy',
      min: 1,
      max: 1000,
      current: 10,
      desired: 500,
      up: rules(2, 60, 100, 60, 0),
      expected: 20,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleUp with pod policy limitation',
      min: 1,
      max: 1000,
      current: 10,
      desired: 50,
      up: rules(30, 60, 0, 0, 0),
      expected: 40,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleUp with percent policy limitation',
      min: 1,
      max: 1000,
      current: 10,
      desired: 50,
      up: rules(0, 0, 200, 60, 0),
      expected: 30,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleDown with percent policy larger than pod policy',
      min: 1,
      max: 1000,
      current: 100,
      desired: 2,
      down: rules(20, 60, 1, 60, 300),
      expected: 80,
      reason: 'ScaleDownLimit',
    },
    {
      name: 'scaleDown with pod policy larger than percent policy',
      min: 1,
      max: 1000,
      current: 100,
      desired: 2,
      down: rules(2, 60, 1, 60, 300),
      expected: 98,
      reason: 'ScaleDownLimit',
    },
    {
      name: 'scaleDown with spec MinReplicas limitation with large percent policy',
      min: 5,
      max: 1000,
      current: 10,
      desired: 2,
      down: rules(0, 0, 100, 60, 300),
      expected: 5,
      reason: 'TooFewReplicas',
    },
    {
      name: 'scaleDown with pod policy limitation',
      min: 1,
      max: 1000,
      current: 10,
      desired: 2,
      down: rules(5, 60, 0, 0, 300),
      expected: 5,
      reason: 'ScaleDownLimit',
    },
    {
      name: 'scaleUp with spec MaxReplicas limitation with large pod policy and events',
      min: 1,
      max: 200,
      current: 100,
      desired: 500,
      up: rules(300, 60, 0, 0, 0),
      upEvents: spread([1, 5, 9], 120),
      expected: 200,
      reason: 'TooManyReplicas',
    },
    {
      name: 'scaleUp with currentReplicas limitation with rate.PeriodSeconds with a lot of recent scale up events',
      min: 1,
      max: 1000,
      current: 100,
      desired: 500,
      up: rules(5, 120, 0, 0, 0),
      upEvents: spread([1, 5, 9], 120),
      expected: 100,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleUp with pod policy and previous scale up events',
      min: 1,
      max: 1000,
      current: 100,
      desired: 500,
      up: rules(150, 120, 0, 0, 0),
      upEvents: spread([1, 5, 9], 120),
      expected: 235,
      reason: 'ScaleUpLimit',
    },
  ];
  for (const row of cases) {
    test(`TestScalingWithRules "${row.name}": ${row.current} → ${row.expected} (${row.reason})`, () => {
      const result = normalizeDesiredReplicas(
        input({
          currentReplicas: row.current,
          desiredReplicas: row.desired,
          minReplicas: row.min,
          maxReplicas: row.max,
          behavior: behavior(row.up, row.down),
          memory: { ...EMPTY, scaleUpEvents: row.upEvents ?? [] },
        }),
      );
      assert.deepEqual([result.replicas, result.limitReason], [row.expected, row.reason]);
    });
  }

  test('selectPolicy Disabled keeps the current replicas', () => {
    const disabled: HpaScalingRules = { ...DEFAULT_SCALE_DOWN, selectPolicy: 'Disabled' };
    const result = normalizeDesiredReplicas(
      input({ currentReplicas: 8, desiredReplicas: 2, behavior: behavior(undefined, disabled) }),
    );
    assert.equal(result.replicas, 8);
  });

  test('the scale-down window holds the highest recommendation strictly inside it', () => {
    const memory: HpaMemory = { ...EMPTY, recommendations: [{ time: NOW - 299, replicas: 7 }] };
    const held = normalizeDesiredReplicas(
      input({
        currentReplicas: 7,
        desiredReplicas: 2,
        behavior: { scaleUp: DEFAULT_SCALE_UP, scaleDown: DEFAULT_SCALE_DOWN },
        memory,
      }),
    );
    assert.equal(held.replicas, 7);
    const atCutoff: HpaMemory = { ...EMPTY, recommendations: [{ time: NOW - 300, replicas: 7 }] };
    const released = normalizeDesiredReplicas(
      input({
        currentReplicas: 7,
        desiredReplicas: 2,
        behavior: { scaleUp: DEFAULT_SCALE_UP, scaleDown: DEFAULT_SCALE_DOWN },
        memory: atCutoff,
      }),
    );
    assert.equal(released.replicas, 2);
  });
});

describe('readAutoscaler: v1 and v2 specs with API defaults', () => {
  const base = {
    metadata: { name: 'web', namespace: 'shop' },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 10 },
  };
  test('autoscaling/v1 reads targetCPUUtilizationPercentage and has no behavior', () => {
    const spec = readAutoscaler({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      ...base,
      spec: { ...base.spec, targetCPUUtilizationPercentage: 60 },
    });
    assert.deepEqual(
      [spec?.cpuUtilization, spec?.behavior, spec?.minReplicas, spec?.namespace],
      [60, null, 1, 'shop'],
    );
  });
  test('autoscaling/v2 without metrics targets 80% cpu', () => {
    const spec = readAutoscaler({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', ...base });
    assert.equal(spec?.cpuUtilization, 80);
  });
  test('autoscaling/v2 with only a memory metric has no cpu target', () => {
    const metrics = [
      {
        type: 'Resource',
        resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 70 } },
      },
    ];
    const spec = readAutoscaler({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      ...base,
      spec: { ...base.spec, metrics },
    });
    assert.equal(spec?.cpuUtilization, null);
  });
  test('a partial behavior is completed with the defaults of each direction', () => {
    const behavior = { scaleDown: { stabilizationWindowSeconds: 60 } };
    const spec = readAutoscaler({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      ...base,
      spec: { ...base.spec, behavior },
    });
    assert.deepEqual(spec?.behavior, {
      scaleUp: DEFAULT_SCALE_UP,
      scaleDown: { ...DEFAULT_SCALE_DOWN, stabilizationWindowSeconds: 60 },
    });
  });
  test('an HPA without maxReplicas is not read', () => {
    assert.equal(
      readAutoscaler({
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'x' },
        spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' } },
      }),
      null,
    );
  });
});
