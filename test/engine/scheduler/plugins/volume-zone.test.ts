import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../../server/src/engine/model/snapshot/cluster';
import { ClusterObjects } from '../../../../server/src/engine/model/snapshot/cluster-objects';
import type { NodeInfo } from '../../../../server/src/engine/model/snapshot/node-info';
import type { PodInfo } from '../../../../server/src/engine/model/snapshot/pod-info';
import { systemPriorityClasses } from '../../../../server/src/engine/model/load/priority';
import { CycleState } from '../../../../server/src/engine/scheduler/framework/cycle-state';
import type { SchedulerPlugin } from '../../../../server/src/engine/scheduler/framework/plugin';
import { SUCCESS } from '../../../../server/src/engine/scheduler/framework/status';
import type { Status } from '../../../../server/src/engine/scheduler/framework/status';
import {
  REASON_CLAIM_WITHOUT_NAME,
  REASON_CLAIM_WITHOUT_VOLUME_OR_CLASS,
  REASON_UNBOUND_IMMEDIATE_CLAIM,
  REASON_VOLUME_ZONE_CONFLICT,
  zoneClaimNotFound,
  createVolumeZone,
  labelZonesToSet,
  storageClassNotFound,
  volumeNotFound,
} from '../../../../server/src/engine/scheduler/plugins/volume-zone';
import { makeNode, makePod, messages } from '../builders';

// Cases of upstream volume_zone_test.go (pkg/scheduler/framework/plugins/volumezone): TestSingleZone,
// TestMultiZone and TestWithBinding, with upstream's volumes, claims and node labels; each row names its case.
// As upstream, PreFilter runs first and Filter then runs on the same cycle state whatever PreFilter said.

const SOURCE = { file: 'test', documentIndex: 0, path: [] };
const CONFLICT = 'node(s) had no available volume zone';

const BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';

type Labels = Record<string, string>;

function volume(name: string, labels: Labels): [string, Record<string, unknown>] {
  return ['PersistentVolume', { kind: 'PersistentVolume', metadata: { name, labels }, spec: {} }];
}

