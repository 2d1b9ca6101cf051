/**
 * The panel's replay of a run with the cluster autoscaler: a node a scale-up adds is absent until it joins, holds
 * its pods while it runs, is marked tainted when the scale-down picks it, and is gone after NodeRemoved.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyNextEvent, initialState, NODE_FLAGS } from '../../../media/model/cluster-state';
import type { ClusterState } from '../../../media/model/cluster-state';
import { Timeline } from '../../../media/model/timeline';
import type { PanelReport } from '../../../protocol/webview-messages';
import { cpuDeployment, nodeGroup } from '../../engine/autoscaler/autoscaler-builders';
import { nodes, run } from '../../support/timeline-builders';

const result = run({
  cluster: [...nodes(1, '2'), nodeGroup('workers', { maxSize: 3 })],
  manifests: [cpuDeployment('web', 3, '900m')],
  steps: [
    {
      at: 300,
      action: { type: 'scale', kind: 'Deployment', namespace: 'default', name: 'web', replicas: 1 },
    },
  ],
});
const REPORT: PanelReport = {
  apiVersion: 'foresight/v1',
  kubernetesVersion: '1.35',
  cluster: { source: 'test', nodes: [] },
  pods: [],
  findings: [],
  events: result.events,
};

/** The state after every event up to and including `time`. */
function at(timeline: Timeline, time: number): ClusterState {
  const state = initialState(timeline);
  while (state.cursor < timeline.events.length && (timeline.times[state.cursor] ?? Infinity) <= time) {
    applyNextEvent(timeline, state);
  }
  return state;
}

describe('replaying the cluster autoscaler', () => {
  const timeline = new Timeline(REPORT);
  const node = timeline.nodeIndexOf('workers-1');
  const flags = (time: number): number => at(timeline, time).nodeFlags[node] ?? 0;

  test('the node the scale-up adds (at 10 s: the loop at 0 s waits for more pods) is absent until it joins at 100 s, then holds a pod', () => {
    assert.ok(node >= 0);
    assert.equal(flags(99) & NODE_FLAGS.present, 0);
    assert.equal(flags(100) & NODE_FLAGS.present, NODE_FLAGS.present);
    assert.equal(at(timeline, 120).nodePods[node], 1);
  });

  test('the scale-down marks it tainted, then NodeRemoved takes it away', () => {
    const marked = result.events.find((event) => event.type === 'ScaleDown' && event.object.kind === 'Node');
    const removed = result.events.find((event) => event.type === 'NodeRemoved');
    assert.ok(marked !== undefined && removed !== undefined);
    assert.equal(flags(marked.time) & NODE_FLAGS.tainted, NODE_FLAGS.tainted);
    assert.equal(flags(removed.time), 0);
    assert.equal(at(timeline, removed.time).nodePods[node], 0);
  });
});
