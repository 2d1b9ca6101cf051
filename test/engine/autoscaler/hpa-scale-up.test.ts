/**
 * The HPA and the cluster autoscaler on one clock: a load step makes the HPA add replicas that fit no node, and the
 * cluster autoscaler grows the group for them, as the two controllers chain in a real cluster.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TimelineEvent } from '../../../protocol/timeline';
import { hpa, loadStep, nodes, run } from '../../support/timeline-builders';
import { cpuDeployment, nodeGroup } from './autoscaler-builders';

const of = (events: readonly TimelineEvent[], type: string): TimelineEvent[] =>
  events.filter((event) => event.type === type);

describe('HPA and cluster autoscaler together', () => {
  test("a load step's new replicas wait for the node the autoscaler adds, then schedule on it", () => {
    // One 2-cpu node holds two 900m replicas; the HPA doubles them at 100% of a 50% target, and the two new ones
    // fit one new 2-cpu node of the group.
    const result = run({
      cluster: [...nodes(1, '2'), nodeGroup('workers', { maxSize: 2, cpu: '2' })],
      manifests: [cpuDeployment('web', 2, '900m'), hpa({ maxReplicas: 4 })],
      steps: [loadStep(60, 100)],
    });
    assert.deepEqual(
      of(result.events, 'SuccessfulRescale').map((event) => [event.time, event.details?.rescale]),
      [[60, { target: 'Deployment/web', from: 2, to: 4 }]],
    );
    const scaleUps = result.autoscaler?.scaleUps ?? [];
    assert.equal(scaleUps.length, 1);
    const [scaleUp] = scaleUps;
    assert.ok(scaleUp !== undefined && scaleUp.time >= 60, 'the scale-up follows the rescale');
    assert.deepEqual([scaleUp.group, scaleUp.from, scaleUp.to, scaleUp.pods.length], ['workers', 0, 1, 2]);
    const readyAt = scaleUp.nodes.map((node) => node.readyAt);
    const late = of(result.events, 'PodScheduled').filter((event) => event.time > 60);
    assert.deepEqual(
      late.map((event) => event.time),
      [readyAt[0], readyAt[0]].map((time) => time ?? -1),
    );
    assert.equal(
      late.every((event) => event.node?.startsWith('workers-') === true),
      true,
    );
  });
});
