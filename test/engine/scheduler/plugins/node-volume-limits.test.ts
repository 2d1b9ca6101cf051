import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../../server/src/engine/model/snapshot/cluster';
import { ClusterObjects } from '../../../../server/src/engine/model/snapshot/cluster-objects';
import { loadPod } from '../../../../server/src/engine/model/load/pod-load';
import type { PodInfo } from '../../../../server/src/engine/model/snapshot/pod-info';
import { systemPriorityClasses } from '../../../../server/src/engine/model/load/priority';
import { CycleState } from '../../../../server/src/engine/scheduler/framework/cycle-state';
import type { SchedulerPlugin } from '../../../../server/src/engine/scheduler/framework/plugin';
import { SUCCESS } from '../../../../server/src/engine/scheduler/framework/status';
import type { Status } from '../../../../server/src/engine/scheduler/framework/status';
import {
  REASON_MAX_VOLUME_COUNT_EXCEEDED,
  claimLookupFailed,
  createNodeVolumeLimits,
} from '../../../../server/src/engine/scheduler/plugins/node-volume-limits';
import {
  driverOfProvisioner,
  migrateInTree,
} from '../../../../server/src/engine/scheduler/plugins/node-volume-limits/in-tree';
import { makeNode, messages, withPods } from '../builders';
import type { Finding } from '../../../../protocol/finding';

// Cases of upstream TestCSILimits (pkg/scheduler/framework/plugins/nodevolumelimits/csi_test.go) with upstream's
// fixture (getFakeCSIPVLister, getFakeCSIPVCLister, getFakeCSIStorageClassLister, getNodeWithPodAndVolumeLimits):
// for each driver, claims "csi-<driver>-0..3" bound to volumes of the same name and handle; "csi-4" unbound with
// class "csi-sc"; "csi-5" without class; "csi-6" bound to a missing volume; class "csi-sc" provisioned by the
// first driver; a CSINode listing every driver with the limit (or without one). Not carried over: the
// VolumeAttachment rows (not modelled) and "ephemeral volume not owned" (claims carry no ownerReferences here);
// "…, ephemeral disabled" is the same situation as its enabled twin since the gate is gone.

const SOURCE = { file: 'test', documentIndex: 0, path: [] };
const NODE = 'node-for-max-pd-test-1';
const EBS = 'ebs.csi.aws.com';
const GCE = 'pd.csi.storage.gke.io';
const AWS_IN_TREE = 'kubernetes.io/aws-ebs';
const HOSTPATH_IN_TREE = 'kubernetes.io/hostpath';
const EXCEEDED = 'node(s) exceed max volume count';

type Volume = Record<string, unknown>;
type LimitSource = 'csinode' | 'csinode-with-no-limit' | 'none';

let podCount = 0;

/** A pod in a namespace with these volumes (unnamed volumes get one, as the API requires). */
function pod(volumes: readonly Volume[], namespace = 'default', name = `pod-${++podCount}`): PodInfo {
  const findings: Finding[] = [];
  const object = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: {
      containers: [{ name: 'c', image: 'busybox' }],
      volumes: volumes.map((volume, index) => ({ name: `v${index}`, ...volume })),
    },
  };
  const context = { version: '1.35' as const, priorityClasses: systemPriorityClasses(), findings };
  const info = loadPod(object, SOURCE, null, context, true);
  assert.ok(info !== null && findings.length === 0);
  return info;
}

const pvc = (claimName: string): Volume => ({ persistentVolumeClaim: { claimName } });
const ephemeral = (name: string): Volume => ({ name, ephemeral: { volumeClaimTemplate: { spec: {} } } });
const awsInline = (volumeID: string): Volume => ({ awsElasticBlockStore: { volumeID } });
const configMap: Volume = { configMap: { name: 'cm' } };
const secret: Volume = { secret: { secretName: 's' } };