function claim(name: string, spec: Record<string, unknown>): [string, Record<string, unknown>] {
  return [
    'PersistentVolumeClaim',
    { kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default' }, spec },
  ];
}

function storageClass(name: string, mode?: string): [string, Record<string, unknown>] {
  return [
    'StorageClass',
    { kind: 'StorageClass', metadata: { name }, provisioner: 'example.com/csi', volumeBindingMode: mode },
  ];
}

/** A plugin over a cluster of one node and these storage objects (claims listed from the cluster file). */
function plugin(node: NodeInfo, objects: readonly [string, Record<string, unknown>][]): SchedulerPlugin {
  const clusterObjects = new ClusterObjects();
  for (const [kind, object] of objects) {
    clusterObjects.add(kind, object, SOURCE, true);
  }
  const cluster = new Cluster([node], systemPriorityClasses(), new Map(), 'test cluster', clusterObjects);
  return createVolumeZone({
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

function podWithClaim(claimName: string | null): PodInfo {
  const volumes = claimName === null ? [] : [{ name: 'vol', persistentVolumeClaim: { claimName } }];
  return makePod('pod_1', { volumes });
}

interface Outcome {
  readonly code: Status['code'];
  readonly reasons: readonly string[];
}

const OK: Outcome = { code: 'Success', reasons: [] };
const SKIP: Outcome = { code: 'Skip', reasons: [] };
const ZONE_CONFLICT: Outcome = { code: 'UnschedulableAndUnresolvable', reasons: [CONFLICT] };

interface Case {
  readonly name: string;
  readonly claim: string | null;
  readonly node: Labels;
  readonly preFilter: Outcome;
  readonly filter: Outcome;
}

function check(objects: readonly [string, Record<string, unknown>][], testCase: Case): void {
  const node = makeNode('host1', { labels: testCase.node });
  const volumeZone = plugin(node, objects);
  const pod = podWithClaim(testCase.claim);
  const state = new CycleState();
  const preFilter = volumeZone.preFilter?.(state, pod, [node]).status ?? SUCCESS;
  assert.deepEqual({ code: preFilter.code, reasons: messages(preFilter) }, testCase.preFilter);
  const filter = volumeZone.filter?.(state, pod, node) ?? SUCCESS;
  assert.deepEqual({ code: filter.code, reasons: messages(filter) }, testCase.filter);
}

describe('VolumeZone messages', () => {
  test('the reasons carry kube-scheduler exact wording and stable codes', () => {
    assert.equal(REASON_VOLUME_ZONE_CONFLICT.message, CONFLICT);
    assert.equal(REASON_VOLUME_ZONE_CONFLICT.code, 'VolumeZone/ZoneConflict');
    assert.equal(REASON_CLAIM_WITHOUT_NAME.message, 'PersistentVolumeClaim had no name');
    assert.equal(
      REASON_CLAIM_WITHOUT_VOLUME_OR_CLASS.message,
      'PersistentVolumeClaim had no pv name and storageClass name',
    );
    assert.equal(REASON_UNBOUND_IMMEDIATE_CLAIM.message, 'PersistentVolume had no name');
    assert.equal(zoneClaimNotFound('c').message, 'persistentvolumeclaim "c" not found');
    assert.equal(storageClassNotFound('s').message, 'storageclass.storage.k8s.io "s" not found');
    assert.equal(volumeNotFound('v').message, 'persistentvolume "v" not found');
  });

  test('LabelZonesToSet splits on "__", trims, and gives up on an empty part', () => {
    assert.deepEqual([...(labelZonesToSet('us-west1-c__us-west1-a') ?? [])], ['us-west1-c', 'us-west1-a']);
    assert.deepEqual([...(labelZonesToSet(' a ') ?? [])], ['a']);
    assert.equal(labelZonesToSet('a____b'), null);
    assert.equal(labelZonesToSet(''), null);
  });
});

describe('VolumeZone TestSingleZone', () => {
  const OBJECTS = [
    volume('Vol_1', { [BETA_ZONE]: 'us-west1-a' }),
    volume('Vol_2', { [BETA_REGION]: 'us-west1', uselessLabel: 'none' }),
    volume('Vol_3', { [BETA_REGION]: 'us-west1' }),
    volume('Vol_Stable_1', { [ZONE]: 'us-west1-a' }),
    volume('Vol_Stable_2', { [REGION]: 'us-west1', uselessLabel: 'none' }),
    volume('Vol_Stable_3', { [ZONE]: 'us-west1-a', [REGION]: 'us-west1-a' }),
    claim('PVC_1', { volumeName: 'Vol_1' }),
    claim('PVC_2', { volumeName: 'Vol_2' }),
    claim('PVC_3', { volumeName: 'Vol_3' }),
    claim('PVC_4', { volumeName: 'Vol_not_exist' }),
    claim('PVC_Stable_1', { volumeName: 'Vol_Stable_1' }),
    claim('PVC_Stable_2', { volumeName: 'Vol_Stable_2' }),
    claim('PVC_Stable_3', { volumeName: 'Vol_Stable_3' }),
  ];
  const CASES: readonly Case[] = [
    {
      name: '"pod without volume": PreFilter skips',
      claim: null,
      node: { [BETA_ZONE]: 'us-west1-a' },
      preFilter: SKIP,
      filter: OK,
    },
    {
      name: '"node without labels": a node without topology labels fits',
      claim: 'PVC_1',
      node: {},
      preFilter: OK,
      filter: OK,
    },
    {
      name: '"beta zone label matched"',
      claim: 'PVC_1',
      node: { [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' },
      preFilter: OK,
      filter: OK,
    },
    {
      name: '"beta region label matched"',
      claim: 'PVC_2',
      node: { [BETA_REGION]: 'us-west1', uselessLabel: 'none' },
      preFilter: OK,
      filter: OK,
    },
    {
      name: '"beta region label doesn\'t match"',
      claim: 'PVC_2',
      node: { [BETA_REGION]: 'no_us-west1', uselessLabel: 'none' },
      preFilter: OK,
      filter: ZONE_CONFLICT,
    },
    {
      name: '"beta zone label doesn\'t match"',
      claim: 'PVC_1',
      node: { [BETA_ZONE]: 'no_us-west1-a', uselessLabel: 'none' },
      preFilter: OK,
      filter: ZONE_CONFLICT,
    },
    {
      name: '"zone label matched"',
      claim: 'PVC_Stable_1',
      node: { [ZONE]: 'us-west1-a', uselessLabel: 'none' },
      preFilter: OK,
      filter: OK,
    },
    {
      name: '"region label matched"',
      claim: 'PVC_Stable_2',
      node: { [REGION]: 'us-west1', uselessLabel: 'none' },
      preFilter: OK,
      filter: OK,
    },
    {
      name: '"region label doesn\'t match"',
      claim: 'PVC_Stable_2',
      node: { [REGION]: 'no_us-west1', uselessLabel: 'none' },
      preFilter: OK,
      filter: ZONE_CONFLICT,
    },
    {
      name: '"zone label doesn\'t match"',
      claim: 'PVC_Stable_1',
      node: { [ZONE]: 'no_us-west1-a', uselessLabel: 'none' },
      preFilter: OK,
      filter: ZONE_CONFLICT,
    },
    {
      name: '"pv with zone and region, node with only zone": the missing region conflicts',
      claim: 'PVC_Stable_3',
      node: { [ZONE]: 'us-west1-a' },
      preFilter: OK,
      filter: ZONE_CONFLICT,
    },
    {
      name: '"pv with zone,node with beta zone": a GA volume label is not looked up under the beta key',
      claim: 'PVC_Stable_1',
      node: { [BETA_ZONE]: 'us-west1-a' },
      preFilter: OK,
      filter: ZONE_CONFLICT,
    },
    {
      name: '"pv with beta label,node with ga label, matched"',
      claim: 'PVC_1',
      node: { [ZONE]: 'us-west1-a' },
      preFilter: OK,
      filter: OK,
    },
    {
      name: '"pv with beta label,node with ga label, don\'t match"',
      claim: 'PVC_1',
      node: { [ZONE]: 'us-west1-b' },
      preFilter: OK,
      filter: ZONE_CONFLICT,
    },
    {
      name: 'PVC_4 (listed upstream, getErrorAsStatus): a claim bound to a missing volume refuses the pod',
      claim: 'PVC_4',
      node: { [ZONE]: 'us-west1-a' },
      preFilter: {
        code: 'UnschedulableAndUnresolvable',
        reasons: ['persistentvolume "Vol_not_exist" not found'],
      },
      filter: {
        code: 'UnschedulableAndUnresolvable',
        reasons: ['persistentvolume "Vol_not_exist" not found'],
      },
    },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => check(OBJECTS, testCase));
  }
});

describe('VolumeZone TestMultiZone', () => {
  const OBJECTS = [
    volume('Vol_1', { [BETA_ZONE]: 'us-west1-a' }),
    volume('Vol_2', { [BETA_ZONE]: 'us-west1-b', uselessLabel: 'none' }),
    volume('Vol_3', { [BETA_ZONE]: 'us-west1-c__us-west1-a' }),
    volume('Vol_Stable_1', { [ZONE]: 'us-west1-a' }),
    volume('Vol_Stable_2', { [ZONE]: 'us-west1-c__us-west1-a' }),
    claim('PVC_1', { volumeName: 'Vol_1' }),
    claim('PVC_2', { volumeName: 'Vol_2' }),
    claim('PVC_3', { volumeName: 'Vol_3' }),
    claim('PVC_Stable_1', { volumeName: 'Vol_Stable_1' }),
    claim('PVC_Stable_2', { volumeName: 'Vol_Stable_2' }),
  ];
  const CASES: readonly Case[] = [
    { name: '"node without labels"', claim: 'PVC_3', node: {}, preFilter: OK, filter: OK },
    {
      name: '"beta zone label matched": one zone of a "__" list is enough',
      claim: 'PVC_3',
      node: { [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' },
      preFilter: OK,
      filter: OK,
    },
    {
      name: '"beta zone label doesn\'t match"',
      claim: 'PVC_1',
      node: { [BETA_ZONE]: 'us-west1-b', uselessLabel: 'none' },
      preFilter: OK,
      filter: ZONE_CONFLICT,
    },
    {
      name: '"zone label matched"',
      claim: 'PVC_Stable_2',
      node: { [ZONE]: 'us-west1-a', uselessLabel: 'none' },
      preFilter: OK,
      filter: OK,
    },
    {
      name: '"zone label doesn\'t match"',
      claim: 'PVC_Stable_1',
      node: { [ZONE]: 'us-west1-b', uselessLabel: 'none' },
      preFilter: OK,
      filter: ZONE_CONFLICT,
    },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => check(OBJECTS, testCase));
  }

  test('a malformed multi-zone label ("a____b") is ignored, as LabelZonesToSet fails on it', () => {
    const objects = [volume('Vol_bad', { [ZONE]: 'a____b' }), claim('PVC_bad', { volumeName: 'Vol_bad' })];
    check(objects, { name: '', claim: 'PVC_bad', node: { [ZONE]: 'c' }, preFilter: SKIP, filter: OK });
  });
});

describe('VolumeZone TestWithBinding', () => {
  const OBJECTS = [
    storageClass('Class_Immediate'),
    storageClass('Class_Wait', 'WaitForFirstConsumer'),
    volume('Vol_1', { [BETA_ZONE]: 'us-west1-a' }),
    claim('PVC_1', { volumeName: 'Vol_1' }),
    claim('PVC_NoSC', { storageClassName: 'Class_0' }),
    claim('PVC_EmptySC', {}),
    claim('PVC_WaitSC', { storageClassName: 'Class_Wait' }),
    claim('PVC_ImmediateSC', { storageClassName: 'Class_Immediate' }),
  ];
  const NODE = { [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' };
  const refused = (reason: string): Outcome => ({ code: 'UnschedulableAndUnresolvable', reasons: [reason] });
  const CASES: readonly Case[] = [
    { name: '"label zone failure domain matched"', claim: 'PVC_1', node: NODE, preFilter: OK, filter: OK },
    {
      name: '"unbound volume empty storage class": no volume and no class refuses the pod',
      claim: 'PVC_EmptySC',
      node: NODE,
      preFilter: refused('PersistentVolumeClaim had no pv name and storageClass name'),
      filter: refused('PersistentVolumeClaim had no pv name and storageClass name'),
    },
    {
      name: '"unbound volume no storage class": a missing class refuses the pod (the real lister\'s wording)',
      claim: 'PVC_NoSC',
      node: NODE,
      preFilter: refused('storageclass.storage.k8s.io "Class_0" not found'),
      filter: refused('storageclass.storage.k8s.io "Class_0" not found'),
    },
    {
      name: '"unbound volume immediate binding mode": an unbound claim of an Immediate class refuses the pod',
      claim: 'PVC_ImmediateSC',
      node: NODE,
      // Upstream's class has no mode at all ("VolumeBindingMode not set"); the API server defaults it to Immediate.
      preFilter: refused('PersistentVolume had no name'),
      filter: refused('PersistentVolume had no name'),
    },
    {
      name: '"unbound volume wait binding mode": a WaitForFirstConsumer claim is skipped',
      claim: 'PVC_WaitSC',
      node: NODE,
      preFilter: SKIP,
      filter: OK,
    },
    {
      name: 'getErrorAsStatus: a missing claim refuses the pod',
      claim: 'PVC_missing',
      node: NODE,
      preFilter: refused('persistentvolumeclaim "PVC_missing" not found'),
      filter: refused('persistentvolumeclaim "PVC_missing" not found'),
    },
    {
      name: 'getPVbyPod: a persistentVolumeClaim volume naming no claim refuses the pod',
      claim: '',
      node: NODE,
      preFilter: refused('PersistentVolumeClaim had no name'),
      filter: refused('PersistentVolumeClaim had no name'),
    },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => check(OBJECTS, testCase));
  }

  test('a missing claim in a namespace the cluster file does not list is taken to exist, without zones', () => {
    const node = makeNode('host1', { labels: NODE });
    const volumeZone = plugin(node, []);
    const status = volumeZone.preFilter?.(new CycleState(), podWithClaim('elsewhere'), [node]).status;
    assert.equal(status?.code, 'Skip');
  });
});
