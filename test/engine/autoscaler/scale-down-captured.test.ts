/**
 * Scale-down of the cluster file's own nodes over simulated time: every scan looks at every node of every group
 * (StaticAutoscaler.RunOnce: UpdateClusterState whether pods are Pending or not), candidates are the nodes of groups
 * above their minSize (PreFilteringScaleDownNodeProcessor.GetScaleDownCandidates), measured with DaemonSet and
 * mirror pods (utilization.Calculate), simulated with their pods' spec.nodeName cleared (findPlaceFor), and removed
 * once unneeded for longer than 10 minutes (unneeded.Nodes.RemovableAt: `since + unneededTime` before the scan);
 * the autoscaler starts out of cool-down (NewStaticAutoscaler). Each row names the upstream function it follows.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventsOf, run } from '../../support/timeline-builders';
import { nodeGroup } from './autoscaler-builders';

function worker(name: string, cpu = '4'): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, pool: 'workers' } },
    status: { allocatable: { cpu, memory: '8Gi', pods: '110' } },
  };
}

function captured(
  name: string,
  nodeName: string,
  cpu: string,
  owner: { kind: string; name: string } | null,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      labels: { app: name },
      ...(owner === null
        ? {}
        : { ownerReferences: [{ apiVersion: 'apps/v1', ...owner, uid: owner.name, controller: true }] }),
      ...extra,
    },
    spec: {
      nodeName,
      containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu, memory: '64Mi' } } }],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

const group = (minSize: number): Record<string, unknown> =>
  nodeGroup('workers', {
    minSize,
    maxSize: 5,
    cpu: '4',
    labels: { pool: 'workers' },
    selector: { matchLabels: { pool: 'workers' } },
  });

const RS = { kind: 'ReplicaSet', name: 'api-7d9f' };
const DS = { kind: 'DaemonSet', name: 'agent' };

const rows: {
  name: string;
  cluster: Record<string, unknown>[];
  manifests?: Record<string, unknown>[];
  removed: [number, string, string][];
}[] = [
  {
    name: 'NewStaticAutoscaler starts out of cool-down: idle captured nodes go at the first scan after 10 minutes, down to minSize',
    cluster: [worker('worker-1'), worker('worker-2'), worker('worker-3'), group(1)],
    removed: [
      [610, 'worker-1', 'Scale-down: empty node worker-1 removed'],
      [610, 'worker-2', 'Scale-down: empty node worker-2 removed'],
    ],
  },
  {
    name: 'findPlaceFor clears spec.nodeName: a captured ReplicaSet pod moves, and its node is drained and removed',
    cluster: [
      worker('worker-1'),
      worker('worker-2'),
      captured('api-7d9f-a', 'worker-1', '200m', RS),
      captured('api-7d9f-b', 'worker-2', '200m', RS),
      group(1),
    ],
    removed: [[611, 'worker-1', 'Scale-down: node worker-1 removed with drain']],
  },
  {
    name: 'GetScaleDownCandidates: a group at its minSize offers no candidate',
    cluster: [worker('worker-1'), worker('worker-2'), group(2)],
    removed: [],
  },
  {
    name: 'utilization.Calculate counts DaemonSet pods (--ignore-daemonsets-utilization=false): 2.4 of 4 cpu keeps the node',
    cluster: [
      worker('worker-1'),
      worker('worker-2'),
      captured('agent-x1', 'worker-1', '2400m', DS),
      captured('agent-x2', 'worker-2', '200m', DS),
      group(0),
    ],
    removed: [[610, 'worker-2', 'Scale-down: empty node worker-2 removed']],
  },
  {
    name: 'utilization.Calculate counts mirror pods (--ignore-mirror-pods-utilization=false): 2.4 of 4 cpu keeps the node',
    cluster: [
      worker('worker-1'),
      worker('worker-2'),
      captured(
        'etcd-worker-1',
        'worker-1',
        '2400m',
        { kind: 'Node', name: 'worker-1' },
        {
          annotations: { 'kubernetes.io/config.mirror': 'abc' },
        },
      ),
      group(0),
    ],
    removed: [[610, 'worker-2', 'Scale-down: empty node worker-2 removed']],
  },
  {
    name: 'RunOnce scales down whether pods are Pending or not: a pod no group can help leaves the idle node to go',
    cluster: [worker('worker-1'), worker('worker-2'), group(1)],
    manifests: [
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'huge', namespace: 'default' },
        spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '64' } } }] },
      },
    ],
    removed: [[610, 'worker-1', 'Scale-down: empty node worker-1 removed']],
  },
  {
    name: 'drainability: a captured pod without a controller keeps its node (NotReplicated)',
    cluster: [worker('worker-1'), worker('worker-2'), captured('bare', 'worker-1', '100m', null), group(0)],
    removed: [[610, 'worker-2', 'Scale-down: empty node worker-2 removed']],
  },
];

describe('scale-down of the cluster file’s nodes', () => {
  for (const row of rows) {
    test(row.name, () => {
      const result = run({ cluster: row.cluster, manifests: row.manifests ?? [], until: 3600 });
      assert.deepEqual(
        eventsOf(result, 'NodeRemoved').map((event) => [event.time, event.object.name, event.message]),
        row.removed,
      );
    });
  }
});
