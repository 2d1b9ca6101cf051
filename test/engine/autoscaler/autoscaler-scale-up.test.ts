/**
 * The cluster autoscaler's scale-ups over simulated time: cluster-autoscaler's events, the time the pods wait, the
 * nodes a scale-up adds, and the reasons when no group helps.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NODE_GROUP_LABEL } from '../../../server/src/engine/model/load/node-group-kind';
import { eventsOf, nodes, run, workload } from '../../support/timeline-builders';
import { autoscalerScenario, cpuDeployment, nodeGroup, runAutoscaled } from './autoscaler-builders';

const WORKERS = nodeGroup('workers', {
  minSize: 1,
  maxSize: 5,
  labels: { pool: 'workers' },
  selector: { matchLabels: { pool: 'workers' } },
});

function scheduledAt(result: ReturnType<typeof run>, prefix: string): number[] {
  return eventsOf(result, 'PodScheduled', prefix).map((event) => event.time);
}

describe('scale-up', () => {
  test('a Deployment too big for the nodes schedules after the group grows: events, node label, wait, report', () => {
    const result = runAutoscaled({
      workers: 2,
      cluster: [WORKERS],
      manifests: [cpuDeployment('web', 6, '900m')],
    });
    const triggered = eventsOf(result, 'TriggeredScaleUp', 'web-');
    assert.equal(triggered.length, 2);
    // The loop at 0 s finds the pods all new (allPodsAreNew: under 2 s old) and waits one loop.
    assert.deepEqual(
      triggered.map((event) => [event.time, event.message]),
      [
        [10, 'pod triggered scale-up: [{workers 2->3 (max: 5)}]'],
        [10, 'pod triggered scale-up: [{workers 2->3 (max: 5)}]'],
      ],
    );
    const added = eventsOf(result, 'NodeAdded', 'workers-');
    assert.deepEqual(
      added.map((event) => [event.time, event.object.name]),
      [[100, 'workers-1']],
    );
    assert.equal(result.state.nodes.get('workers-1')?.info.labels[NODE_GROUP_LABEL], 'workers');
    assert.deepEqual(
      scheduledAt(result, 'web-').sort((a, b) => a - b),
      [0, 0, 0, 0, 100, 100],
    );
    assert.deepEqual(
      result.autoscaler?.scaleUps.map((up) => [up.time, up.group, up.from, up.to, up.max, up.pods.length]),
      [[10, 'workers', 2, 3, 5, 2]],
    );
    const waits = result.findings.filter((finding) => finding.code === 'pod-waits-for-scale-up');
    assert.deepEqual(
      waits.map((finding) => finding.message),
      [
        '2 pods of Deployment web: Pending for ~100 s until the cluster autoscaler adds a node to group `workers` (2 → 3 of max 5).',
      ],
    );
  });

  test("a new node runs the cluster's DaemonSets: the estimate packs the pods around their requests", () => {
    const agent = workload(
      'DaemonSet',
      'agent',
      'agent:1',
      {},
      {
        containers: [
          { name: 'agent', image: 'agent:1', resources: { requests: { cpu: '500m', memory: '64Mi' } } },
        ],
      },
    );
    const input = (daemonSets: unknown[]): ReturnType<typeof run> =>
      run({
        cluster: [...nodes(1, '1'), ...daemonSets, nodeGroup('workers', { maxSize: 10, cpu: '2' })],
        manifests: [cpuDeployment('web', 4, '800m')],
      });
    // Two 800m pods per 2-cpu node alone; one beside the agent's 500m.
    assert.deepEqual(
      input([]).autoscaler?.scaleUps.map((up) => [up.from, up.to]),
      [[0, 2]],
    );
    const withAgent = input([agent]);
    assert.deepEqual(
      withAgent.autoscaler?.scaleUps.map((up) => [up.from, up.to]),
      [[0, 4]],
    );
    assert.deepEqual(
      scheduledAt(withAgent, 'web-').sort((a, b) => a - b),
      [100, 100, 100, 100],
    );
  });

  test('pods the scheduler never tried (scheduling gates, an unknown scheduler) trigger nothing', () => {
    // Both would fit a new 4-cpu node and no existing 2-cpu one.
    const large = nodeGroup('large', { maxSize: 3, cpu: '4' });
    const result = runAutoscaled({
      workers: 1,
      cluster: [large],
      manifests: [
        cpuDeployment('gated', 1, '3', { schedulingGates: [{ name: 'example.com/wait' }] }),
        cpuDeployment('custom', 1, '3', { schedulerName: 'my-scheduler' }),
      ],
    });
    assert.deepEqual(result.autoscaler?.scaleUps, []);
    assert.deepEqual(eventsOf(result, 'NotTriggerScaleUp'), []);
  });

  test('the same input gives the same timeline', () => {
    const input = { workers: 1, cluster: [WORKERS], manifests: [cpuDeployment('web', 5, '900m')] };
    assert.deepEqual(runAutoscaled(input).events, runAutoscaled(input).events);
  });

  test('pods created while nodes are coming that fit them trigger no second scale-up', () => {
    const result = run({
      cluster: [...nodes(1, '2'), nodeGroup('workers', { maxSize: 5 })],
      manifests: [cpuDeployment('web', 3, '900m')],
      steps: [
        {
          at: 30,
          action: { type: 'scale', kind: 'Deployment', namespace: 'default', name: 'web', replicas: 4 },
        },
      ],
    });
    assert.deepEqual(
      result.autoscaler?.scaleUps.map((up) => [up.time, up.from, up.to]),
      [[10, 0, 1]],
    );
    assert.deepEqual(
      scheduledAt(result, 'web-').sort((a, b) => a - b),
      [0, 0, 100, 100],
    );
  });

  test('a group at its maximum: "pod didn\'t trigger scale-up: 1 max node group size reached"', () => {
    const full = nodeGroup('workers', {
      minSize: 1,
      maxSize: 2,
      selector: { matchLabels: { pool: 'workers' } },
    });
    const result = runAutoscaled({
      workers: 2,
      cluster: [full],
      manifests: [cpuDeployment('web', 5, '900m')],
    });
    const refused = eventsOf(result, 'NotTriggerScaleUp', 'web-');
    assert.equal(refused.length, 1);
    assert.equal(refused[0]?.message, "pod didn't trigger scale-up: 1 max node group size reached");
    assert.equal(result.autoscaler?.scaleUps.length, 0);
    const finding = result.findings.find((entry) => entry.code === 'pod-no-scale-up');
    assert.match(
      finding?.message ?? '',
      /^Pod web-\S+ stays Pending, and the cluster autoscaler cannot help: pod didn't trigger scale-up: 1 max node group size reached$/,
    );
  });

  test('reasons are counted over the groups: one at max, two whose template the pod does not select', () => {
    const result = runAutoscaled({
      workers: 2,
      cluster: [
        nodeGroup('workers', { minSize: 2, maxSize: 2, selector: { matchLabels: { pool: 'workers' } } }),
        nodeGroup('batch', { maxSize: 5, labels: { pool: 'batch' } }),
        nodeGroup('spot', { maxSize: 5, labels: { pool: 'spot' } }),
      ],
      manifests: [cpuDeployment('gpu', 1, '100m', { nodeSelector: { accelerator: 'gpu' } })],
    });
    assert.deepEqual(
      eventsOf(result, 'NotTriggerScaleUp', 'gpu-').map((event) => event.message),
      [
        "pod didn't trigger scale-up: 1 max node group size reached, 2 node(s) didn't match Pod's node affinity/selector",
      ],
    );
  });

  test('--max-nodes-total reached: "max total nodes in cluster reached"', () => {
    const result = runAutoscaled({
      workers: 2,
      cluster: [WORKERS, autoscalerScenario({ maxNodesTotal: 2 })],
      manifests: [cpuDeployment('web', 5, '900m')],
    });
    assert.deepEqual(
      [...new Set(eventsOf(result, 'NotTriggerScaleUp', 'web-').map((event) => event.message))],
      ["pod didn't trigger scale-up: max total nodes in cluster reached"],
    );
  });

  test('--max-nodes-total caps the scale-up: 1 of the 2 nodes needed', () => {
    const result = runAutoscaled({
      workers: 1,
      cluster: [WORKERS, autoscalerScenario({ maxNodesTotal: 2 })],
      manifests: [cpuDeployment('web', 6, '900m')],
    });
    assert.deepEqual(
      result.autoscaler?.scaleUps.map((up) => [up.from, up.to]),
      [[1, 2]],
    );
  });

  test('least-waste picks the group whose node the pods fill best', () => {
    const result = run({
      cluster: [
        ...nodes(1, '1'),
        nodeGroup('large', { maxSize: 5, cpu: '16' }),
        nodeGroup('small', { maxSize: 5, cpu: '2' }),
        autoscalerScenario({ expander: 'least-waste' }),
      ],
      manifests: [cpuDeployment('web', 2, '900m')],
    });
    assert.deepEqual(
      result.autoscaler?.scaleUps.map((up) => [up.group, up.to]),
      [['small', 1]],
    );
  });

  test('allPodsAreNew: pods wait one loop (2 s), a pod asking for a GPU 30 s (unschedulablePodWithGpuTimeBuffer)', () => {
    const gpuGroup = nodeGroup('gpu', { maxSize: 2, cpu: '8' });
    const template = (gpuGroup['spec'] as { template: { status: { allocatable: Record<string, string> } } })
      .template;
    template.status.allocatable['nvidia.com/gpu'] = '1';
    const trainer = cpuDeployment('trainer', 1, '1', {
      containers: [
        {
          name: 'app',
          image: 'trainer:1',
          resources: { requests: { cpu: '1', 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } },
        },
      ],
    });
    const gpu = run({ cluster: [...nodes(1, '2'), gpuGroup], manifests: [trainer] });
    assert.deepEqual(
      gpu.autoscaler?.scaleUps.map((up) => [up.time, up.group]),
      [[30, 'gpu']],
    );
    const plain = run({ cluster: [...nodes(1, '2'), gpuGroup], manifests: [cpuDeployment('web', 1, '4')] });
    assert.deepEqual(
      plain.autoscaler?.scaleUps.map((up) => [up.time, up.group]),
      [[10, 'gpu']],
    );
  });

  test("the group's provisioningSeconds and the scan interval set when the pods schedule (the loop at 0 s waits for more pods)", () => {
    const result = run({
      cluster: [
        ...nodes(1, '1'),
        nodeGroup('workers', { maxSize: 3, provisioningSeconds: 45 }),
        autoscalerScenario({ scanInterval: '30s' }),
      ],
      manifests: [cpuDeployment('web', 1, '1500m')],
    });
    assert.deepEqual(scheduledAt(result, 'web-'), [75]);
  });
});
