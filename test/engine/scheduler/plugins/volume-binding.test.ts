import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Cluster } from '../../../../server/src/engine/model/snapshot/cluster';
import { ClusterObjects } from '../../../../server/src/engine/model/snapshot/cluster-objects';
import type { NodeInfo } from '../../../../server/src/engine/model/snapshot/node-info';
import { systemPriorityClasses } from '../../../../server/src/engine/model/load/priority';
import type { StorageObjects } from '../../../../server/src/engine/model/snapshot/storage-objects';
import { CycleState } from '../../../../server/src/engine/scheduler/framework/cycle-state';
import { SUCCESS } from '../../../../server/src/engine/scheduler/framework/status';
import type { Status } from '../../../../server/src/engine/scheduler/framework/status';
import {
  createVolumeBinding,
  prebindPodVolumes,
} from '../../../../server/src/engine/scheduler/plugins/volume-binding';
import { makeNode, makePod } from '../builders';

// Rows of upstream's volume_binding_test.go (TestVolumeBinding) and binder_test.go
// (TestFindPodVolumesWithoutProvisioning, TestFindPodVolumesWithProvisioning), each named after its case, over the
// same shapes: classes wait-sc (WaitForFirstConsumer) and immediate-sc, claims bound with bind-completed, volumes
// with node affinity on a label. Status texts are kube-scheduler's.

const SOURCE = { file: 'test', documentIndex: 0, path: [] };
const BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
// ErrReasonNodeConflict's wording since v1.33 (PR #129887).
const NODE_CONFLICT = "node(s) didn't match PersistentVolume's node affinity";
const PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
const UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';

type Kind = 'PersistentVolumeClaim' | 'PersistentVolume' | 'StorageClass' | 'CSINode';
type StorageObject = readonly [Kind, Record<string, unknown>];

function storageClass(
  name: string,
  mode: string,
  provisioner = '',
  allowedTopologies?: unknown[],
): StorageObject {
  return [
    'StorageClass',
    {
      kind: 'StorageClass',
      metadata: { name },
      provisioner,
      volumeBindingMode: mode,
      ...(allowedTopologies === undefined ? {} : { allowedTopologies }),
    },
  ];
}

const WAIT_SC = storageClass('wait-sc', 'WaitForFirstConsumer');
const IMMEDIATE_SC = storageClass('immediate-sc', 'Immediate');
const PROVISIONING_SC = storageClass('provisioning-sc', 'WaitForFirstConsumer', 'example.com/disk');
const NO_PROVISIONER_SC = storageClass('local-sc', 'WaitForFirstConsumer', 'kubernetes.io/no-provisioner');
const TOPOLOGY_SC = storageClass('topology-sc', 'WaitForFirstConsumer', 'example.com/disk', [
  { matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['zone-a'] }] },
]);

interface ClaimOptions {
  readonly boundTo?: string;
  readonly storage?: string;
  readonly phase?: string;
  readonly prebound?: string;
}

function claim(name: string, className: string, options: ClaimOptions = {}): StorageObject {
  const annotations = options.boundTo === undefined ? {} : { 'pv.kubernetes.io/bind-completed': 'yes' };
  return [
    'PersistentVolumeClaim',
    {
      kind: 'PersistentVolumeClaim',
      metadata: { name, namespace: 'default', annotations },
      spec: {
        storageClassName: className,
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: options.storage ?? '1Gi' } },
        ...(options.boundTo === undefined ? {} : { volumeName: options.boundTo }),
        ...(options.prebound === undefined ? {} : { volumeName: options.prebound }),
      },
      status: { phase: options.phase ?? (options.boundTo === undefined ? 'Pending' : 'Bound') },
    },
  ];
}

interface VolumeOptions {
  readonly affinity?: Readonly<Record<string, readonly string[]>>;
  readonly capacity?: string;
  readonly phase?: string;
  readonly claimRef?: string;
  readonly local?: boolean;
}

