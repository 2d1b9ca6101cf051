import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../../server/src/engine/model/snapshot/cluster';
import { ClusterObjects } from '../../../../server/src/engine/model/snapshot/cluster-objects';
import type { NodeInfo } from '../../../../server/src/engine/model/snapshot/node-info';
import type { PodInfo } from '../../../../server/src/engine/model/snapshot/pod-info';
import { systemPriorityClasses } from '../../../../server/src/engine/model/load/priority';
import { buildFramework } from '../../../../server/src/engine/scheduler/framework/build-framework';
import { CycleState } from '../../../../server/src/engine/scheduler/framework/cycle-state';
import { formatFitError } from '../../../../server/src/engine/scheduler/framework/fit-error';
import type {
  PluginFactory,
  SchedulerPlugin,
} from '../../../../server/src/engine/scheduler/framework/plugin';
import { SUCCESS } from '../../../../server/src/engine/scheduler/framework/status';
import type { Status } from '../../../../server/src/engine/scheduler/framework/status';
import type { SchedulerProfile } from '../../../../server/src/engine/scheduler/profile';
import { IN_TREE_REGISTRY } from '../../../../server/src/engine/scheduler/registry';
import { Scheduler } from '../../../../server/src/engine/scheduler/scheduler';
import {
  REASON_DISK_CONFLICT,
  REASON_READ_WRITE_ONCE_POD_CONFLICT,
  restrictionsClaimNotFound,
  createVolumeRestrictions,
} from '../../../../server/src/engine/scheduler/plugins/volume-restrictions';
import {
  isVolumeConflict,
  readPodVolumes,
} from '../../../../server/src/engine/scheduler/plugins/volume-restrictions/disks';
import { makeNode, makePod, messages, withPods } from '../builders';

// Cases of upstream volume_restrictions_test.go (pkg/scheduler/framework/plugins/volumerestrictions): TestGCEDiskConflicts,
// TestAWSDiskConflicts, TestRBDDiskConflicts, TestISCSIDiskConflicts and TestAccessModeConflicts, each row naming
// the upstream case it follows; read-only rows follow isVolumeConflict's rules, which upstream's tables do not vary.

const SOURCE = { file: 'test', documentIndex: 0, path: [] };
const DISK = 'node(s) had no available disk';
const RWOP =
  'node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod';

type Volume = Record<string, unknown>;

/** A cluster of these nodes with these claims (listed from the cluster file, so a missing claim is missing). */
function clusterWith(nodes: readonly NodeInfo[], claims: readonly Record<string, unknown>[] = []): Cluster {
  const objects = new ClusterObjects();
  for (const claim of claims) {
    objects.add('PersistentVolumeClaim', claim, SOURCE, true);
  }
  return new Cluster(nodes, systemPriorityClasses(), new Map(), 'test cluster', objects);
}

function plugin(factory: PluginFactory, cluster: Cluster): SchedulerPlugin {
  return factory({
    args: undefined,
    version: '1.35',
    handle: {
      cluster,
      runFilterPlugins: () => SUCCESS,
      runPreFilterExtensionAddPod: () => SUCCESS,
      runPreFilterExtensionRemovePod: () => SUCCESS,
    },
    reportArgsProblem: () => undefined,
  });
}

/** PreFilter, then (unless it skipped or rejected) Filter on the node: the first non-Success outcome. */
function run(cluster: Cluster, pod: PodInfo, node: NodeInfo): Status {
  const restrictions = plugin(createVolumeRestrictions, cluster);
  const state = new CycleState();
  const preFilter = restrictions.preFilter?.(state, pod, cluster.nodes);
  if (preFilter !== undefined && preFilter.status.code !== 'Success') {
    return preFilter.status;
  }
  return restrictions.filter?.(state, pod, node) ?? SUCCESS;
}