/** The pods of upstream's table (built fresh per test: a PodInfo sits on one node). */
const PODS = {
  runningPod: () => pod([pvc('csi-ebs.csi.aws.com-3')]),
  pendingVolumePod: () => pod([pvc('csi-4')]),
  unboundPVCPod2: () => pod([pvc('csi-4')]),
  missingPVPod: () => pod([pvc('csi-6')]),
  noSCPVCPod: () => pod([pvc('csi-5')]),
  gceTwoVolPod: () => pod([pvc('csi-pd.csi.storage.gke.io-1'), pvc('csi-pd.csi.storage.gke.io-2')]),
  inTreeOneVolPod: () => pod([pvc('csi-kubernetes.io/aws-ebs-0')]),
  inTreeTwoVolPod: () => pod([pvc('csi-kubernetes.io/aws-ebs-1'), pvc('csi-kubernetes.io/aws-ebs-2')]),
  csiEBSOneVolPod: () => pod([pvc('csi-ebs.csi.aws.com-0')]),
  csiEBSTwoVolPod: () => pod([pvc('csi-ebs.csi.aws.com-1'), pvc('csi-ebs.csi.aws.com-2')]),
  inTreeNonMigratableOneVolPod: () => pod([pvc('csi-kubernetes.io/hostpath-0')]),
  ephemeralVolumePod: () => pod([ephemeral('xyz')], 'test', 'abc'),
  ephemeralTwoVolumePod: () => pod([ephemeral('x'), ephemeral('y')], 'test', 'abc'),
  inTreeInlineVolPod: () => pod([awsInline('aws-inline1')]),
  inTreeInlineVolPodWithSameCSIVolumeID: () => pod([awsInline('csi-ebs.csi.aws.com-1')]),
  onlyConfigmapAndSecretVolPod: () => pod([configMap, secret]),
  pvcPodWithConfigmapAndSecret: () => pod([configMap, secret, pvc('csi-ebs.csi.aws.com-0')]),
  ephemeralPodWithConfigmapAndSecret: () => pod([configMap, secret, ephemeral('xyz')], 'test', 'abc'),
  inlineMigratablePodWithConfigmapAndSecret: () => pod([configMap, secret, awsInline('aws-inline1')]),
};
type PodName = keyof typeof PODS;

/** The claim upstream's ephemeral pods need, unbound with class "csi-sc". */
function ephemeralClaim(name: string): Record<string, unknown> {
  return {
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'test' },
    spec: { storageClassName: 'csi-sc' },
  };
}

