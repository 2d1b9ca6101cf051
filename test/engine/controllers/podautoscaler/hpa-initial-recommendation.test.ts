/**
 * recordInitialRecommendation (pkg/controller/podautoscaler/horizontal.go, reconcileAutoscaler): on an HPA's first
 * sync the controller remembers the target's replicas as a recommendation, so a lower one is held by the
 * scale-down stabilization window for the window's length. Rows follow horizontal_test.go: TestScaleDownStabilizeInitialSize
 * (first sync, nil recommendations: 5 stays 5) and TestScaleDown (the initial recommendation older than the window:
 * 5 → 3), over the same numbers: 5 pods of 1 cpu, 28% used against a 50% target, min 2, max 6. The load comes
 * once the pods are Ready (a load step spreads over Ready pods); the first sync, at time 0, saw 5 replicas.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hpa, loadStep, nodes, run, workload } from '../../../support/timeline-builders';

const web = workload(
  'Deployment',
  'web',
  'nginx',
  { replicas: 5 },
  { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '1', memory: '64Mi' } } }] },
);

const rows: {
  name: string;
  behavior?: Record<string, unknown>;
  loadAt: number;
  rescales: [number, number][];
}[] = [
  {
    name: 'TestScaleDownStabilizeInitialSize: a load once the pods are Ready holds 5 until the initial recommendation is 300 s old',
    loadAt: 60,
    rescales: [[315, 3]],
  },
  {
    name: 'TestScaleDown: a load once the initial recommendation is older than the window scales 5 to 3 at once',
    loadAt: 600,
    rescales: [[600, 3]],
  },
  {
    name: 'stabilizeRecommendationWithBehaviors: spec.behavior with the default 300 s scale-down window holds it alike',
    behavior: { scaleUp: { stabilizationWindowSeconds: 0 } },
    loadAt: 60,
    rescales: [[300, 3]],
  },
  {
    name: 'stabilizeRecommendationWithBehaviors: a scale-down window of 0 s lets the first sync scale down',
    behavior: { scaleDown: { stabilizationWindowSeconds: 0 } },
    loadAt: 60,
    rescales: [[60, 3]],
  },
];

describe('the HPA first sync records the current replicas (recordInitialRecommendation)', () => {
  for (const row of rows) {
    test(row.name, () => {
      const result = run({
        cluster: nodes(3, '4'),
        manifests: [
          web,
          hpa({
            minReplicas: 2,
            maxReplicas: 6,
            ...(row.behavior === undefined ? {} : { behavior: row.behavior }),
          }),
        ],
        steps: [loadStep(row.loadAt, 28)],
      });
      const rescales = result.events
        .filter((event) => event.type === 'SuccessfulRescale')
        .map((event) => [event.time, event.details?.rescale?.to]);
      assert.deepEqual(rescales, row.rescales);
    });
  }
});
