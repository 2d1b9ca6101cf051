/**
 * The cluster autoscaler's scale-downs over simulated time (after the unneeded time, what keeps a node), and what
 * it does with bad input.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventsOf, nodes, run } from '../../support/timeline-builders';
import { autoscalerScenario, cpuDeployment, nodeGroup } from './autoscaler-builders';

const WORKERS = nodeGroup('workers', {
  minSize: 1,
  maxSize: 5,
  labels: { pool: 'workers' },
  selector: { matchLabels: { pool: 'workers' } },
});

describe('scale-down', () => {
  const scaleTo = (replicas: number, at: number): { at: number; action: never } => ({
    at,
    action: { type: 'scale', kind: 'Deployment', namespace: 'default', name: 'web', replicas } as never,
  });

  // workers-1 and workers-2 join at 100 s. workers-2's pod fits no other node then (NoPlaceToMovePods), so it is
  // not checked again for --unremovable-node-recheck-timeout: from 400 s. workers-1 counts its terminating pods at
  // the scan of the scale to 2 (300 s), and is empty at 310 s; each is removed at the first scan after its 10
  // minutes of being unneeded.
  test('nodes left unneeded for scale-down-unneeded-time are drained and removed, one at a time', () => {
    const result = run({
      cluster: [...nodes(1, '2'), nodeGroup('workers', { maxSize: 5 })],
      manifests: [cpuDeployment('web', 5, '900m')],
      steps: [scaleTo(2, 300)],
    });
    assert.deepEqual(
      eventsOf(result, 'NodeRemoved').map((event) => [event.time, event.object.name, event.message]),
      [
        [920, 'workers-1', 'Scale-down: empty node workers-1 removed'],
        [1011, 'workers-2', 'Scale-down: node workers-2 removed with drain'],
      ],
    );
    const marked = eventsOf(result, 'ScaleDown').filter((event) => event.object.kind === 'Node');
    assert.deepEqual(
      marked.map((event) => [event.time, event.message]),
      [
        [920, 'marked the node as toBeDeleted/unschedulable'],
        [1010, 'marked the node as toBeDeleted/unschedulable'],
      ],
    );
    const evicted = eventsOf(result, 'ScaleDown').filter((event) => event.object.kind === 'Pod');
    assert.deepEqual(
      evicted.map((event) => event.message),
      ['deleting pod for node scale down'],
    );
    assert.equal(result.state.nodes.has('workers-2'), false);
    // The evicted replica runs again on the node that stays.
    assert.equal(
      result.state
        .podsOf('ReplicaSet', 'default', [...result.state.replicaSets.values()][0]?.name ?? '')
        .filter((pod) => pod.nodeName === 'worker-1').length,
      2,
    );
    assert.deepEqual(
      result.autoscaler?.scaleDowns.map((down) => [
        down.node,
        down.unneededSince,
        down.outcome,
        down.removedAt,
      ]),
      [
        ['workers-1', 310, 'Removed', 920],
        ['workers-2', 400, 'Removed', 1011],
      ],
    );
  });

  test('not below minSize', () => {
    const result = run({
      cluster: [...nodes(1, '2'), nodeGroup('workers', { minSize: 2, maxSize: 5 })],
      manifests: [cpuDeployment('web', 5, '900m')],
      steps: [scaleTo(2, 300)],
    });
    assert.deepEqual(eventsOf(result, 'NodeRemoved'), []);
  });

  test('a pod annotated safe-to-evict "false" keeps its node', () => {
    const pinned = cpuDeployment('web', 5, '900m');
    const template = (pinned['spec'] as { template: { metadata: Record<string, unknown> } }).template;
    template.metadata = {
      ...template.metadata,
      annotations: { 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'false' },
    };
    const result = run({
      cluster: [...nodes(1, '2'), nodeGroup('workers', { maxSize: 5 })],
      manifests: [pinned],
      steps: [scaleTo(2, 300)],
    });
    // workers-1 is left empty and goes; workers-2 keeps its pinned replica.
    assert.deepEqual(
      eventsOf(result, 'NodeRemoved').map((event) => event.object.name),
      ['workers-1'],
    );
  });

  test('scale-down-delay-after-add holds removals after a scale-up', () => {
    const result = run({
      cluster: [
        ...nodes(1, '2'),
        nodeGroup('workers', { maxSize: 5 }),
        autoscalerScenario({ scaleDownUnneededTime: '1m', scaleDownDelayAfterAdd: '20m' }),
      ],
      manifests: [cpuDeployment('web', 3, '900m')],
      steps: [scaleTo(1, 120)],
    });
    // Unneeded from 400 s (when it joined at 100 s its pod fitted no other node: not rechecked for 5 minutes), but
    // no removal before 20 minutes after the scale-up at 10 s; its one pod is evicted first.
    assert.deepEqual(
      eventsOf(result, 'ScaleDown')
        .filter((event) => event.object.kind === 'Node')
        .map((event) => [event.time, event.object.name]),
      [[1210, 'workers-1']],
    );
    assert.deepEqual(
      eventsOf(result, 'NodeRemoved').map((event) => [event.time, event.object.name]),
      [[1211, 'workers-1']],
    );
    assert.deepEqual(
      result.autoscaler?.scaleDowns.map((down) => down.unneededSince),
      [400],
    );
  });
});

describe('bad input', () => {
  test('an invalid NodeGroup is a finding and is left out; the rest runs', () => {
    const result = run({
      cluster: [
        ...nodes(1, '2'),
        nodeGroup('broken', { minSize: 3, maxSize: 1 }),
        {
          apiVersion: 'foresight/v1',
          kind: 'NodeGroup',
          metadata: { name: 'no-template' },
          spec: { maxSize: 2 },
        },
        { ...nodeGroup('workers', { maxSize: 2 }) },
        { ...nodeGroup('workers', { maxSize: 4 }) },
      ],
      manifests: [cpuDeployment('web', 3, '900m')],
    });
    assert.deepEqual(
      result.findings
        .filter((finding) => finding.code === 'node-group-invalid')
        .map((finding) => [(finding.path ?? []).join('.'), finding.message]),
      [
        ['spec.maxSize', 'NodeGroup "broken": spec.maxSize must be an integer at least spec.minSize (3)'],
        [
          'spec.template',
          'NodeGroup "no-template": spec.template (a Node: labels, taints, status.allocatable) is required',
        ],
        ['metadata.name', 'NodeGroup "workers" is defined twice: the second is left out'],
      ],
    );
    assert.deepEqual(
      result.autoscaler?.scaleUps.map((up) => [up.group, up.max]),
      [['workers', 2]],
    );
  });

  test('template labels that are not strings are a finding on them', () => {
    const group = nodeGroup('workers', { maxSize: 2 });
    (group['spec'] as { template: { metadata: Record<string, unknown> } }).template.metadata = {
      labels: [1],
    };
    const result = run({ cluster: [...nodes(1), group], manifests: [] });
    assert.deepEqual(
      result.findings
        .filter((finding) => finding.code === 'node-group-invalid')
        .map((finding) => [(finding.path ?? []).join('.'), finding.message]),
      [
        [
          'spec.template.metadata.labels',
          'NodeGroup "workers": spec.template.metadata.labels must map strings to strings',
        ],
      ],
    );
    assert.equal(result.autoscaler, null);
  });

  test('a template without allocatable is reported under spec.template', () => {
    const group = nodeGroup('workers', { maxSize: 2 });
    (group['spec'] as { template: Record<string, unknown> }).template['status'] = {};
    const result = run({ cluster: [...nodes(1), group], manifests: [] });
    assert.deepEqual(
      result.findings
        .filter((finding) => finding.code === 'node-missing-allocatable')
        .map((finding) => (finding.path ?? []).join('.')),
      ['spec.template.status.allocatable'],
    );
    assert.equal(result.autoscaler, null);
  });

  test('bad autoscaler settings are scenario findings and keep their defaults', () => {
    const result = run({
      cluster: [
        ...nodes(1, '2'),
        WORKERS,
        autoscalerScenario({
          scanInterval: 'soon',
          expander: 'cheapest',
          scaleDownUtilizationThreshold: 2,
          wobble: 1,
        }),
      ],
      manifests: [cpuDeployment('web', 3, '900m')],
    });
    assert.deepEqual(
      result.findings
        .filter((finding) => finding.code === 'scenario-invalid')
        .map((finding) => finding.message),
      [
        'Scenario: autoscaler.scanInterval must be seconds or a duration such as "10m"',
        'Scenario: autoscaler.expander must be one of random, most-pods, least-waste, priority',
        'Scenario: autoscaler.scaleDownUtilizationThreshold must be a number from 0 to 1',
        'Scenario: autoscaler.wobble is not a known setting',
      ],
    );
    assert.equal(result.autoscaler?.scaleUps.length, 1);
  });
});
