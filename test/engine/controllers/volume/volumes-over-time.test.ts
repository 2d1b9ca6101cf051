import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventsOf, nodes, run, workload } from '../../../support/timeline-builders';

/** Three workers in zones a, b and c. */
function zonalNodes(): unknown[] {
  return nodes(3).map((node, index) => {
    const object = node as { metadata: { labels: Record<string, string> } };
    object.metadata.labels['topology.kubernetes.io/zone'] = `zone-${'abc'[index] ?? 'x'}`;
    return object;
  });
}

const STANDARD = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
  provisioner: 'example.com/disk',
  volumeBindingMode: 'WaitForFirstConsumer',
};

/** A StatefulSet of `replicas` with one claim template "data" (of `className`, or the default). */
function database(replicas: number, className?: string): Record<string, unknown> {
  const set = workload('StatefulSet', 'db', 'postgres:17', { replicas });
  const spec = set['spec'] as Record<string, unknown>;
  spec['volumeClaimTemplates'] = [
    {
      metadata: { name: 'data' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '10Gi' } },
        ...(className === undefined ? {} : { storageClassName: className }),
      },
    },
  ];
  return set;
}

describe("a StatefulSet's claims over time (stateful_pod_control.go, the PV controller, VolumeBinding PreBind)", () => {
  test('each ordinal gets its claim "<template>-<set>-<ordinal>" before its pod, with the default class', () => {
    const result = run({ cluster: [...zonalNodes(), STANDARD], manifests: [database(2)], until: 300 });
    const created = eventsOf(result, 'ClaimCreated').map((event) => [event.object.name, event.message]);
    assert.deepEqual(created, [
      ['data-db-0', 'create Claim data-db-0 Pod db-0 in StatefulSet db success'],
      ['data-db-1', 'create Claim data-db-1 Pod db-1 in StatefulSet db success'],
    ]);
    const claims = [...result.storage.claims.values()];
    assert.deepEqual(
      claims.map((claim) => [claim.name, claim.storageClassName, claim.phase]),
      [
        ['data-db-0', 'standard', 'Bound'],
        ['data-db-1', 'standard', 'Bound'],
      ],
    );
  });

  test("a WaitForFirstConsumer claim is provisioned for the node its pod lands on, in that node's zone", () => {
    const result = run({ cluster: [...zonalNodes(), STANDARD], manifests: [database(1)], until: 300 });
    const pod = result.state.pods.get('default/db-0');
    const bound = eventsOf(result, 'ClaimBound', 'data-db-0')[0];
    assert.equal(bound?.node, pod?.nodeName);
    assert.match(
      bound?.message ?? '',
      /^Successfully provisioned volume pvc-default-data-db-0 for node worker-\d$/,
    );
    // The claim is bound before the pod is (PreBind runs before Bind).
    const scheduled = eventsOf(result, 'PodScheduled', 'db-0')[0];
    assert.ok(
      bound !== undefined &&
        scheduled !== undefined &&
        result.events.indexOf(bound) < result.events.indexOf(scheduled),
    );
  });

  test('the zonal volume keeps the rescheduled pod in its zone: after a drain it stays Pending elsewhere', () => {
    const result = run({
      cluster: [...zonalNodes(), STANDARD],
      manifests: [database(1)],
      steps: [
        {
          at: 60,
          action: {
            type: 'drain',
            node: 'worker-1',
            options: { ignoreDaemonSets: true, deleteEmptyDirData: true, force: false },
          },
        },
      ],
      until: 600,
    });
    const first = eventsOf(result, 'PodScheduled', 'db-0')[0];
    assert.equal(first?.node, 'worker-1'); // the first node wins the tie
    const unschedulable = eventsOf(result, 'PodUnschedulable', 'db-0').at(-1);
    assert.match(
      unschedulable?.message ?? '',
      /^0\/3 nodes are available: 1 node\(s\) were unschedulable, 2 node\(s\) didn't match PersistentVolume's node affinity\./,
    );
  });

  test('a class that does not exist: ProvisioningFailed, the pod Pending with unbound immediate claims, an error on the class', () => {
    const result = run({
      cluster: [...zonalNodes(), STANDARD],
      manifests: [database(1, 'fast-ssd')],
      until: 300,
    });
    assert.deepEqual(
      eventsOf(result, 'ProvisioningFailed').map((event) => event.message),
      ['storageclass.storage.k8s.io "fast-ssd" not found'],
    );
    assert.match(
      eventsOf(result, 'PodUnschedulable', 'db-0')[0]?.message ?? '',
      /^0\/3 nodes are available: pod has unbound immediate PersistentVolumeClaims\./,
    );
    const errors = result.findings.filter((finding) => finding.code === 'claim-pending');
    assert.equal(errors.length, 1);
    assert.deepEqual(errors[0]?.path, ['spec', 'volumeClaimTemplates', 0, 'spec', 'storageClassName']);
    assert.equal(
      errors[0]?.message,
      'PersistentVolumeClaim "data-db-0" stays Pending (storageclass.storage.k8s.io "fast-ssd" not found), so pod db-0 stays Pending: pod has unbound immediate PersistentVolumeClaims',
    );
  });

  test('a cluster file without StorageClasses assumes the default class, so the claim binds (no false alarm)', () => {
    const result = run({ cluster: zonalNodes(), manifests: [database(1)], until: 300 });
    assert.equal(result.storage.claim('default', 'data-db-0')?.phase, 'Bound');
    assert.equal(result.findings.filter((finding) => finding.code === 'storage-class-assumed').length, 1);
  });

  test('a generic ephemeral volume gets its claim "<pod>-<volume>" when the pod is created', () => {
    const ephemeral = {
      name: 'scratch',
      ephemeral: {
        volumeClaimTemplate: {
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      },
    };
    const result = run({
      cluster: [...zonalNodes(), STANDARD],
      manifests: [workload('Deployment', 'web', 'web:1', { replicas: 1 }, { volumes: [ephemeral] })],
      until: 300,
    });
    const pod = [...result.state.pods.values()].find((candidate) => candidate.name.startsWith('web-'));
    assert.notEqual(pod?.nodeName ?? null, null);
    assert.equal(result.storage.claim('default', `${pod?.name ?? ''}-scratch`)?.phase, 'Bound');
  });

  test('a Deployment without volumes is untouched: no claim, no claim event', () => {
    const result = run({
      cluster: [...zonalNodes(), STANDARD],
      manifests: [workload('Deployment', 'web', 'web:1')],
    });
    assert.equal(result.storage.claims.size, 0);
    assert.equal(eventsOf(result, 'ClaimBound').length, 0);
  });

  test('a claim naming a volume without class gets the default class, so the volume refuses it (VolumeMismatch)', () => {
    const pv = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'models' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadOnlyMany'],
        hostPath: { path: '/mnt/models' },
      },
    };
    const claimObject = (storageClassName?: string) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'models', namespace: 'default' },
      spec: {
        accessModes: ['ReadOnlyMany'],
        resources: { requests: { storage: '1Gi' } },
        volumeName: 'models',
        ...(storageClassName === undefined ? {} : { storageClassName }),
      },
    });
    const podSpec = { volumes: [{ name: 'm', persistentVolumeClaim: { claimName: 'models' } }] };
    const deployment = workload('Deployment', 'serve', 'serve:1', { replicas: 1 }, podSpec);
    const stuck = run({ cluster: [...zonalNodes(), STANDARD], manifests: [pv, claimObject(), deployment] });
    const error = stuck.findings.find((finding) => finding.code === 'claim-pending');
    assert.match(
      error?.message ?? '',
      /^PersistentVolumeClaim "models" stays Pending \(Cannot bind to requested volume "models": storageClassName does not match; /,
    );
    assert.deepEqual(error?.path, ['spec', 'volumeName']);
    // storageClassName: "" asks for a volume without class: the claim binds and the pod runs.
    const fixed = run({ cluster: [...zonalNodes(), STANDARD], manifests: [pv, claimObject(''), deployment] });
    assert.equal(fixed.storage.claim('default', 'models')?.phase, 'Bound');
    assert.equal(fixed.findings.filter((finding) => finding.code === 'claim-pending').length, 0);
  });

  test('a claim naming a volume the cluster file may hold (it lists no PersistentVolumes) is assumed bound', () => {
    const claimObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'default' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '1Gi' } },
        volumeName: 'pv-data',
        storageClassName: '',
      },
    };
    const result = run({ cluster: [...zonalNodes(), STANDARD], manifests: [claimObject] });
    assert.equal(result.storage.claim('default', 'data')?.phase, 'Bound');
    assert.equal(result.findings.filter((finding) => finding.code === 'claim-assumed').length, 1);
  });

  test("persistentVolumeClaimRetentionPolicy whenScaled: Delete removes a scaled-down ordinal's claim; Retain keeps it", () => {
    const scaleTo1 = [
      {
        at: 120,
        action: {
          type: 'scale' as const,
          kind: 'StatefulSet' as const,
          namespace: 'default',
          name: 'db',
          replicas: 1,
        },
      },
    ];
    const withPolicy = (whenScaled: string) => {
      const set = database(2);
      (set['spec'] as Record<string, unknown>)['persistentVolumeClaimRetentionPolicy'] = { whenScaled };
      return run({ cluster: [...zonalNodes(), STANDARD], manifests: [set], steps: scaleTo1, until: 600 });
    };
    const deleted = withPolicy('Delete');
    assert.deepEqual(
      eventsOf(deleted, 'ClaimDeleted').map((event) => event.object.name),
      ['data-db-1'],
    );
    assert.deepEqual([...deleted.storage.claims.keys()], ['default/data-db-0']);
    const retained = withPolicy('Retain');
    assert.equal(eventsOf(retained, 'ClaimDeleted').length, 0);
    assert.equal(retained.storage.claim('default', 'data-db-1')?.phase, 'Bound');
  });
});