function volume(name: string, className: string, options: VolumeOptions = {}): StorageObject {
  const affinity = options.affinity;
  return [
    'PersistentVolume',
    {
      kind: 'PersistentVolume',
      metadata: { name },
      spec: {
        storageClassName: className,
        capacity: { storage: options.capacity ?? '1Gi' },
        accessModes: ['ReadWriteOnce'],
        ...(options.local === true ? { local: { path: '/mnt/disks/a' } } : {}),
        ...(options.claimRef === undefined
          ? {}
          : { claimRef: { namespace: 'default', name: options.claimRef } }),
        ...(affinity === undefined
          ? {}
          : {
              nodeAffinity: {
                required: {
                  nodeSelectorTerms: [
                    {
                      matchExpressions: Object.entries(affinity).map(([key, values]) => ({
                        key,
                        operator: 'In',
                        values,
                      })),
                    },
                  ],
                },
              },
            }),
      },
      status: { phase: options.phase ?? 'Available' },
    },
  ];
}

function podWithClaims(...claims: string[]) {
  return makePod('pod-a', {
    volumes: claims.map((claimName, index) => ({
      name: `vol-${index}`,
      persistentVolumeClaim: { claimName },
    })),
  });
}

function setUp(nodes: readonly NodeInfo[], objects: readonly StorageObject[]) {
  const clusterObjects = new ClusterObjects();
  for (const [kind, object] of objects) {
    clusterObjects.add(kind, object, SOURCE, true);
  }
  const cluster = new Cluster(nodes, systemPriorityClasses(), new Map(), 'test', clusterObjects);
  const plugin = createVolumeBinding({
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
  return { plugin, storage: clusterObjects.storage };
}

function outcome(status: Status): string {
  return status.code === 'Success'
    ? 'Success'
    : `${status.code}: ${status.reasons.map((r) => r.message).join(' | ')}`;
}

describe('VolumeBinding (TestVolumeBinding)', () => {
  const NODE_A = makeNode('node-a');
  const cases: {
    name: string;
    pod: ReturnType<typeof makePod>;
    nodes?: readonly NodeInfo[];
    objects: readonly StorageObject[];
    preFilter: string;
    nodeNames?: readonly string[] | null;
    filter?: readonly string[];
  }[] = [
    { name: 'pod has not pvcs', pod: makePod('pod-a'), objects: [], preFilter: 'Skip: ' },
    {
      name: 'all bound',
      pod: podWithClaims('pvc-a'),
      objects: [WAIT_SC, claim('pvc-a', 'wait-sc', { boundTo: 'pv-a' }), volume('pv-a', 'wait-sc')],
      preFilter: 'Success',
      nodeNames: null,
      filter: ['Success'],
    },
    {
      name: "all bound with local volumes: PreFilter narrows the nodes to the volumes' host",
      pod: podWithClaims('pvc-a', 'pvc-b'),
      nodes: [NODE_A, makeNode('node-b')],
      objects: [
        WAIT_SC,
        claim('pvc-a', 'wait-sc', { boundTo: 'pv-a' }),
        claim('pvc-b', 'wait-sc', { boundTo: 'pv-b' }),
        volume('pv-a', 'wait-sc', {
          phase: 'Bound',
          local: true,
          affinity: { 'kubernetes.io/hostname': ['node-a'] },
        }),
        volume('pv-b', 'wait-sc', {
          phase: 'Bound',
          local: true,
          affinity: { 'kubernetes.io/hostname': ['node-a'] },
        }),
      ],
      preFilter: 'Success',
      nodeNames: ['node-a'],
    },
    {
      name: 'PVC does not exist',
      pod: podWithClaims('pvc-a'),
      objects: [WAIT_SC, claim('other', 'wait-sc', { boundTo: 'pv-a' })],
      preFilter: 'UnschedulableAndUnresolvable: persistentvolumeclaim "pvc-a" not found',
    },
    {
      name: 'Part of PVCs do not exist',
      pod: podWithClaims('pvc-a', 'pvc-b'),
      objects: [WAIT_SC, claim('pvc-a', 'wait-sc', { boundTo: 'pv-a' })],
      preFilter: 'UnschedulableAndUnresolvable: persistentvolumeclaim "pvc-b" not found',
    },
    {
      name: 'immediate claims not bound',
      pod: podWithClaims('pvc-a'),
      objects: [IMMEDIATE_SC, claim('pvc-a', 'immediate-sc')],
      preFilter: `UnschedulableAndUnresolvable: ${UNBOUND_IMMEDIATE}`,
    },
    {
      name: 'a claim naming a class that does not exist is immediate (IsDelayBindingMode), so it is not bound',
      pod: podWithClaims('pvc-a'),
      objects: [claim('pvc-a', 'fast-ssd')],
      preFilter: `UnschedulableAndUnresolvable: ${UNBOUND_IMMEDIATE}`,
    },
    {
      name: 'unbound claims no matches (a class without provisioner)',
      pod: podWithClaims('pvc-a'),
      objects: [WAIT_SC, claim('pvc-a', 'wait-sc')],
      preFilter: 'Success',
      filter: [`UnschedulableAndUnresolvable: ${BIND_CONFLICT}`],
    },
    {
      name: 'bound and unbound unsatisfied: both reasons, node conflict first',
      pod: podWithClaims('pvc-a', 'pvc-b'),
      nodes: [makeNode('node-a', { labels: { foo: 'barbar' } })],
      objects: [
        WAIT_SC,
        claim('pvc-a', 'wait-sc', { boundTo: 'pv-a' }),
        claim('pvc-b', 'wait-sc'),
        volume('pv-a', 'wait-sc', { affinity: { foo: ['bar'] } }),
      ],
      preFilter: 'Success',
      filter: [`UnschedulableAndUnresolvable: ${NODE_CONFLICT} | ${BIND_CONFLICT}`],
    },
    {
      name: 'pv not found',
      pod: podWithClaims('pvc-a'),
      objects: [WAIT_SC, claim('pvc-a', 'wait-sc', { boundTo: 'pv-a' })],
      preFilter: 'Success',
      filter: [`UnschedulableAndUnresolvable: ${PV_NOT_EXIST}`],
    },
    {
      name: 'pv not found claim lost',
      pod: podWithClaims('pvc-a'),
      objects: [WAIT_SC, claim('pvc-a', 'wait-sc', { boundTo: 'pv-a', phase: 'Lost' })],
      preFilter:
        'UnschedulableAndUnresolvable: persistentvolumeclaim "pvc-a" bound to non-existent persistentvolume "pv-a"',
    },
  ];
  for (const { name, pod, nodes, objects, preFilter, nodeNames, filter } of cases) {
    test(name, () => {
      const nodeList = nodes ?? [NODE_A];
      const { plugin } = setUp(nodeList, objects);
      const state = new CycleState();
      const result = plugin.preFilter?.(state, pod, nodeList);
      assert.equal(outcome(result?.status ?? SUCCESS), preFilter);
      if (nodeNames !== undefined) {
        assert.deepEqual(result?.nodeNames === null ? null : [...(result?.nodeNames ?? [])], nodeNames);
      }
      if (filter !== undefined) {
        assert.deepEqual(
          nodeList.map((node) => outcome(plugin.filter?.(state, pod, node) ?? SUCCESS)),
          filter,
        );
      }
    });
  }
});

describe('the binder on one node (TestFindPodVolumesWithoutProvisioning / WithProvisioning)', () => {
  const NODE1 = makeNode('node1', { labels: { nodeKey: 'node1' } });
  const pv1a = volume('pv-node1a', 'wait-sc', { capacity: '5Gi', affinity: { nodeKey: ['node1'] } });
  const pv1b = volume('pv-node1b', 'wait-sc', { capacity: '10Gi', affinity: { nodeKey: ['node1'] } });
  const pv2 = volume('pv-node2', 'wait-sc', { capacity: '1Gi', affinity: { nodeKey: ['node2'] } });
  const unbound = claim('unbound-pvc', 'wait-sc', { storage: '1Gi' });
  const unbound2 = claim('unbound-pvc2', 'wait-sc', { storage: '5Gi' });

  /** Filter on node1, then what PreBind binds there (claim → volume, "provisioned" for a new one). */
  function run(objects: readonly StorageObject[], ...claims: string[]) {
    const { plugin, storage } = setUp([NODE1], objects);
    const pod = podWithClaims(...claims);
    const state = new CycleState();
    const pre = plugin.preFilter?.(state, pod, [NODE1]);
    if (pre !== undefined && pre.status.code !== 'Success') {
      return { filter: outcome(pre.status), bindings: [] as string[], storage };
    }
    const filter = outcome(plugin.filter?.(state, pod, NODE1) ?? SUCCESS);
    const bindings =
      filter === 'Success'
        ? prebindPodVolumes(storage, pod, { name: 'node1', labels: NODE1.labels }).map(
            (entry) => `${entry.claim.name}→${entry.provisioned ? 'provisioned' : entry.volume.name}`,
          )
        : [];
    return { filter, bindings, storage };
  }

  const cases: {
    name: string;
    objects: readonly StorageObject[];
    claims: string[];
    filter: string;
    bindings: string[];
  }[] = [
    {
      name: 'bound-pvc',
      objects: [
        WAIT_SC,
        claim('bound-pvc', 'wait-sc', { boundTo: 'pv-bound' }),
        volume('pv-bound', 'wait-sc', { phase: 'Bound', claimRef: 'bound-pvc' }),
      ],
      claims: ['bound-pvc'],
      filter: 'Success',
      bindings: [],
    },
    {
      name: 'bound-pvc,pv-not-exists',
      objects: [WAIT_SC, claim('bound-pvc', 'wait-sc', { boundTo: 'pv-bound' })],
      claims: ['bound-pvc'],
      filter: `UnschedulableAndUnresolvable: ${PV_NOT_EXIST}`,
      bindings: [],
    },
    {
      name: 'prebound-pvc: a claim naming its volume is not bound until the PV controller says so',
      objects: [
        WAIT_SC,
        claim('prebound-pvc', 'wait-sc', { prebound: 'pv-node1a' }),
        volume('pv-node1a', 'wait-sc', { claimRef: 'prebound-pvc', affinity: { nodeKey: ['node1'] } }),
      ],
      claims: ['prebound-pvc'],
      filter: `UnschedulableAndUnresolvable: ${UNBOUND_IMMEDIATE}`,
      bindings: [],
    },
    {
      name: 'unbound-pvc,pv-same-node: the smallest volume on the node',
      objects: [WAIT_SC, unbound, pv2, pv1a, pv1b],
      claims: ['unbound-pvc'],
      filter: 'Success',
      bindings: ['unbound-pvc→pv-node1a'],
    },
    {
      name: 'unbound-pvc,pv-different-node',
      objects: [WAIT_SC, unbound, pv2],
      claims: ['unbound-pvc'],
      filter: `UnschedulableAndUnresolvable: ${BIND_CONFLICT}`,
      bindings: [],
    },
    {
      name: 'two-unbound-pvcs',
      objects: [WAIT_SC, unbound, unbound2, pv1a, pv1b],
      claims: ['unbound-pvc', 'unbound-pvc2'],
      filter: 'Success',
      bindings: ['unbound-pvc→pv-node1a', 'unbound-pvc2→pv-node1b'],
    },
    {
      name: 'two-unbound-pvcs,order-by-size: the smaller claim chooses first',
      objects: [WAIT_SC, unbound, unbound2, pv1a, pv1b],
      claims: ['unbound-pvc2', 'unbound-pvc'],
      filter: 'Success',
      bindings: ['unbound-pvc→pv-node1a', 'unbound-pvc2→pv-node1b'],
    },
    {
      name: 'two-unbound-pvcs,partial-match',
      objects: [WAIT_SC, unbound, unbound2, pv1a],
      claims: ['unbound-pvc', 'unbound-pvc2'],
      filter: `UnschedulableAndUnresolvable: ${BIND_CONFLICT}`,
      bindings: [],
    },
    {
      name: 'one-bound,one-unbound',
      objects: [
        WAIT_SC,
        unbound,
        claim('bound-pvc', 'wait-sc', { boundTo: 'pv-bound' }),
        volume('pv-bound', 'wait-sc', { phase: 'Bound', claimRef: 'bound-pvc' }),
        pv1a,
      ],
      claims: ['unbound-pvc', 'bound-pvc'],
      filter: 'Success',
      bindings: ['unbound-pvc→pv-node1a'],
    },
    {
      name: 'immediate-bound-pvc-wrong-node',
      objects: [
        IMMEDIATE_SC,
        claim('bound-pvc', 'immediate-sc', { boundTo: 'pv-node2' }),
        volume('pv-node2', 'immediate-sc', { phase: 'Bound', affinity: { nodeKey: ['node2'] } }),
      ],
      claims: ['bound-pvc'],
      filter: `UnschedulableAndUnresolvable: ${NODE_CONFLICT}`,
      bindings: [],
    },
    {
      name: 'one-provisioned (WithProvisioning)',
      objects: [PROVISIONING_SC, claim('provisioned-pvc', 'provisioning-sc')],
      claims: ['provisioned-pvc'],
      filter: 'Success',
      bindings: ['provisioned-pvc→provisioned'],
    },
    {
      name: 'one-binding,one-provisioned (WithProvisioning)',
      objects: [WAIT_SC, PROVISIONING_SC, unbound, pv1a, claim('provisioned-pvc', 'provisioning-sc')],
      claims: ['unbound-pvc', 'provisioned-pvc'],
      filter: 'Success',
      bindings: ['unbound-pvc→pv-node1a', 'provisioned-pvc→provisioned'],
    },
    {
      name: 'invalid-provisioner: kubernetes.io/no-provisioner creates nothing (WithProvisioning)',
      objects: [NO_PROVISIONER_SC, claim('local-pvc', 'local-sc')],
      claims: ['local-pvc'],
      filter: `UnschedulableAndUnresolvable: ${BIND_CONFLICT}`,
      bindings: [],
    },
    {
      name: 'allowedTopologies that the node does not match: no provisioning there (checkVolumeProvisions)',
      objects: [TOPOLOGY_SC, claim('zonal-pvc', 'topology-sc')],
      claims: ['zonal-pvc'],
      filter: `UnschedulableAndUnresolvable: ${BIND_CONFLICT}`,
      bindings: [],
    },
  ];
  for (const { name, objects, claims, filter, bindings } of cases) {
    test(name, () => {
      const result = run(objects, ...claims);
      assert.equal(result.filter, filter);
      assert.deepEqual(result.bindings, bindings);
    });
  }

  test('a provisioned volume is pinned to the zone of the node it was made for, and binds both ways', () => {
    const zoned = makeNode('node1', { labels: { 'topology.kubernetes.io/zone': 'zone-b' } });
    const { storage } = setUp(
      [zoned],
      [PROVISIONING_SC, claim('data', 'provisioning-sc', { storage: '20Gi' })],
    );
    const pod = podWithClaims('data');
    const [bound] = prebindPodVolumes(storage, pod, { name: 'node1', labels: zoned.labels });
    const claimInfo = storage.claim('default', 'data');
    assert.equal(claimInfo?.phase, 'Bound');
    assert.equal(claimInfo?.volumeName, bound?.volume.name);
    assert.equal(claimInfo?.selectedNode, 'node1');
    assert.equal(bound?.volume.capacityBytes, 20 * 1024 ** 3);
    assert.deepEqual(bound?.volume.claimRef, { namespace: 'default', name: 'data' });
    assert.deepEqual(bound?.volume.nodeAffinity, {
      nodeSelectorTerms: [
        { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-b'] }] },
      ],
    });
    assertRefusesOtherZone(storage);
  });

  function assertRefusesOtherZone(storage: StorageObjects): void {
    // The claim is now bound: a pod using it fits only a node of zone-b.
    const nodes = [
      makeNode('in-b', { labels: { 'topology.kubernetes.io/zone': 'zone-b' } }),
      makeNode('in-c', { labels: { 'topology.kubernetes.io/zone': 'zone-c' } }),
    ];
    const clusterObjects = { storage } as unknown as ClusterObjects;
    const cluster = new Cluster(nodes, systemPriorityClasses(), new Map(), 'test', clusterObjects);
    const plugin = createVolumeBinding({
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
    const pod = podWithClaims('data');
    const state = new CycleState();
    plugin.preFilter?.(state, pod, nodes);
    assert.deepEqual(
      nodes.map((node) => outcome(plugin.filter?.(state, pod, node) ?? SUCCESS)),
      ['Success', `UnschedulableAndUnresolvable: ${NODE_CONFLICT}`],
    );
  }
});
