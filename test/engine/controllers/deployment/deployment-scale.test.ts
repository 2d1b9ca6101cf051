import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClusterState } from '../../../../server/src/engine/apiserver/cluster-state';
import {
  ReplicaSetScaler,
  findActiveOrLatest,
  scaleDeployment,
  scalingMessage,
} from '../../../../server/src/engine/controllers/deployment/deployment-scale';
import { intValue } from '../../../../server/src/engine/model/int-or-percent';
import type { SimDeployment, SimReplicaSet } from '../../../../server/src/engine/apiserver/workload-objects';
import { Simulation } from '../../../../server/src/engine/sim/run-loop';
import { TimelineRecorder } from '../../../../server/src/engine/sim/timeline-recorder';
import { parseLabelSelector } from '../../../../server/src/engine/workloads/label-selector';

const SOURCE = { file: 'app.yaml', documentIndex: 0, path: [] };

/** A Deployment as sync_test.go's newDeployment builds it: maxSurge 0, maxUnavailable 0 (resolved to 1). */
function deployment(replicas: number): SimDeployment {
  const selector = parseLabelSelector({ matchLabels: { app: 'foo' } });
  assert.ok(selector.ok);
  return {
    key: 'default/foo',
    namespace: 'default',
    name: 'foo',
    uid: 'uid-foo',
    source: SOURCE,
    selector: selector.selector,
    template: {},
    templateHash: 'v-new',
    strategy: { type: 'RollingUpdate', maxSurge: intValue(0), maxUnavailable: intValue(0) },
    minReadySeconds: 0,
    progressDeadlineSeconds: 600,
    paused: false,
    replicas,
    progress: null,
    status: {
      replicas: 0,
      updatedReplicas: 0,
      readyReplicas: 0,
      availableReplicas: 0,
      unavailableReplicas: 0,
    },
    isTracked: false,
  };
}

/** A ReplicaSet stamped by the Deployment's previous size (desired and max replicas annotations). */
function replicaSet(name: string, replicas: number, createdSeq: number, previousSize: number): SimReplicaSet {
  return {
    key: `default/${name}`,
    namespace: 'default',
    name,
    uid: `uid-${name}`,
    deploymentKey: 'default/foo',
    template: {},
    templateHash: name === 'foo-new' ? 'v-new' : name,
    source: SOURCE,
    createdSeq,
    minReadySeconds: 0,
    replicas,
    desiredReplicas: previousSize,
    maxReplicas: previousSize,
    revision: createdSeq,
    status: { replicas, readyReplicas: replicas, availableReplicas: replicas },
    podsCreated: 0,
  };
}

describe('scaleDeployment (sync_test.go TestScale)', () => {
  const cases: {
    name: string;
    from: number;
    to: number;
    newRS: number;
    old: number[];
    expectedNew: number;
    expectedOld: number[];
  }[] = [
    {
      name: 'a single active ReplicaSet takes the new size (10 to 12)',
      from: 10,
      to: 12,
      newRS: 10,
      old: [],
      expectedNew: 12,
      expectedOld: [],
    },
    {
      name: 'proportional scaling 5 to 10 over 2 new and 3 old',
      from: 5,
      to: 10,
      newRS: 2,
      old: [3],
      expectedNew: 4,
      expectedOld: [6],
    },
    {
      name: 'proportional scaling 5 to 3 over 2 new and 3 old',
      from: 5,
      to: 3,
      newRS: 2,
      old: [3],
      expectedNew: 1,
      expectedOld: [2],
    },
    {
      name: 'proportional scaling 9 to 4 over 8 new and 1 old',
      from: 9,
      to: 4,
      newRS: 8,
      old: [1],
      expectedNew: 4,
      expectedOld: [0],
    },
    {
      name: 'proportional scaling 7 to 10 over three ReplicaSets',
      from: 7,
      to: 10,
      newRS: 2,
      old: [2, 3],
      expectedNew: 3,
      expectedOld: [3, 4],
    },
    {
      name: 'proportional scaling 13 to 8 over three ReplicaSets',
      from: 13,
      to: 8,
      newRS: 2,
      old: [3, 8],
      expectedNew: 1,
      expectedOld: [2, 5],
    },
  ];
  for (const { name, from, to, newRS, old, expectedNew, expectedOld } of cases) {
    test(name, () => {
      const state = new ClusterState(new Simulation(), new TimelineRecorder());
      const target = deployment(to);
      const newReplicaSet = replicaSet('foo-new', newRS, 10, from);
      const oldReplicaSets = old.map((size, index) => replicaSet(`foo-old-${index}`, size, index, from));
      scaleDeployment(target, newReplicaSet, oldReplicaSets, new ReplicaSetScaler(state, target));
      assert.deepEqual(
        [newReplicaSet.replicas, ...oldReplicaSets.map((rs) => rs.replicas)],
        [expectedNew, ...expectedOld],
      );
    });
  }

  test('the ScalingReplicaSet message is the controller’s', () => {
    assert.equal(scalingMessage('web-7d4b9c', 3, 1), 'Scaled down replica set web-7d4b9c from 3 to 1');
    assert.equal(scalingMessage('web-7d4b9c', 0, 2), 'Scaled up replica set web-7d4b9c from 0 to 2');
  });
});

describe('findActiveOrLatest (TestFindActiveOrLatest)', () => {
  const cases: { name: string; newRS: number | null; old: number[]; expected: string | null }[] = [
    { name: 'no active replicas returns the new ReplicaSet', newRS: 0, old: [0], expected: 'foo-new' },
    {
      name: 'no active replicas and no new one returns the newest old',
      newRS: null,
      old: [0, 0],
      expected: 'foo-old-1',
    },
    { name: 'the only active old ReplicaSet', newRS: 0, old: [1], expected: 'foo-old-0' },
    { name: 'the only active new ReplicaSet', newRS: 1, old: [0], expected: 'foo-new' },
    { name: 'several active: none', newRS: 1, old: [1], expected: null },
  ];
  for (const { name, newRS, old, expected } of cases) {
    test(name, () => {
      const found = findActiveOrLatest(
        newRS === null ? null : replicaSet('foo-new', newRS, 10, 1),
        old.map((size, index) => replicaSet(`foo-old-${index}`, size, index, 1)),
      );
      assert.equal(found?.name ?? null, expected);
    });
  }
});
