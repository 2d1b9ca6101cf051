import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SimPod } from '../../../server/src/engine/apiserver/sim-pod';
import { newSimPod } from '../../../server/src/engine/apiserver/sim-pod';
import { UnschedulablePods, isUnschedulable } from '../../../server/src/engine/autoscaler/unschedulable-pods';
import { createPodInfo } from '../../../server/src/engine/model/snapshot/pod-info';
import { DEFAULT_PROFILE } from '../../../server/src/engine/scheduler/profile';
import { SeededRandom } from '../../../server/src/engine/sim/seeded-random';

// UnschedulablePods hands a scan the last list itself while the unschedulable pods are the same, so that a still
// cluster's scans skip the sort and the naming of the list (server/src/engine/autoscaler/scan-inputs.ts). The
// list it gives must always be the one a plain filter and sort gives: cluster-autoscaler's unschedulable pods
// lister, ordered as static_autoscaler.go's RunOnce hands them to FilterOutSchedulable.

const PROFILES = [DEFAULT_PROFILE];

function pod(index: number, priority: number, spec: Record<string, unknown> = {}): SimPod {
  const info = createPodInfo(
    {
      pod: {
        metadata: { name: `pod-${index}`, namespace: 'default' },
        spec: { containers: [{ name: 'app', image: 'app:1' }], ...spec },
      },
      source: { file: 'x', documentIndex: index, path: [] },
      owner: null,
      priority,
      podLevelResources: true,
    },
    [],
  );
  return newSimPod({ info, workload: null, revision: null, createdAt: index, createdSeq: index });
}

/** What the list must be: the unschedulable pods, highest priority first, then in creation order. */
function plainList(pods: readonly SimPod[]): SimPod[] {
  return pods
    .filter((candidate) => isUnschedulable(candidate, PROFILES))
    .sort((a, b) => b.info.priority - a.info.priority || a.createdSeq - b.createdSeq);
}

function names(pods: readonly SimPod[]): string[] {
  return pods.map((entry) => entry.name);
}

describe('UnschedulablePods (the pods a cluster-autoscaler scan considers)', () => {
  test('pods the scheduler never tried, gated pods and pods naming a node are left out; the rest go by priority, then age', () => {
    const tried = (entry: SimPod): SimPod => {
      entry.lastUnschedulableMessage = '0/4 nodes are available: 4 Insufficient cpu.';
      return entry;
    };
    const pods = [
      tried(pod(0, 0)),
      pod(1, 0),
      tried(pod(2, 100)),
      tried(pod(3, 0, { schedulingGates: [{ name: 'example.com/wait' }] })),
      tried(pod(4, 0, { nodeName: 'worker-1' })),
      tried(pod(5, 0, { schedulerName: 'no-such-scheduler' })),
      tried(pod(6, 100)),
      tried(pod(7, 0)),
    ];
    assert.deepEqual(names(new UnschedulablePods(PROFILES).list(pods)), ['pod-2', 'pod-6', 'pod-0', 'pod-7']);
  });

  test('the same unschedulable pods give the very same list; a pod scheduled, tried or gone gives a new one', () => {
    const pods = [pod(0, 0), pod(1, 0), pod(2, 0)];
    for (const entry of pods) {
      entry.lastUnschedulableMessage = 'no fit';
    }
    const lists = new UnschedulablePods(PROFILES);
    const first = lists.list(pods);
    pods[0]!.isRunning = true; // not read by the lister: a pod starting elsewhere changes nothing
    assert.equal(lists.list(pods), first);
    pods[1]!.nodeName = 'worker-1';
    const second = lists.list(pods);
    assert.notEqual(second, first);
    assert.deepEqual(names(second), ['pod-0', 'pod-2']);
    pods[1]!.nodeName = null;
    assert.deepEqual(names(lists.list(pods)), ['pod-0', 'pod-1', 'pod-2']);
  });

  test('over a seeded sweep of changes between scans, every list equals a plain filter and sort', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const random = new SeededRandom(seed);
      const pods = Array.from({ length: 30 }, (_, index) => pod(index, random.nextInt(3) * 10));
      const lists = new UnschedulablePods(PROFILES);
      let reused = 0;
      let previous: readonly SimPod[] | null = null;
      for (let scan = 0; scan < 40; scan++) {
        // Most scans see nothing change, as while pods start on other nodes; some see a pod tried, placed or gone.
        if (random.next() < 0.4) {
          const target = pods[random.nextInt(pods.length)]!;
          const change = random.nextInt(4);
          if (change === 0) {
            target.lastUnschedulableMessage = `no fit ${scan}`;
          } else if (change === 1) {
            target.nodeName = target.nodeName === null ? 'worker-1' : null;
          } else if (change === 2) {
            target.deletionTime = target.deletionTime === null ? scan : null;
          } else {
            target.terminal = target.terminal === null ? 'Succeeded' : null;
          }
        }
        const list = lists.list(pods);
        assert.deepEqual(names(list), names(plainList(pods)), `seed ${seed}, scan ${scan}`);
        if (list === previous) {
          reused++;
        }
        previous = list;
      }
      assert.ok(reused > 0, `seed ${seed}: no scan reused the last list`);
    }
  });
});
