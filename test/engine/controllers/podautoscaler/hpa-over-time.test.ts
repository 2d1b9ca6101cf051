/**
 * The HPA controller over simulated time: a scenario's load scales the target up, its new pods schedule like any
 * other; a load drop scales it down once the 300 s stabilization window has passed; a pod without a cpu request
 * stops the HPA with its FailedGetResourceMetric event.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TimelineEvent } from '../../../../protocol/timeline';
import { hpa, loadStep as load, nodes, run, workload } from '../../../support/timeline-builders';

const of = (events: readonly TimelineEvent[], type: string): TimelineEvent[] =>
  events.filter((event) => event.type === type);

describe('HorizontalPodAutoscaler over time', () => {
  test('a load of 90% against a 50% target scales 3 pods to 6 at the next sync, and the new pods schedule', () => {
    const result = run({
      cluster: nodes(3),
      manifests: [workload('Deployment', 'web', 'nginx', { replicas: 3 }), hpa()],
      steps: [load(60, 90)],
    });
    const rescales = of(result.events, 'SuccessfulRescale');
    assert.deepEqual(
      rescales.map((event) => [event.time, event.object.kind, event.message, event.details?.rescale]),
      [
        [
          60,
          'HorizontalPodAutoscaler',
          'New size: 6; reason: cpu resource utilization (percentage of request) above target',
          { target: 'Deployment/web', from: 3, to: 6 },
        ],
      ],
    );
    const scheduledAfter = of(result.events, 'PodScheduled').filter((event) => event.time >= 60);
    assert.equal(scheduledAfter.length, 3);
    assert.equal(result.state.deployments.get('default/web')?.replicas, 6);
  });

  test('a load drop scales down only after the 300 s window (legacy stabilisation), to the new need', () => {
    const result = run({
      cluster: nodes(3),
      manifests: [workload('Deployment', 'web', 'nginx', { replicas: 3 }), hpa()],
      steps: [load(60, 90), load(400, 10)],
    });
    const rescales = of(result.events, 'SuccessfulRescale').map((event) => [event.time, event.message]);
    assert.deepEqual(rescales, [
      [60, 'New size: 6; reason: cpu resource utilization (percentage of request) above target'],
      [705, 'New size: 2; reason: All metrics below target'],
    ]);
    assert.equal(of(result.events, 'PodDeleted').filter((event) => event.time >= 705).length, 4);
  });

  test('behavior.scaleUp with a 1-pod-per-60 s policy adds one pod, then another once the first event is 60 s old', () => {
    const behavior = { scaleUp: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } };
    const result = run({
      cluster: nodes(3),
      manifests: [workload('Deployment', 'web', 'nginx', { replicas: 2 }), hpa({ behavior })],
      steps: [load(30, 100)],
    });
    const sizes = of(result.events, 'SuccessfulRescale').map((event) => [
      event.time,
      event.details?.rescale?.to,
    ]);
    assert.deepEqual(sizes, [
      [30, 3],
      [90, 4],
    ]);
  });

  test('a container without a cpu request: FailedGetResourceMetric with upstream error, no rescale', () => {
    const noRequest = workload(
      'Deployment',
      'web',
      'nginx',
      { replicas: 2 },
      {
        containers: [{ name: 'app', image: 'nginx', resources: { requests: { memory: '64Mi' } } }],
      },
    );
    const result = run({ cluster: nodes(2), manifests: [noRequest, hpa()], steps: [load(30, 90)] });
    const failed = of(result.events, 'FailedGetResourceMetric');
    assert.equal(failed.length, 1);
    assert.match(
      failed[0]?.message ?? '',
      /^failed to get cpu utilization: missing request for cpu in container app of Pod web-/,
    );
    assert.equal(of(result.events, 'SuccessfulRescale').length, 0);
    const finding = result.findings.find((entry) => entry.code === 'hpa-cannot-compute');
    assert.deepEqual([finding?.severity, finding?.path], ['warning', ['spec', 'containers', 0]]);
    assert.match(
      finding?.message ?? '',
      /^HorizontalPodAutoscaler default\/web cannot scale Deployment web: failed to get cpu utilization: missing request for cpu in container app of Pod web-\S+; the HPA divides cpu use by the pods' cpu requests, so every container needs one$/,
    );
  });

  test('a load on a workload no HPA targets is a scenario finding', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [workload('Deployment', 'web', 'nginx')],
      steps: [load(0, 90)],
    });
    assert.deepEqual(
      result.findings
        .filter((finding) => finding.code === 'scenario-invalid')
        .map((finding) => finding.message),
      ['Scenario step at t=0s: load: no HorizontalPodAutoscaler targets Deployment default/web'],
    );
  });

  test('a scale-up beyond the cluster leaves pods Pending, stops at maxReplicas and the run still settles', () => {
    const result = run({
      cluster: nodes(1, '500m', '4Gi'),
      manifests: [workload('Deployment', 'web', 'nginx', { replicas: 2 }), hpa()],
      steps: [load(15, 500)],
    });
    assert.equal(result.stoppedAtLimit, false);
    assert.deepEqual(
      of(result.events, 'SuccessfulRescale').map((event) => event.details?.rescale?.to),
      [4, 8, 10],
    );
    const pending = [...result.state.pods.values()].filter((pod) => pod.nodeName === null);
    assert.ok(pending.length > 0);
    assert.ok(result.endTime < 2000, `ended at ${result.endTime}`);
  });

  test('an autoscaling/v1 HPA on a StatefulSet scales it through the scale subresource', () => {
    const v1 = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'db', namespace: 'default' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' },
        maxReplicas: 5,
        targetCPUUtilizationPercentage: 50,
      },
    };
    const result = run({
      cluster: nodes(2),
      manifests: [workload('StatefulSet', 'db', 'postgres', { replicas: 2 }), v1],
      steps: [
        {
          at: 30,
          action: {
            type: 'load',
            kind: 'StatefulSet',
            namespace: 'default',
            name: 'db',
            load: { cpuMilli: 300 },
          },
        },
      ],
    });
    // 300m over two pods requesting 100m each: 150% against 50% wants 6; without behavior the legacy limit
    // allows max(2 × 2, 4) = 4 now, then maxReplicas 5 at the next sync.
    assert.deepEqual(
      of(result.events, 'SuccessfulRescale').map((event) => [event.time, event.details?.rescale]),
      [
        [30, { target: 'StatefulSet/db', from: 2, to: 4 }],
        [45, { target: 'StatefulSet/db', from: 4, to: 5 }],
      ],
    );
    assert.deepEqual(
      [...result.state.pods.values()]
        .filter((pod) => pod.isReady)
        .map((pod) => pod.name)
        .sort(),
      ['db-0', 'db-1', 'db-2', 'db-3', 'db-4'],
    );
  });

  test('kubectl scale above maxReplicas: the HPA moves it back at its next sync, without any load', () => {
    const result = run({
      cluster: nodes(3),
      manifests: [workload('Deployment', 'web', 'nginx', { replicas: 3 }), hpa()],
      steps: [
        {
          at: 20,
          action: { type: 'scale', kind: 'Deployment', namespace: 'default', name: 'web', replicas: 14 },
        },
      ],
    });
    assert.deepEqual(
      of(result.events, 'SuccessfulRescale').map((event) => [event.time, event.message]),
      [[30, 'New size: 10; reason: Current number of replicas above Spec.MaxReplicas']],
    );
    assert.equal(result.state.deployments.get('default/web')?.replicas, 10);
  });

  test('the same input gives the same timeline', () => {
    const input = {
      cluster: nodes(3),
      manifests: [workload('Deployment', 'web', 'nginx', { replicas: 3 }), hpa()],
      steps: [load(60, 90), load(400, 10)],
    };
    assert.deepEqual(run(input).events, run(input).events);
  });
});