function claim(name: string, accessModes: readonly string[]): Record<string, unknown> {
  return { kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default' }, spec: { accessModes } };
}

function podWith(name: string, volumes: readonly Volume[]): PodInfo {
  return makePod(name, { volumes: volumes.map((volume, index) => ({ name: `v${index}`, ...volume })) });
}

function pvc(claimName: string): Volume {
  return { persistentVolumeClaim: { claimName } };
}

const gce = (pdName: string, readOnly = false): Volume => ({ gcePersistentDisk: { pdName, readOnly } });
const aws = (volumeID: string): Volume => ({ awsElasticBlockStore: { volumeID } });
const rbd = (monitors: string[], readOnly = false): Volume => ({
  rbd: { monitors, pool: 'foo', image: 'bar', fsType: 'ext4', readOnly },
});
const iscsi = (iqn: string, readOnly = false): Volume => ({
  iscsi: { targetPortal: '127.0.0.1:3260', iqn, fsType: 'ext4', lun: 0, readOnly },
});

const IQN1 = 'iqn.2016-12.server:storage.target01';
const IQN2 = 'iqn.2017-12.server:storage.target01';

describe('VolumeRestrictions messages', () => {
  test('the reasons carry kube-scheduler exact wording and stable codes', () => {
    assert.equal(REASON_DISK_CONFLICT.message, DISK);
    assert.equal(REASON_DISK_CONFLICT.code, 'VolumeRestrictions/DiskConflict');
    assert.equal(REASON_READ_WRITE_ONCE_POD_CONFLICT.message, RWOP);
    assert.equal(REASON_READ_WRITE_ONCE_POD_CONFLICT.code, 'VolumeRestrictions/ReadWriteOncePodConflict');
    assert.equal(restrictionsClaimNotFound('c').message, 'persistentvolumeclaim "c" not found');
  });
});

describe('VolumeRestrictions disk conflicts', () => {
  const CASES: readonly {
    name: string;
    pod: readonly Volume[];
    existing: readonly Volume[] | null;
    code: Status['code'];
    reasons: readonly string[];
  }[] = [
    {
      name: 'TestGCEDiskConflicts "nothing": a pod without volumes is skipped',
      pod: [],
      existing: null,
      code: 'Skip',
      reasons: [],
    },
    {
      name: 'TestGCEDiskConflicts "one state": a pod without volumes is skipped beside a disk user',
      pod: [],
      existing: [gce('foo')],
      code: 'Skip',
      reasons: [],
    },
    {
      name: 'TestGCEDiskConflicts "same state": the same GCE disk read-write conflicts',
      pod: [gce('foo')],
      existing: [gce('foo')],
      code: 'Unschedulable',
      reasons: [DISK],
    },
    {
      name: 'TestGCEDiskConflicts "different state": another GCE disk fits',
      pod: [gce('bar')],
      existing: [gce('foo')],
      code: 'Success',
      reasons: [],
    },
    {
      name: 'TestGCEDiskConflicts "pod with a volume that doesn\'t have restrictions": an emptyDir is skipped',
      pod: [{ emptyDir: {} }],
      existing: null,
      code: 'Skip',
      reasons: [],
    },
    {
      name: 'isVolumeConflict: the same GCE disk read-only on both sides is shared',
      pod: [gce('foo', true)],
      existing: [gce('foo', true)],
      code: 'Success',
      reasons: [],
    },
    {
      name: 'isVolumeConflict: the same GCE disk read-only on one side only conflicts',
      pod: [gce('foo', true)],
      existing: [gce('foo')],
      code: 'Unschedulable',
      reasons: [DISK],
    },
    {
      name: 'TestAWSDiskConflicts "nothing": a pod without volumes is skipped',
      pod: [],
      existing: null,
      code: 'Skip',
      reasons: [],
    },
    {
      name: 'TestAWSDiskConflicts "one state": a pod without volumes is skipped beside an EBS user',
      pod: [],
      existing: [aws('foo')],
      code: 'Skip',
      reasons: [],
    },
    {
      name: 'TestAWSDiskConflicts "same state": the same EBS volume conflicts',
      pod: [aws('foo')],
      existing: [aws('foo')],
      code: 'Unschedulable',
      reasons: [DISK],
    },
    {
      name: 'TestAWSDiskConflicts "different state": another EBS volume fits',
      pod: [aws('bar')],
      existing: [aws('foo')],
      code: 'Success',
      reasons: [],
    },
    {
      name: 'TestRBDDiskConflicts "nothing": a pod without volumes is skipped',
      pod: [],
      existing: null,
      code: 'Skip',
      reasons: [],
    },
    {
      name: 'TestRBDDiskConflicts "one state": a pod without volumes is skipped beside an RBD user',
      pod: [],
      existing: [rbd(['a', 'b'])],
      code: 'Skip',
      reasons: [],
    },
    {
      name: 'TestRBDDiskConflicts "same state": the same image through shared monitors conflicts',
      pod: [rbd(['a', 'b'])],
      existing: [rbd(['a', 'b'])],
      code: 'Unschedulable',
      reasons: [DISK],
    },
    {
      name: 'TestRBDDiskConflicts "different state": the same image and pool behind other monitors fits',
      pod: [rbd(['c', 'd'])],
      existing: [rbd(['a', 'b'])],
      code: 'Success',
      reasons: [],
    },
    {
      name: 'isVolumeConflict: one shared monitor is enough for an RBD conflict',
      pod: [rbd(['b', 'c'])],
      existing: [rbd(['a', 'b'])],
      code: 'Unschedulable',
      reasons: [DISK],
    },
    {
      name: 'isVolumeConflict: an RBD image read-only on both sides is shared',
      pod: [rbd(['a'], true)],
      existing: [rbd(['a'], true)],
      code: 'Success',
      reasons: [],
    },
    {
      name: 'TestISCSIDiskConflicts "nothing": a pod without volumes is skipped',
      pod: [],
      existing: null,
      code: 'Skip',
      reasons: [],
    },
    {
      name: 'TestISCSIDiskConflicts "one state": a pod without volumes is skipped beside an iSCSI user',
      pod: [],
      existing: [iscsi(IQN1)],
      code: 'Skip',
      reasons: [],
    },
    {
      name: 'TestISCSIDiskConflicts "same state": the same IQN conflicts',
      pod: [iscsi(IQN1)],
      existing: [iscsi(IQN1)],
      code: 'Unschedulable',
      reasons: [DISK],
    },
    {
      name: 'TestISCSIDiskConflicts "different state": another IQN fits',
      pod: [iscsi(IQN2)],
      existing: [iscsi(IQN1)],
      code: 'Success',
      reasons: [],
    },
    {
      name: 'isVolumeConflict: the same IQN read-only on both sides is shared',
      pod: [iscsi(IQN1, true)],
      existing: [iscsi(IQN1, true)],
      code: 'Success',
      reasons: [],
    },
  ];

  for (const testCase of CASES) {
    test(testCase.name, () => {
      const node = makeNode('node-1');
      if (testCase.existing !== null) {
        withPods(node, [podWith('existing', testCase.existing)]);
      }
      const status = run(clusterWith([node]), podWith('p', testCase.pod), node);
      assert.equal(status.code, testCase.code);
      assert.deepEqual(messages(status), testCase.reasons);
    });
  }

  test('an rbd volume without a pool gets the API default "rbd"', () => {
    const [volume] = readPodVolumes({ volumes: [{ rbd: { monitors: ['a'], image: 'x' } }] }).disks;
    const [explicit] = readPodVolumes({
      volumes: [{ rbd: { monitors: ['a'], image: 'x', pool: 'rbd' } }],
    }).disks;
    assert.ok(volume !== undefined && explicit !== undefined);
    assert.equal(isVolumeConflict(volume, explicit), true);
  });
});

describe('VolumeRestrictions ReadWriteOncePod claims', () => {
  const RWOP_1 = claim('claim-with-rwop-1', ['ReadWriteOncePod']);
  const RWOP_2 = claim('claim-with-rwop-2', ['ReadWriteOncePod']);
  const RWX = claim('claim-with-rwx', ['ReadWriteMany']);

  const CASES: readonly {
    name: string;
    pod: readonly Volume[];
    existing: readonly (readonly Volume[])[];
    claims: readonly Record<string, unknown>[];
    code: Status['code'];
    reasons: readonly string[];
  }[] = [
    {
      name: 'TestAccessModeConflicts "nothing": a pod without claims is skipped',
      pod: [],
      existing: [],
      claims: [],
      code: 'Skip',
      reasons: [],
    },
    {
      name: 'TestAccessModeConflicts "failed to get PVC": a missing claim refuses the pod at PreFilter',
      pod: [pvc('claim-with-rwop-1')],
      existing: [],
      claims: [RWX],
      code: 'UnschedulableAndUnresolvable',
      reasons: ['persistentvolumeclaim "claim-with-rwop-1" not found'],
    },
    {
      name: 'TestAccessModeConflicts "no access mode conflict": an unused ReadWriteOncePod claim is skipped',
      pod: [pvc('claim-with-rwop-1')],
      existing: [[pvc('claim-with-rwx')]],
      claims: [RWOP_1, RWX],
      code: 'Skip',
      reasons: [],
    },
    {
      name: 'TestAccessModeConflicts "access mode conflict, unschedulable": a claim another pod uses rejects the node',
      pod: [pvc('claim-with-rwop-1')],
      existing: [[pvc('claim-with-rwop-1')], [pvc('claim-with-rwx')]],
      claims: [RWOP_1, RWX],
      code: 'Unschedulable',
      reasons: [RWOP],
    },
    {
      name: 'TestAccessModeConflicts "two conflicts, unschedulable": two claims in use give one reason',
      pod: [pvc('claim-with-rwop-1'), pvc('claim-with-rwop-2')],
      existing: [[pvc('claim-with-rwop-1'), pvc('claim-with-rwop-2')], [pvc('claim-with-rwx')]],
      claims: [RWOP_1, RWOP_2, RWX],
      code: 'Unschedulable',
      reasons: [RWOP],
    },
    {
      name: 'calPreFilterState: a ReadWriteMany claim another pod uses is no conflict',
      pod: [pvc('claim-with-rwx')],
      existing: [[pvc('claim-with-rwx')]],
      claims: [RWX],
      code: 'Skip',
      reasons: [],
    },
  ];

  for (const testCase of CASES) {
    test(testCase.name, () => {
      const node = withPods(
        makeNode('node-1'),
        testCase.existing.map((volumes, index) => podWith(`existing-${index}`, volumes)),
      );
      const status = run(clusterWith([node], testCase.claims), podWith('p', testCase.pod), node);
      assert.equal(status.code, testCase.code);
      assert.deepEqual(messages(status), testCase.reasons);
    });
  }

  test('a claim in use on another node rejects every node: the claim is cluster-wide', () => {
    const user = withPods(makeNode('node-1'), [podWith('user', [pvc('claim-with-rwop-1')])]);
    const empty = makeNode('node-2');
    const status = run(clusterWith([user, empty], [RWOP_1]), podWith('p', [pvc('claim-with-rwop-1')]), empty);
    assert.deepEqual(messages(status), [RWOP]);
  });

  test('a missing claim in a namespace the cluster file does not list is taken to exist', () => {
    const node = makeNode('node-1');
    const status = run(clusterWith([node]), podWith('p', [pvc('elsewhere')]), node);
    assert.equal(status.code, 'Skip');
  });

  test('AddPod/RemovePod: removing the claim user clears the conflict, adding it back restores it', () => {
    const user = podWith('user', [pvc('claim-with-rwop-1')]);
    const node = withPods(makeNode('node-1'), [user]);
    const cluster = clusterWith([node], [RWOP_1]);
    const restrictions = plugin(createVolumeRestrictions, cluster);
    const incoming = podWith('p', [pvc('claim-with-rwop-1')]);
    const state = new CycleState();
    assert.equal(restrictions.preFilter?.(state, incoming, cluster.nodes).status.code, 'Success');
    const whatIf = state.clone();
    restrictions.preFilterExtensions?.removePod(whatIf, incoming, user, node);
    assert.equal(restrictions.filter?.(whatIf, incoming, node).code, 'Success');
    assert.deepEqual(messages(restrictions.filter?.(state, incoming, node) ?? SUCCESS), [RWOP]);
    restrictions.preFilterExtensions?.addPod(whatIf, incoming, user, node);
    assert.deepEqual(messages(restrictions.filter?.(whatIf, incoming, node) ?? SUCCESS), [RWOP]);
  });
});

describe('VolumeRestrictions with preemption', () => {
  const PROFILE: SchedulerProfile = {
    schedulerName: 'default-scheduler',
    plugins: {
      multiPoint: {
        enabled: [
          { name: 'NodeResourcesFit' },
          { name: 'VolumeRestrictions' },
          { name: 'DefaultPreemption' },
        ],
        disabled: [],
      },
    },
    pluginConfig: {},
  };

  function schedule(existing: PodInfo, incoming: PodInfo) {
    const node = withPods(makeNode('node-1'), [existing]);
    const cluster = clusterWith([node], [claim('data', ['ReadWriteOncePod'])]);
    const registry = new Map(IN_TREE_REGISTRY).set('VolumeRestrictions', createVolumeRestrictions);
    const built = buildFramework(PROFILE, registry, cluster, '1.35');
    const scheduler = new Scheduler(cluster, new Map([['default-scheduler', built.framework]]), {
      detail: 'compact',
    });
    const [record] = scheduler.scheduleAll([incoming]);
    assert.ok(record !== undefined);
    return record;
  }

  function prioritised(name: string, priority: number): PodInfo {
    return makePod(name, {
      priority,
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
    });
  }

  test('a higher-priority pod preempts the user of its ReadWriteOncePod claim (Unschedulable, not Unresolvable)', () => {
    const record = schedule(prioritised('low', 0), prioritised('high', 1000));
    assert.equal(record.nodeName, 'node-1');
    assert.deepEqual(
      record.preempted.map((victim) => victim.name),
      ['low'],
    );
  });

  test('an equal-priority pod stays pending with the FitError naming the claim conflict', () => {
    const record = schedule(prioritised('first', 0), prioritised('second', 0));
    assert.equal(record.nodeName, null);
    assert.ok(record.fitError !== null);
    assert.equal(
      formatFitError(record.fitError),
      `0/1 nodes are available: 1 ${RWOP}. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.`,
    );
  });
});