/** Upstream's fixture as storage objects. */
function fixture(drivers: readonly string[], limitSource: LimitSource, maxVols: number): [string, Volume][] {
  const objects: [string, Volume][] = [];
  const claimOf = (name: string, spec: Volume): [string, Volume] => [
    'PersistentVolumeClaim',
    { kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default' }, spec },
  ];
  for (const driver of drivers) {
    for (let j = 0; j < 4; j++) {
      const name = `csi-${driver}-${j}`;
      const source =
        driver === AWS_IN_TREE
          ? { awsElasticBlockStore: { volumeID: name } }
          : driver === HOSTPATH_IN_TREE
            ? { hostPath: { path: '/tmp' } }
            : { csi: { driver, volumeHandle: name } };
      objects.push(['PersistentVolume', { kind: 'PersistentVolume', metadata: { name }, spec: source }]);
      objects.push(claimOf(name, { volumeName: name }));
    }
  }
  objects.push(claimOf('csi-4', { storageClassName: 'csi-sc' }));
  objects.push(claimOf('csi-5', {}));
  objects.push(claimOf('csi-6', { storageClassName: 'csi-sc', volumeName: 'missing-in-action' }));
  objects.push([
    'StorageClass',
    { kind: 'StorageClass', metadata: { name: 'csi-sc' }, provisioner: drivers[0] ?? '' },
  ]);
  if (limitSource !== 'none') {
    const entries = drivers.map((name) => ({
      name,
      nodeID: NODE,
      ...(limitSource === 'csinode' ? { allocatable: { count: maxVols } } : {}),
    }));
    objects.push(['CSINode', { kind: 'CSINode', metadata: { name: NODE }, spec: { drivers: entries } }]);
  }
  return objects;
}

interface Case {
  readonly test: string;
  readonly newPod: PodName;
  readonly existingPods?: readonly PodName[];
  readonly extraClaims?: readonly string[];
  readonly maxVols?: number;
  readonly driverNames: readonly string[];
  readonly limitSource: LimitSource;
  readonly wantPreFilter?: Status['code'];
  readonly want: { readonly code: Status['code']; readonly reasons: readonly string[] };
}

const FITS = { code: 'Success', reasons: [] } as const;
const EXCEEDS = { code: 'Unschedulable', reasons: [EXCEEDED] } as const;

function limitsPlugin(cluster: Cluster): SchedulerPlugin {
  return createNodeVolumeLimits({
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

function run(testCase: Case): { preFilter: Status; filter: Status | null } {
  const objects = new ClusterObjects();
  for (const [kind, object] of fixture(testCase.driverNames, testCase.limitSource, testCase.maxVols ?? 0)) {
    objects.add(kind, object, SOURCE, true);
  }
  for (const name of testCase.extraClaims ?? []) {
    objects.add('PersistentVolumeClaim', ephemeralClaim(name), SOURCE, true);
  }
  const node = withPods(
    makeNode(NODE),
    (testCase.existingPods ?? []).map((name) => PODS[name]()),
  );
  const limits = limitsPlugin(
    new Cluster([node], systemPriorityClasses(), new Map(), 'test cluster', objects),
  );
  const incoming = PODS[testCase.newPod]();
  const state = new CycleState();
  const preFilter = limits.preFilter?.(state, incoming, [node]).status ?? SUCCESS;
  if (preFilter.code === 'Skip') {
    return { preFilter, filter: null };
  }
  return { preFilter, filter: limits.filter?.(state, incoming, node) ?? SUCCESS };
}

const CASES: readonly Case[] = [
  {
    test: 'fits when node volume limit >= new pods CSI volume',
    newPod: 'csiEBSOneVolPod',
    existingPods: ['runningPod', 'csiEBSTwoVolPod'],
    maxVols: 4,
    driverNames: [EBS],
    limitSource: 'csinode',
    want: FITS,
  },
  {
    test: "doesn't when node volume limit <= pods CSI volume",
    newPod: 'csiEBSOneVolPod',
    existingPods: ['runningPod', 'csiEBSTwoVolPod'],
    maxVols: 2,
    driverNames: [EBS],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
  {
    test: 'should when driver does not support volume limits',
    newPod: 'csiEBSOneVolPod',
    existingPods: ['runningPod', 'csiEBSTwoVolPod'],
    maxVols: 2,
    driverNames: [EBS],
    limitSource: 'csinode-with-no-limit',
    want: FITS,
  },
  {
    test: 'count pending PVCs towards volume limit <= pods CSI volume',
    newPod: 'csiEBSOneVolPod',
    existingPods: ['pendingVolumePod', 'csiEBSTwoVolPod'],
    maxVols: 2,
    driverNames: [EBS],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
  {
    test: 'count multiple pending pvcs towards volume limit >= pods CSI volume (two pods sharing an unbound claim count it once)',
    newPod: 'csiEBSOneVolPod',
    existingPods: ['pendingVolumePod', 'unboundPVCPod2', 'csiEBSTwoVolPod'],
    maxVols: 4,
    driverNames: [EBS],
    limitSource: 'csinode',
    want: FITS,
  },
  {
    test: 'should count PVCs with invalid PV name but valid SC',
    newPod: 'csiEBSOneVolPod',
    existingPods: ['missingPVPod', 'csiEBSTwoVolPod'],
    maxVols: 2,
    driverNames: [EBS],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
  {
    test: "don't count pvcs with missing SC towards volume limit",
    newPod: 'csiEBSOneVolPod',
    existingPods: ['runningPod', 'noSCPVCPod'],
    maxVols: 2,
    driverNames: [EBS],
    limitSource: 'csinode',
    want: FITS,
  },
  {
    test: 'count pvcs with the same type towards volume limit',
    newPod: 'csiEBSOneVolPod',
    existingPods: ['gceTwoVolPod', 'csiEBSTwoVolPod'],
    maxVols: 2,
    driverNames: [EBS, GCE],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
  {
    test: "don't count pvcs with different type towards volume limit",
    newPod: 'gceTwoVolPod',
    existingPods: ['csiEBSTwoVolPod', 'runningPod'],
    maxVols: 2,
    driverNames: [EBS, GCE],
    limitSource: 'csinode',
    want: FITS,
  },
  {
    test: 'should count in-tree volumes if migration is enabled',
    newPod: 'inTreeOneVolPod',
    existingPods: ['inTreeTwoVolPod'],
    maxVols: 2,
    driverNames: [AWS_IN_TREE, EBS],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
  {
    test: 'nil csi node (no CSINode: no limit, nothing migrated)',
    newPod: 'inTreeInlineVolPod',
    existingPods: ['inTreeTwoVolPod'],
    driverNames: [AWS_IN_TREE, EBS],
    limitSource: 'none',
    want: FITS,
  },
  {
    test: 'should count unbound in-tree volumes if migration is enabled',
    newPod: 'pendingVolumePod',
    existingPods: ['inTreeTwoVolPod'],
    maxVols: 2,
    driverNames: [AWS_IN_TREE, EBS],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
  {
    test: 'should not limit pod if volume used does not report limits',
    newPod: 'inTreeOneVolPod',
    existingPods: ['inTreeTwoVolPod'],
    maxVols: 2,
    driverNames: [AWS_IN_TREE, EBS],
    limitSource: 'csinode-with-no-limit',
    want: FITS,
  },
  {
    test: 'should not count non-migratable in-tree volumes',
    newPod: 'inTreeNonMigratableOneVolPod',
    existingPods: ['csiEBSTwoVolPod'],
    maxVols: 2,
    driverNames: [HOSTPATH_IN_TREE, EBS],
    limitSource: 'csinode',
    want: FITS,
  },
  {
    test: 'should count in-tree inline volumes if migration is enabled',
    newPod: 'inTreeInlineVolPod',
    existingPods: ['inTreeTwoVolPod'],
    maxVols: 2,
    driverNames: [AWS_IN_TREE, EBS],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
  {
    test: 'should count in-tree and csi volumes if migration is enabled (when scheduling in-tree volumes)',
    newPod: 'inTreeOneVolPod',
    existingPods: ['csiEBSTwoVolPod'],
    maxVols: 2,
    driverNames: [AWS_IN_TREE, EBS],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
  {
    test: 'should count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree volumes)',
    newPod: 'inTreeInlineVolPod',
    existingPods: ['csiEBSTwoVolPod', 'inTreeOneVolPod'],
    maxVols: 3,
    driverNames: [AWS_IN_TREE, EBS],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
  {
    test: 'should not count in-tree, inline and csi volumes if migration is enabled (an inline disk with the handle of an attached CSI volume)',
    newPod: 'inTreeInlineVolPodWithSameCSIVolumeID',
    existingPods: ['csiEBSTwoVolPod', 'inTreeOneVolPod'],
    maxVols: 3,
    driverNames: [AWS_IN_TREE, EBS],
    limitSource: 'csinode',
    want: FITS,
  },
  {
    test: 'should count in-tree and csi volumes if migration is enabled (when scheduling csi volumes)',
    newPod: 'csiEBSOneVolPod',
    existingPods: ['inTreeTwoVolPod'],
    maxVols: 2,
    driverNames: [AWS_IN_TREE, EBS],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
  {
    test: 'ephemeral volume missing',
    newPod: 'ephemeralVolumePod',
    driverNames: [EBS],
    limitSource: 'csinode-with-no-limit',
    want: {
      code: 'UnschedulableAndUnresolvable',
      reasons: ['looking up PVC test/abc-xyz: persistentvolumeclaim "abc-xyz" not found'],
    },
  },
  {
    test: 'ephemeral volume unbound',
    newPod: 'ephemeralVolumePod',
    extraClaims: ['abc-xyz'],
    driverNames: [EBS],
    limitSource: 'csinode-with-no-limit',
    want: FITS,
  },
  {
    test: "ephemeral doesn't when node volume limit <= pods CSI volume",
    newPod: 'ephemeralVolumePod',
    extraClaims: ['abc-xyz'],
    existingPods: ['runningPod', 'csiEBSTwoVolPod'],
    maxVols: 2,
    driverNames: [EBS],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
  {
    test: "ephemeral doesn't when node volume limit <= pods ephemeral CSI volume",
    newPod: 'csiEBSOneVolPod',
    extraClaims: ['abc-x', 'abc-y'],
    existingPods: ['runningPod', 'ephemeralTwoVolumePod'],
    maxVols: 2,
    driverNames: [EBS],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
  {
    test: "persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume",
    newPod: 'csiEBSOneVolPod',
    extraClaims: ['abc-xyz'],
    existingPods: ['runningPod', 'ephemeralVolumePod', 'csiEBSTwoVolPod'],
    maxVols: 3,
    driverNames: [EBS],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
  {
    test: 'persistent okay when node volume limit > pods ephemeral CSI volume + persistent volume',
    newPod: 'csiEBSOneVolPod',
    extraClaims: ['abc-xyz'],
    existingPods: ['runningPod', 'ephemeralVolumePod', 'csiEBSTwoVolPod'],
    maxVols: 5,
    driverNames: [EBS],
    limitSource: 'csinode',
    want: FITS,
  },
  {
    test: 'skip Filter when the pod only uses secrets and configmaps',
    newPod: 'onlyConfigmapAndSecretVolPod',
    maxVols: 2,
    driverNames: [EBS],
    limitSource: 'csinode',
    wantPreFilter: 'Skip',
    want: FITS,
  },
  {
    test: "don't skip Filter when the pod has pvcs",
    newPod: 'pvcPodWithConfigmapAndSecret',
    maxVols: 2,
    driverNames: [EBS],
    limitSource: 'csinode',
    want: FITS,
  },
  {
    test: "don't skip Filter when the pod has ephemeral volumes",
    newPod: 'ephemeralPodWithConfigmapAndSecret',
    driverNames: [EBS],
    limitSource: 'csinode-with-no-limit',
    want: {
      code: 'UnschedulableAndUnresolvable',
      reasons: ['looking up PVC test/abc-xyz: persistentvolumeclaim "abc-xyz" not found'],
    },
  },
  {
    test: "don't skip Filter when the pod has inline migratable volumes",
    newPod: 'inlineMigratablePodWithConfigmapAndSecret',
    existingPods: ['inTreeTwoVolPod'],
    maxVols: 2,
    driverNames: [AWS_IN_TREE, EBS],
    limitSource: 'csinode',
    want: EXCEEDS,
  },
];

describe('NodeVolumeLimits messages', () => {
  test('the reasons carry kube-scheduler exact wording and stable codes', () => {
    assert.equal(REASON_MAX_VOLUME_COUNT_EXCEEDED.message, EXCEEDED);
    assert.equal(REASON_MAX_VOLUME_COUNT_EXCEEDED.code, 'NodeVolumeLimits/MaxVolumeCountExceeded');
    assert.equal(
      claimLookupFailed('ns', 'c').message,
      'looking up PVC ns/c: persistentvolumeclaim "c" not found',
    );
  });
});

describe('NodeVolumeLimits TestCSILimits', () => {
  for (const testCase of CASES) {
    test(testCase.test, () => {
      const { preFilter, filter } = run(testCase);
      assert.equal(preFilter.code, testCase.wantPreFilter ?? 'Success');
      if (filter !== null) {
        assert.deepEqual({ code: filter.code, reasons: messages(filter) }, testCase.want);
      }
    });
  }
});

describe('NodeVolumeLimits in-tree translation', () => {
  test('EBS ids: "aws://<zone>/<id>" and "aws:///<id>" give the bare id; a bad one is an error', () => {
    const ebs = (volumeID: string) => migrateInTree({ awsElasticBlockStore: { volumeID } }, null, true);
    assert.deepEqual(ebs('aws://us-east-1a/vol-123'), { driver: EBS, handle: 'vol-123' });
    assert.deepEqual(ebs('aws:///vol-123'), { driver: EBS, handle: 'vol-123' });
    assert.deepEqual(ebs('vol-123'), { driver: EBS, handle: 'vol-123' });
    assert.deepEqual(ebs('aws://us-east-1a/disk'), {
      error: 'Invalid format for AWS volume (aws://us-east-1a/disk)',
    });
  });

  test("GCE PD handles: unspecified inline, zonal or regional from a PV's zone labels", () => {
    const source = { gcePersistentDisk: { pdName: 'pd' } };
    assert.deepEqual(migrateInTree(source, null, true), {
      driver: GCE,
      handle: 'projects/UNSPECIFIED/zones/UNSPECIFIED/disks/pd',
    });
    assert.deepEqual(migrateInTree(source, { 'topology.kubernetes.io/zone': 'us-central1-a' }, true), {
      driver: GCE,
      handle: 'projects/UNSPECIFIED/zones/us-central1-a/disks/pd',
    });
    assert.deepEqual(
      migrateInTree(source, { 'topology.kubernetes.io/zone': 'us-central1-a__us-central1-b' }, true),
      { driver: GCE, handle: 'projects/UNSPECIFIED/regions/us-central1/disks/pd' },
    );
  });

  test('no CSINode, or a plugin whose migration is not counted (Azure File), counts nothing', () => {
    assert.equal(migrateInTree({ gcePersistentDisk: { pdName: 'pd' } }, null, false), null);
    assert.equal(migrateInTree({ azureFile: { shareName: 's' } }, null, true), null);
    assert.equal(migrateInTree({ hostPath: { path: '/tmp' } }, null, true), null);
    assert.equal(driverOfProvisioner('kubernetes.io/gce-pd', true), GCE);
    assert.equal(driverOfProvisioner('kubernetes.io/gce-pd', false), null);
    assert.equal(driverOfProvisioner('kubernetes.io/azure-file', true), null);
    assert.equal(driverOfProvisioner(EBS, false), EBS);
  });

  test('an inline volume that cannot be translated is an error on the node', () => {
    const objects = new ClusterObjects();
    const csiNode = { kind: 'CSINode', metadata: { name: NODE }, spec: { drivers: [{ name: EBS }] } };
    objects.add('CSINode', csiNode, SOURCE, true);
    const node = makeNode(NODE);
    const limits = limitsPlugin(
      new Cluster([node], systemPriorityClasses(), new Map(), 'test cluster', objects),
    );
    const status = limits.filter?.(new CycleState(), pod([awsInline('aws://zone/not-a-volume')]), node);
    assert.equal(status?.code, 'Error');
    assert.deepEqual(messages(status ?? SUCCESS), [
      'converting volume(v0) from inline to csi: Invalid format for AWS volume (aws://zone/not-a-volume)',
    ]);
  });
});
