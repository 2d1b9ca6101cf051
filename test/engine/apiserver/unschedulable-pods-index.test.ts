import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClusterState } from '../../../server/src/engine/apiserver/cluster-state';
import type { SimPod } from '../../../server/src/engine/apiserver/sim-pod';
import { newSimPod } from '../../../server/src/engine/apiserver/sim-pod';
import { UnschedulablePods } from '../../../server/src/engine/autoscaler/unschedulable-pods';
import { createPodInfo } from '../../../server/src/engine/model/snapshot/pod-info';
import { DEFAULT_PROFILE } from '../../../server/src/engine/scheduler/profile';
import { Simulation } from '../../../server/src/engine/sim/run-loop';
import { TimelineRecorder } from '../../../server/src/engine/sim/timeline-recorder';

// The cluster autoscaler lists the pods the scheduler marked unschedulable every scan (cluster-autoscaler's
// unschedulable pods lister). ClusterState keeps the marked pods aside, so a scan reads those instead of every
// pod of the cluster; the list a scan gets from them must be the one it gets from all the pods, step after step.

const PROFILES = [DEFAULT_PROFILE];

function pod(state: ClusterState, index: number, priority = 0): SimPod {
  const info = createPodInfo(
    {
      pod: {
        metadata: { name: `pod-${index}`, namespace: 'default' },
        spec: { containers: [{ name: 'app', image: 'app:1' }] },
      },
      source: { file: 'x', documentIndex: index, path: [] },
      owner: null,
      priority,
      podLevelResources: true,
    },
    [],
  );
  const created = newSimPod({
    info,
    workload: null,
    revision: null,
    createdAt: index,
    createdSeq: state.nextSeq(),
  });
  state.createPod(created, `Created pod ${created.name}`);
  return created;
}

type Step = (state: ClusterState, pods: readonly SimPod[]) => void;

const STEPS: readonly { readonly name: string; readonly step: Step }[] = [
  {
    name: 'the scheduler marks three pods unschedulable (one of a higher priority)',
    step: (state, pods) => {
      for (const index of [4, 1, 2]) {
        state.recordUnschedulable(pods[index]!, '0/4 nodes are available: 4 Insufficient cpu.');
      }
    },
  },
  {
    name: 'a marked pod is bound once a node has room',
    step: (state, pods) => state.bindPod(pods[1]!, 'worker-1', 'Bound to worker-1'),
  },
  {
    name: 'a marked pod is deleted',
    step: (state, pods) => state.removePod(pods[2]!, 'Deleted'),
  },
  {
    name: 'a pod is marked again with the message it already had, and another for the first time',
    step: (state, pods) => {
      state.recordUnschedulable(pods[4]!, '0/4 nodes are available: 4 Insufficient cpu.');
      state.recordUnschedulable(pods[0]!, '0/4 nodes are available: 4 Insufficient memory.');
    },
  },
  {
    name: 'a pod marked before it was bound is marked again once unbound (a node it names is missing)',
    step: (state, pods) => {
      pods[1]!.nodeName = null;
      state.recordUnschedulable(pods[1]!, '0/4 nodes are available: 4 Insufficient cpu.');
    },
  },
  {
    name: 'a pod is created under the name of a marked pod still there (the new one was never tried)',
    step: (state) => {
      pod(state, 0);
    },
  },
  {
    name: 'pods start and turn ready elsewhere, which no list reads',
    step: (state, pods) => state.setPhase(pods[3]!, 'Ready', 'Started'),
  },
  {
    name: 'a running pod is marked (its node failed and it is tried again)',
    step: (state, pods) =>
      state.recordUnschedulable(pods[3]!, '0/4 nodes are available: 4 Insufficient cpu.'),
  },
  {
    name: 'the deletion of a marked pod starts',
    step: (state, pods) => state.deletePod(pods[3]!, 'Deleting'),
  },
  {
    name: "a marked pod's containers finish",
    step: (state, pods) => state.finishPod(pods[1]!, 'Failed', 1, 'Failed'),
  },
];

describe('ClusterState.unschedulablePods (what a cluster-autoscaler scan lists)', () => {
  test('after every step, the marked pods give the list every pod of the cluster gives', () => {
    const state = new ClusterState(new Simulation(), new TimelineRecorder());
    const pods = [0, 1, 2, 3, 4].map((index) => pod(state, index, index === 4 ? 100 : 0));
    const lists: string[][] = [];
    // One lister across the steps, as a scan after scan: it skips reading the pods while the generation holds,
    // so a step that changes the list without changing the generation shows here as a stale list.
    const scans = new UnschedulablePods(PROFILES);
    for (const { name, step } of STEPS) {
      step(state, pods);
      const fromMarked = new UnschedulablePods(PROFILES).list(state.unschedulablePods());
      const fromAll = new UnschedulablePods(PROFILES).list(state.pods.values());
      const fromScans = scans.list(state.unschedulablePods(), state.unschedulableGeneration);
      assert.deepEqual(
        fromMarked.map((entry) => entry.name),
        fromAll.map((entry) => entry.name),
        name,
      );
      assert.deepEqual(
        fromScans.map((entry) => entry.name),
        fromAll.map((entry) => entry.name),
        name,
      );
      lists.push(fromAll.map((entry) => entry.name));
    }
    // The steps do change the list (the comparison above is not between two empty lists).
    assert.deepEqual(lists, [
      ['pod-4', 'pod-1', 'pod-2'],
      ['pod-4', 'pod-2'],
      ['pod-4'],
      ['pod-4', 'pod-0'],
      ['pod-4', 'pod-0', 'pod-1'],
      ['pod-4', 'pod-1'],
      ['pod-4', 'pod-1'],
      ['pod-4', 'pod-1', 'pod-3'],
      ['pod-4', 'pod-1'],
      ['pod-4'],
    ]);
  });
});
